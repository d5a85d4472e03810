package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// NodeSearch is what EvaluateNodes chooses from: a grid of node
// classifiers and, optionally, a second grid built on the chosen one (the
// protocol of Huang et al. 2021 for Correct & Smooth: the base model is
// tuned first, then C&S's weights on that base, both on the same
// validation nodes).
type NodeSearch struct {
	// Grid returns fresh, unfitted candidates for labels of the given
	// number of classes, each with its class count set to it (so that a
	// fold without some class still predicts every column). Candidates may
	// share memoised work (a propagated design, a base model), which
	// ChooseNode's fold-major loop reuses.
	Grid func(classes int) []estimator.NodeClassifier
	// Refine, when set, returns the second grid, built on the chosen
	// candidate (fitted on the training labels); no models when it does
	// not refine that candidate, whose choice then stands.
	Refine func(best estimator.NodeClassifier) []estimator.NodeClassifier
	// Metric chooses and scores (zero: accuracy).
	Metric Metric
}

// NodeChoice is the outcome of ChooseNode.
type NodeChoice struct {
	// Best is the chosen candidate, fitted on the training labels: the
	// model itself when the candidate wraps one to share its fit
	// (nodeclass.FitOnce; see unwrapper).
	Best estimator.NodeClassifier
	// Index is Best's position among the candidates.
	Index int
	// Scores are the validation scores (the pooled held-out score for
	// cross-validation), one per candidate.
	Scores []float64
}

// ChooseNode is ChooseNodeBy with accuracy.
func ChooseNode(ctx context.Context, cands []estimator.NodeClassifier, x estimator.Nodes, labels, val []int, cv CV) (*NodeChoice, error) {
	return ChooseNodeBy(ctx, MetricAccuracy, cands, x, labels, val, cv)
}

// ChooseNodeBy fits every candidate and returns the one with the best
// score under metric (the first on ties). labels holds every label the protocol may
// see (−1 unknown). With val nodes, each candidate is fitted on labels
// with the val labels hidden and scored on val, and the chosen one stays
// fitted on the training labels (the Planetoid protocol). Without val
// nodes, the labelled nodes are dealt into the stratified folds of cv
// (CV.NewFolds), the score is the pooled held-out accuracy, and the chosen
// one is refitted on every label. The loop runs fold by fold over the
// candidates, so that candidates sharing memoised work fit it once per
// fold. The candidates are fitted in place.
func ChooseNodeBy(ctx context.Context, metric Metric, cands []estimator.NodeClassifier, x estimator.Nodes, labels, val []int, cv CV) (*NodeChoice, error) {
	if len(cands) == 0 {
		return nil, errors.New("eval: choose: no candidates")
	}
	if err := checkNodeLabels(x, labels); err != nil {
		return nil, err
	}
	parts, err := choiceParts(labels, val, cv)
	if err != nil {
		return nil, err
	}
	scores, err := scoreCandidates(ctx, metric, cands, x, labels, val, parts)
	if err != nil {
		return nil, err
	}
	best, err := FirstBest(scores)
	if err != nil {
		return nil, err
	}
	final := parts[0].train
	if len(val) == 0 {
		final = labels
	}
	chosen, err := refitChosen(ctx, cands[best], x, final, val, labels)
	if err != nil {
		return nil, err
	}
	return &NodeChoice{Best: chosen, Index: best, Scores: scores}, nil
}

// choicePart is one training set of a selection and the nodes it is
// scored on.
type choicePart struct{ train, test []int }

// choiceParts returns the training sets of ChooseNodeBy: labels with the
// val nodes hidden, scored on val, or one per fold of cv without val.
func choiceParts(labels, val []int, cv CV) ([]choicePart, error) {
	if len(val) > 0 {
		train := slices.Clone(labels)
		for _, i := range val {
			if i < 0 || i >= len(labels) || labels[i] < 0 {
				return nil, fmt.Errorf("eval: choose: val node %d has no label", i)
			}
			train[i] = -1
		}
		return []choicePart{{train, val}}, nil
	}
	folds, err := cv.NewFolds(labels)
	if err != nil {
		return nil, fmt.Errorf("eval: choose: %w", err)
	}
	var parts []choicePart
	for f := 0; f < folds.K; f++ {
		_, test := folds.Split(f)
		train := slices.Clone(labels)
		for _, i := range test {
			train[i] = -1
		}
		parts = append(parts, choicePart{train, test})
	}
	return parts, nil
}

// scoreCandidates fits every candidate on every part, part by part, and
// returns each one's pooled held-out score under metric: the accuracy, or
// the macro ROC AUC of its held-out score rows.
func scoreCandidates(ctx context.Context, metric Metric, cands []estimator.NodeClassifier, x estimator.Nodes, labels, val []int, parts []choicePart) ([]float64, error) {
	right := make([]int, len(cands))
	total := 0
	// For ROC AUC, each candidate's held-out score rows, in the order of
	// the parts' test nodes (held).
	var held []int
	var pooled []*mat.Dense
	if metric == MetricROCAUC {
		pooled = make([]*mat.Dense, len(cands))
		for _, p := range parts {
			held = append(held, p.test...)
		}
	}
	for _, p := range parts {
		off := total
		total += len(p.test)
		for k, c := range cands {
			if err := fitOn(ctx, c, x, p.train, val, labels); err != nil {
				return nil, fmt.Errorf("eval: choose: candidate %d (%v): %w", k, c, err)
			}
			pr, err := c.Predict(ctx, estimator.FittedNodes)
			if err != nil {
				return nil, err
			}
			if pooled != nil {
				if pooled[k] == nil {
					_, nc := pr.Dims()
					pooled[k] = mat.NewDense(len(held), nc, nil)
				}
				for j, i := range p.test {
					pooled[k].SetRow(off+j, pr.RawRowView(i))
				}
				continue
			}
			pred := estimator.Argmax(pr)
			for _, i := range p.test {
				if pred[i] == labels[i] {
					right[k]++
				}
			}
		}
	}
	scores := make([]float64, len(cands))
	for k, r := range right {
		scores[k] = float64(r) / float64(total)
	}
	if pooled == nil {
		return scores, nil
	}
	heldLabels := make([]int, len(held))
	for j, i := range held {
		heldLabels[j] = labels[i]
	}
	for k := range cands {
		var err error
		if scores[k], err = MacroROCAUC(pooled[k], heldLabels, nil); err != nil {
			return nil, fmt.Errorf("eval: choose: candidate %d (%v): %w", k, cands[k], err)
		}
	}
	return scores, nil
}

// refitChosen refits the chosen candidate on the final labels (detached
// from its grid when it shares state with it) and returns the model
// itself, unwrapped from any memo.
func refitChosen(ctx context.Context, chosen estimator.NodeClassifier, x estimator.Nodes, final, val, labels []int) (estimator.NodeClassifier, error) {
	if d, ok := chosen.(detacher); ok {
		chosen = d.Detached()
	}
	if err := fitOn(ctx, chosen, x, final, val, labels); err != nil {
		return nil, fmt.Errorf("eval: choose: refitting %v: %w", chosen, err)
	}
	for {
		u, ok := chosen.(unwrapper)
		if !ok {
			return chosen, nil
		}
		chosen = u.Unwrap()
	}
}

// unwrapper is a candidate that wraps another model to share a fit with
// the rest of its grid (nodeclass.FitOnce's memo, which skips a refit on
// the inputs of its last fit): Unwrap returns the model inside, fitted by
// the wrapper's last fit, without refitting it. The chosen candidate is
// refitted first (through the wrapper, so the refit on the inputs it was
// scored with costs nothing) and then unwrapped, so that the model
// returned, saved and reported is the model itself.
type unwrapper interface {
	Unwrap() estimator.NodeClassifier
}

// detacher is a candidate that shares state with the other candidates of
// its grid (nodeclass's warm-started penalty path): Detached returns an
// unfitted copy that shares nothing, so that the chosen model is refitted
// exactly as a user fits that model alone.
type detacher interface {
	Detached() estimator.NodeClassifier
}

// validatedFitter is a model that stops early on given validation nodes
// (nodeclass.SepGNN, LINKX, ChannelMLP).
type validatedFitter interface {
	FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error
}

// fitOn fits c on train; a model that stops early on validation nodes
// stops on the split's val nodes (with their labels), as Platonov et al.
// train, instead of holding out some of the training nodes.
func fitOn(ctx context.Context, c estimator.NodeClassifier, x estimator.Nodes, train, val, labels []int) error {
	if v, ok := c.(validatedFitter); ok && len(val) > 0 {
		valLabels := make([]int, len(val))
		for k, i := range val {
			valLabels[k] = labels[i]
		}
		return v.FitValidated(ctx, x, train, val, valLabels)
	}
	return c.Fit(ctx, x, train)
}

// checkNodeLabels checks the graph and labels of a node protocol.
func checkNodeLabels(x estimator.Nodes, labels []int) error {
	if x.Graph == nil || x.Graph.Nodes() == 0 {
		return errors.New("eval: the graph has no nodes")
	}
	if n := x.Graph.Nodes(); len(labels) != n {
		return fmt.Errorf("eval: %d labels for %d nodes", len(labels), n)
	}
	for _, l := range labels {
		if l >= 0 {
			return nil
		}
	}
	return errors.New("eval: no labelled nodes (every label is −1)")
}

// NodeOutcome is the result of EvaluateNodes on one split.
type NodeOutcome struct {
	Model         string     // the chosen model (its fmt.Sprint)
	Metric        Metric     // what Val and Test are
	Val           float64    // its validation score (pooled CV score without val nodes)
	Test          float64    // its test score (0 without test nodes)
	TestAccuracy  float64    // its test accuracy, whatever the metric (0 without test nodes)
	Probabilities *mat.Dense // its class scores of every node
	// Best is the chosen model, fitted on the training labels.
	Best estimator.NodeClassifier
	// With NodeSearch.Refine, when it refined the first choice: the model
	// chosen from the first grid, and its accuracies ("" and 0 otherwise).
	Base              string
	BaseVal, BaseTest float64
}

// EvaluateNodes runs the protocol of one split: the candidates see the
// labels of the training and validation nodes only, ChooseNode picks one
// on the val nodes (by cross-validation over the training nodes with cv
// when the split has none) and the chosen model, fitted on the training
// labels (all labelled nodes without val), is scored on the test nodes;
// with s.Refine, the second grid is searched the same way and its choice
// scored. truth holds every known label; the number of classes given to
// s.Grid is 1 + the largest training or val label.
func EvaluateNodes(ctx context.Context, s NodeSearch, x estimator.Nodes, truth []int, split Split, cv CV) (NodeOutcome, error) {
	known := make([]int, len(truth))
	for i := range known {
		known[i] = -1
	}
	classes := 0
	for _, part := range [][]int{split.Train, split.Val} {
		for _, i := range part {
			if i < 0 || i >= len(truth) || truth[i] < 0 {
				return NodeOutcome{}, fmt.Errorf("eval: split node %d has no label", i)
			}
			known[i] = truth[i]
			classes = max(classes, truth[i]+1)
		}
	}
	out := NodeOutcome{Metric: s.Metric}
	score := func(sel *NodeChoice) (string, float64, float64, *mat.Dense, error) {
		p, err := sel.Best.Predict(ctx, estimator.FittedNodes)
		if err != nil {
			return "", 0, 0, nil, err
		}
		test := 0.0
		out.TestAccuracy = 0
		if len(split.Test) > 0 {
			if test, err = s.Metric.Score(p, truth, split.Test); err != nil {
				return "", 0, 0, nil, err
			}
			if out.TestAccuracy, err = Accuracy(estimator.Argmax(p), truth, split.Test); err != nil {
				return "", 0, 0, nil, err
			}
		}
		return fmt.Sprint(sel.Best), sel.Scores[sel.Index], test, p, nil
	}
	sel, err := ChooseNodeBy(ctx, s.Metric, s.Grid(classes), x, known, split.Val, cv)
	if err != nil {
		return NodeOutcome{}, err
	}
	if out.Model, out.Val, out.Test, out.Probabilities, err = score(sel); err != nil {
		return NodeOutcome{}, err
	}
	out.Best = sel.Best
	if s.Refine == nil {
		return out, nil
	}
	refined := s.Refine(sel.Best)
	if len(refined) == 0 {
		return out, nil
	}
	out.Base, out.BaseVal, out.BaseTest = out.Model, out.Val, out.Test
	if sel, err = ChooseNodeBy(ctx, s.Metric, refined, x, known, split.Val, cv); err != nil {
		return NodeOutcome{}, err
	}
	if out.Model, out.Val, out.Test, out.Probabilities, err = score(sel); err != nil {
		return NodeOutcome{}, err
	}
	out.Best = sel.Best
	return out, nil
}

// NodeRun is one seed's run of EvaluateSeeds.
type NodeRun struct {
	Seed  uint64
	Split Split
	NodeOutcome
}

// NodeSeeds is the repeated protocol of EvaluateSeeds.
type NodeSeeds struct {
	Search NodeSearch
	// Seeds are the runs' seeds, in order.
	Seeds []uint64
	// Split returns the split of a seed.
	Split func(seed uint64) (Split, error)
	// CV returns the cross-validation of a seed's run on its split (used
	// when the split has no val nodes).
	CV func(seed uint64, sp Split) CV
	// Done, when set, is called with the number of finished runs.
	Done func(finished int)
}

// EvaluateSeeds runs EvaluateNodes once per seed (RunSeeds) and returns
// the runs in order. Only the first run keeps its chosen model (Best);
// the later runs' are dropped with their grids.
func EvaluateSeeds(ctx context.Context, p NodeSeeds, x estimator.Nodes, truth []int) ([]NodeRun, error) {
	return RunSeeds(ctx, p.Seeds, func(ctx context.Context, seed uint64) (NodeRun, error) {
		sp, err := p.Split(seed)
		if err != nil {
			return NodeRun{}, err
		}
		o, err := EvaluateNodes(ctx, p.Search, x, truth, sp, p.CV(seed, sp))
		if err != nil {
			return NodeRun{}, err
		}
		if seed != p.Seeds[0] {
			o.Best = nil
		}
		return NodeRun{Seed: seed, Split: sp, NodeOutcome: o}, nil
	}, p.Done)
}
