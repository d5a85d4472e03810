package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/propagate"
	"github.com/gssl/gssl/stkr"
)

// Setting is what the learner sees at fit time (the paper's Appendix D.1).
type Setting int

const (
	// Transductive: every node and edge is visible; val and test labels are
	// hidden. n = |train|, m = |val| + |test| + |other|.
	Transductive Setting = iota
	// Inductive: the test nodes and all their edges are invisible at every
	// fit, and are predicted afterwards as new points from their edges to
	// the visible nodes. Hyperparameters are chosen as in the paper, with
	// the val nodes and their edges hidden too (n = |train|, m = |other|),
	// so that val accuracy is accuracy on unseen nodes; the chosen
	// regressor is then refitted with the val nodes visible and unlabelled
	// (m = |val| + |other|) before it predicts test (ChooseSTKR). Only the test
	// nodes differ from Transductive at the fit that predicts them.
	Inductive
	// InductiveStrict is the paper's Appendix D.1 read literally: the val
	// nodes stay hidden in the fit that predicts test as well, n = |train|,
	// m = |other|. Where val is a large share of a sparse graph (Cora: 18 %)
	// this cuts paths to the test nodes and costs about 8 points of test
	// accuracy against Transductive (BENCHMARKS.md, STKR).
	InductiveStrict
	// InductiveTestOnly is a looser inductive setting (not the paper's):
	// only the test nodes and their edges are invisible; val nodes stay in
	// the graph as unlabelled nodes and are predicted transductively for
	// model selection. n = |train|, m = |val| + |other|.
	InductiveTestOnly
)

var settingNames = []string{"transductive", "inductive", "inductive-strict", "inductive-test-only"}

// String returns the setting's name as ParseSetting reads it.
func (s Setting) String() string {
	if s >= 0 && int(s) < len(settingNames) {
		return settingNames[s]
	}
	return fmt.Sprintf("Setting(%d)", int(s))
}

// ParseSetting reads "transductive" ("t"), "inductive" ("i"),
// "inductive-strict" or "inductive-test-only".
func ParseSetting(s string) (Setting, error) {
	switch s {
	case "t":
		return Transductive, nil
	case "i":
		return Inductive, nil
	}
	for i, name := range settingNames {
		if s == name {
			return Setting(i), nil
		}
	}
	return 0, fmt.Errorf("stkr: unknown setting %q: want %s", s, strings.Join(settingNames, ", "))
}

// hidesVal reports whether the val nodes are invisible in the setting's
// selection fits.
func (s Setting) hidesVal() bool { return s == Inductive || s == InductiveStrict }

// Partition is the paper's four-way split of the nodes (Appendix D.1):
// train and val are labelled, test and other unlabelled; only test is
// scored.
type Partition struct {
	Train, Val, Test, Other []int
}

// NewPartition turns a train/val/test split of n nodes into the four sets.
// With pTest > 0, round(pTest·n) nodes drawn (with seed) from the split's
// test set form the test set and its remaining nodes join "other" — the
// paper's p_test (for Cora, CiteSeer and PubMed it takes the real test set
// out of the default 1000-node one). pTest = 0 keeps the whole test set.
// Every node in no set is "other".
func NewPartition(n int, s eval.Split, pTest float64, seed uint64) (Partition, error) {
	if !(pTest >= 0 && pTest < 1) {
		return Partition{}, fmt.Errorf("stkr: p_test=%v is invalid: it must be in [0, 1) (0 keeps the split's test set)", pTest)
	}
	where := make([]int8, n)
	for k, part := range [][]int{s.Train, s.Val, s.Test} {
		for _, i := range part {
			if i < 0 || i >= n {
				return Partition{}, fmt.Errorf("stkr: split node %d out of range [0, %d)", i, n)
			}
			if where[i] != 0 {
				return Partition{}, fmt.Errorf("stkr: split node %d is in two parts", i)
			}
			where[i] = int8(k + 1)
		}
	}
	if len(s.Train) == 0 || len(s.Test) == 0 {
		return Partition{}, fmt.Errorf("stkr: split has %d train and %d test nodes; both must be non-empty", len(s.Train), len(s.Test))
	}
	p := Partition{Train: sorted(s.Train), Val: sorted(s.Val), Test: sorted(s.Test)}
	if pTest > 0 {
		want := testSize(n, pTest)
		if want > len(s.Test) {
			return Partition{}, fmt.Errorf("stkr: p_test=%v asks for %d test nodes but the split has only %d", pTest, want, len(s.Test))
		}
		p.Test = sorted(drawOrder(p.Test, seed)[:want])
		where = make([]int8, n)
		for k, part := range [][]int{p.Train, p.Val, p.Test} {
			for _, i := range part {
				where[i] = int8(k + 1)
			}
		}
	}
	// Other is most of the graph: sized once, not grown by appends (on
	// 10⁷ nodes they would leave 0.3 GB of garbage before the fit).
	if rest := n - len(p.Train) - len(p.Val) - len(p.Test); rest > 0 {
		p.Other = make([]int, 0, rest)
	}
	for i, w := range where {
		if w == 0 {
			p.Other = append(p.Other, i)
		}
	}
	return p, nil
}

// testSize is the paper's number of test nodes, round(pTest·n), at least 1.
func testSize(n int, pTest float64) int { return max(1, int(math.Round(pTest*float64(n)))) }

// drawOrder returns the (sorted) test nodes in the random order, fixed by
// seed, in which NewPartition draws its p_test subset.
func drawOrder(test []int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x5354_4b52)) // "STKR"
	perm := rng.Perm(len(test))
	out := make([]int, len(test))
	for k, q := range perm {
		out[k] = test[q]
	}
	return out
}

// TestChunks scores every test node of a split at the paper's hidden
// fraction p_test: it cuts the split's test nodes, in the order in which
// NewPartition draws them with seed, into consecutive chunks of
// round(pTest·n) nodes (the last one may be smaller) and returns one
// partition per chunk, whose test set is the chunk and whose "other" set
// holds every other unassigned node, the other test nodes included. The
// first chunk's partition is NewPartition(n, s, pTest, seed). Fitting once
// per chunk in the inductive setting hides only round(pTest·n) test nodes at
// a time, yet every test node of the split is scored: a low-noise estimate
// of the protocol's test accuracy. pTest must be in (0, 1).
func TestChunks(n int, s eval.Split, pTest float64, seed uint64) ([]Partition, error) {
	if !(pTest > 0 && pTest < 1) {
		return nil, fmt.Errorf("stkr: test chunks: p_test=%v is invalid: it must be in (0, 1)", pTest)
	}
	all, err := NewPartition(n, s, 0, seed)
	if err != nil {
		return nil, err
	}
	size := testSize(n, pTest)
	if size > len(all.Test) {
		return nil, fmt.Errorf("stkr: p_test=%v asks for %d test nodes but the split has only %d", pTest, size, len(all.Test))
	}
	order := drawOrder(all.Test, seed)
	var out []Partition
	for lo := 0; lo < len(order); lo += size {
		hi := min(lo+size, len(order))
		other := append(append([]int(nil), all.Other...), order[:lo]...)
		other = append(other, order[hi:]...)
		out = append(out, Partition{Train: all.Train, Val: all.Val, Test: sorted(order[lo:hi]), Other: sorted(other)})
	}
	return out, nil
}

func sorted(xs []int) []int {
	out := append([]int(nil), xs...)
	slices.Sort(out)
	return out
}

// Task is a node-classification problem: a graph and a label per node
// (negative = unknown, never trained on or scored).
type Task struct {
	Graph   *graph.CSR
	Labels  []int
	Classes int
}

// STKRPrepared is a task, a partition and a setting made ready for fitting many
// hyperparameter settings: the base kernel on the visible graph, the one-hot
// targets, and (inductive) the kernel rows of the val and test nodes.
type STKRPrepared struct {
	Setting Setting
	// Visible is N, the number of nodes the learner sees at fit time.
	Visible int
	kernel  *stkr.GraphKernel
	base    stkr.BaseKernel // fitted instead of kernel when set (UseFeatures)
	train   []int           // kernel ids
	y       *mat.Dense
	labels  []int
	val     []int // original ids
	test    []int
	valAt   []int // transductive: kernel ids of val / test
	testAt  []int
	valRow  []stkr.KernelRow // inductive
	testRow []stkr.KernelRow
	prior   int
}

// PrepareSTKR builds the kernel of the setting's selection fits. In the
// inductive settings the visible graph is the subgraph induced by
// train ∪ other (∪ val for InductiveTestOnly; degrees computed on it), and
// each hidden val or test node x gets the kernel row of its edges to
// visible nodes, k(x)_j = N·w(x,x_j)/√(d_x d_j). For Inductive this is the
// view hyperparameters are chosen on; ChooseSTKR adds the refit.
func PrepareSTKR(task Task, part Partition, setting Setting) (*STKRPrepared, error) {
	if err := checkSTKRTask(task, part); err != nil {
		return nil, err
	}
	g := task.Graph
	p := &STKRPrepared{Setting: setting, labels: task.Labels, val: part.Val, test: part.Test}
	counts := make([]int, task.Classes)
	p.y = mat.NewDense(len(part.Train), task.Classes, nil)
	for t, i := range part.Train {
		p.y.Set(t, task.Labels[i], 1)
		counts[task.Labels[i]]++
	}
	for c, k := range counts {
		if k > counts[p.prior] {
			p.prior = c
		}
	}
	switch setting {
	case Transductive:
		k, err := stkr.NewGraphKernel(g)
		if err != nil {
			return nil, err
		}
		p.kernel, p.train, p.valAt, p.testAt = k, part.Train, part.Val, part.Test
	case Inductive, InductiveStrict, InductiveTestOnly:
		if err := p.prepareInductive(g, part); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("stkr: unknown setting %d", int(setting))
	}
	p.Visible = p.kernel.Dim()
	return p, nil
}

// checkSTKRTask checks the graph, the labels and the training nodes.
func checkSTKRTask(task Task, part Partition) error {
	g := task.Graph
	if g == nil {
		return fmt.Errorf("stkr: task has no graph")
	}
	n := g.Nodes()
	if len(task.Labels) != n {
		return fmt.Errorf("stkr: %d labels for a graph of %d nodes", len(task.Labels), n)
	}
	if task.Classes < 1 {
		return fmt.Errorf("stkr: task has %d classes", task.Classes)
	}
	for _, i := range part.Train {
		if i < 0 || i >= n {
			return fmt.Errorf("stkr: train node %d out of range [0, %d)", i, n)
		}
		if l := task.Labels[i]; l < 0 || l >= task.Classes {
			return fmt.Errorf("stkr: train node %d has label %d, outside [0, %d)", i, l, task.Classes)
		}
	}
	// The train × Classes targets are sized by a number: at most half the
	// classes may lack a training node (a label is not a count).
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(trainLabels(task.Labels, part.Train))))); task.Classes > 2*distinct {
		return fmt.Errorf("stkr: task has %d classes but its %d training nodes have %d distinct labels: at most half the classes may have no training node (number the classes 0..C−1)", task.Classes, len(part.Train), distinct)
	}
	return nil
}

// prepareInductive builds the kernel on the graph induced by the visible
// nodes (train and other, and val unless the setting hides it); a hidden
// node is scored through its kernel row from its edges to visible nodes.
func (p *STKRPrepared) prepareInductive(g *graph.CSR, part Partition) error {
	visible := sorted(append(append([]int(nil), part.Train...), part.Other...))
	if !p.Setting.hidesVal() {
		visible = sorted(append(visible, part.Val...))
	}
	sub, err := g.Induced(visible)
	if err != nil {
		return fmt.Errorf("stkr: inductive setting: %w", err)
	}
	k, err := stkr.NewGraphKernel(sub.CSR)
	if err != nil {
		return err
	}
	p.kernel = k
	p.train = make([]int, len(part.Train))
	for t, i := range part.Train {
		p.train[t], _ = sub.Local(i)
	}
	rows := func(nodes []int) ([]stkr.KernelRow, error) {
		out := make([]stkr.KernelRow, len(nodes))
		for t, x := range nodes {
			cols, ws := g.Row(x)
			var nb []int
			var wt []float64
			for q, j := range cols {
				if l, ok := sub.Local(int(j)); ok {
					nb = append(nb, l)
					wt = append(wt, ws[q])
				}
			}
			r, err := k.Row(nb, wt)
			if err != nil {
				return nil, fmt.Errorf("stkr: node %d: %w", x, err)
			}
			out[t] = r
		}
		return out, nil
	}
	if !p.Setting.hidesVal() {
		p.valAt = make([]int, len(part.Val))
		for t, i := range part.Val {
			p.valAt[t], _ = sub.Local(i)
		}
	} else if p.valRow, err = rows(part.Val); err != nil {
		return err
	}
	p.testRow, err = rows(part.Test)
	return err
}

// Kernel returns the base kernel on the visible graph.
func (p *STKRPrepared) Kernel() *stkr.GraphKernel { return p.kernel }

// STKROutcome is one fit at one hyperparameter setting.
type STKROutcome struct {
	ValAccuracy  float64
	TestAccuracy float64
	Stats        stkr.Stats
	// Seconds is the time of the fit and of predicting the val and test
	// nodes (data already in memory, kernel built).
	Seconds float64
	// NoEvidence counts val and test nodes with all-zero scores (no path to
	// a labelled node, or no edge to a visible node); they get the most
	// frequent training class.
	NoEvidence int
	// TestCorrect and TestScored count the correctly predicted and the
	// scored (labelled) test nodes: TestAccuracy = TestCorrect/TestScored.
	TestCorrect, TestScored int
	// Err is the solver's failure (no convergence, divergence), if any; the
	// accuracies are then those of the best iterate.
	Err error
}

// Evaluate fits r and scores the val and test nodes. Errors in the input
// are returned; a solver failure is recorded in STKROutcome.Err.
func (p *STKRPrepared) Evaluate(ctx context.Context, r *stkr.Classifier) (STKROutcome, error) {
	start := time.Now()
	var k stkr.BaseKernel = p.kernel
	if p.base != nil {
		k = p.base
	}
	err := r.FitIndexed(ctx, k, p.train, p.y)
	out := STKROutcome{Stats: r.Stats()}
	if err != nil {
		if r.Outputs() == 0 || ctx.Err() != nil {
			return out, err
		}
		out.Err = err
	}
	c := p.y.RawMatrix().Cols
	var f *mat.Dense
	if p.valRow == nil || p.testRow == nil {
		var err error
		if f, err = r.Scores(); err != nil {
			return STKROutcome{}, err
		}
	}
	buf := make([]float64, c)
	// scores gives the scores of the t-th node of a set: a row of the
	// transductive predictions, or the prediction from its kernel row.
	scores := func(at []int, rows []stkr.KernelRow) func(int) []float64 {
		if rows == nil {
			return func(t int) []float64 { return f.RawRowView(at[t]) }
		}
		return func(t int) []float64 {
			if err := r.PredictRow(buf, rows[t]); err != nil {
				panic(err) // rows were built against this kernel
			}
			return buf
		}
	}
	valPred, ne := p.argmax(scores(p.valAt, p.valRow), len(p.val))
	testPred, nt := p.argmax(scores(p.testAt, p.testRow), len(p.test))
	out.NoEvidence = ne + nt
	out.Seconds = time.Since(start).Seconds()
	out.ValAccuracy, _, _ = p.accuracy(valPred, p.val)
	out.TestAccuracy, out.TestCorrect, out.TestScored = p.accuracy(testPred, p.test)
	return out, nil
}

// argmax predicts the class of each of count nodes from its scores (first
// maximum on ties); a node whose scores are all zero gets the prior class.
func (p *STKRPrepared) argmax(scores func(t int) []float64, count int) ([]int, int) {
	pred := make([]int, count)
	none := 0
	for t := range pred {
		s := scores(t)
		best, zero := 0, true
		for k, v := range s {
			if v != 0 {
				zero = false
			}
			if v > s[best] {
				best = k
			}
		}
		if zero {
			best = p.prior
			none++
		}
		pred[t] = best
	}
	return pred, none
}

// accuracy scores predictions of nodes (original ids), skipping unknown
// labels; NaN when nothing is scored. It also returns the numbers of right
// and of scored predictions.
func (p *STKRPrepared) accuracy(pred, nodes []int) (float64, int, int) {
	right, total := 0, 0
	for t, i := range nodes {
		if p.labels[i] < 0 {
			continue
		}
		total++
		if pred[t] == p.labels[i] {
			right++
		}
	}
	if total == 0 {
		return math.NaN(), 0, 0
	}
	return float64(right) / float64(total), right, total
}

// Select evaluates every candidate and returns the index of the one with
// the best validation accuracy (the first in grid order on ties), skipping
// candidates whose solver failed, and all the outcomes. It fails when every
// candidate failed or on an input error.
func (p *STKRPrepared) Select(ctx context.Context, candidates []*stkr.Classifier) (int, []STKROutcome, error) {
	outs := make([]STKROutcome, len(candidates))
	best := -1
	var failures []error
	for i, r := range candidates {
		o, err := p.Evaluate(ctx, r)
		if err != nil {
			return -1, outs, err
		}
		outs[i] = o
		if o.Err != nil {
			failures = append(failures, fmt.Errorf("candidate %d (%s, β=%g): %w", i, r.Transform, r.Beta, o.Err))
			continue
		}
		if best < 0 || o.ValAccuracy > outs[best].ValAccuracy {
			best = i
		}
	}
	if best < 0 {
		return -1, outs, fmt.Errorf("stkr: every candidate failed: %w", errors.Join(failures...))
	}
	return best, outs, nil
}

// STKRChoice is the outcome of the protocol on one partition.
type STKRChoice struct {
	// Best is the index of the chosen candidate; after ChooseSTKR,
	// candidates[Best] holds the fit that predicted test (the refit in the
	// Inductive setting), ready for Predict and PredictRow.
	Best int
	// Candidates are the selection fits, one per candidate.
	Candidates []STKROutcome
	// Final is the chosen candidate's outcome on test: its selection fit,
	// or in the Inductive setting its refit with val visible. Its
	// ValAccuracy is the selection's (val hidden), the one the choice
	// was made on.
	Final STKROutcome
	// Visible is the number of nodes visible at the fit that predicted test.
	Visible int
	// Refitted reports whether Final comes from a refit.
	Refitted bool
}

// ChooseSTKR runs the setting's protocol on one partition: every candidate is
// fitted on the selection view (PrepareSTKR), the one with the best val
// accuracy is chosen (Select) and, in the Inductive setting, refitted with
// the val nodes visible and unlabelled (the InductiveTestOnly view) before
// it predicts test. A failure of the refit's solver is an error: the
// chosen hyperparameters converged with fewer visible nodes, so it signals
// an ill-posed refit rather than a bad candidate.
func ChooseSTKR(ctx context.Context, task Task, part Partition, setting Setting, candidates []*stkr.Classifier) (STKRChoice, error) {
	prep, err := PrepareSTKR(task, part, setting)
	if err != nil {
		return STKRChoice{}, err
	}
	best, outs, err := prep.Select(ctx, candidates)
	c := STKRChoice{Best: best, Candidates: outs, Visible: prep.Visible}
	if err != nil {
		return c, err
	}
	c.Final = outs[best]
	if setting != Inductive {
		return c, nil
	}
	full, err := PrepareSTKR(task, part, InductiveTestOnly)
	if err != nil {
		return c, err
	}
	r := candidates[best]
	o, err := full.Evaluate(ctx, r)
	if err == nil && o.Err != nil {
		err = o.Err
	}
	if err != nil {
		return c, fmt.Errorf("stkr: refit of %s β=%g with the val nodes visible: %w", r.Transform, r.Beta, err)
	}
	o.ValAccuracy = outs[best].ValAccuracy
	c.Final, c.Visible, c.Refitted = o, full.Visible, true
	return c, nil
}

// trainLabels returns the labels of the training nodes.
func trainLabels(labels, train []int) []int {
	out := make([]int, len(train))
	for k, i := range train {
		out[k] = labels[i]
	}
	return out
}

// UseFeatures makes the prepared transductive task fit on the
// FeatureKernel of its graph and the node features x (one row per node of
// the task's graph) with weight gamma, instead of the graph kernel: SP-Lap
// with and without features differ only by this call. The inductive
// settings need kernel rows of hidden nodes, which FeatureKernel does not
// provide, and are refused.
func (p *STKRPrepared) UseFeatures(x propagate.Features, gamma float64) error {
	if p.Setting != Transductive {
		return fmt.Errorf("stkr: features: the %v setting needs kernel rows of hidden nodes; the feature kernel supports the transductive setting only", p.Setting)
	}
	k, err := stkr.NewFeatureKernel(p.kernel.Graph(), x, gamma)
	if err != nil {
		return err
	}
	p.base = k
	return nil
}

// STKRCVChoice is the outcome of ChooseSTKRCV.
type STKRCVChoice struct {
	// Best is the index of the chosen candidate; after ChooseSTKRCV,
	// candidates[Best] is fitted on every labelled node, with its Classes
	// set to the task's.
	Best int
	// Accuracy is each candidate's pooled cross-validation accuracy over
	// the held-out labelled nodes; NaN for a candidate whose solver failed
	// on some fold (Failed says why).
	Accuracy []float64
	// Failed holds each candidate's first solver failure, nil when it
	// converged on every fold.
	Failed []error
	// Folds is the number of folds used (see eval.NewFolds).
	Folds int
	// Scores are the final fit's predictions F on every node (N×C).
	Scores *mat.Dense
	// Probabilities are the rows of Scores clipped at zero and normalised
	// to sum 1; a row with no positive score (no path to a labelled node)
	// gets the class frequencies of the labelled nodes.
	Probabilities *mat.Dense
	// Labels are the argmax of Probabilities (the smallest class on ties).
	Labels []int
	// NoEvidence counts the nodes whose row had no positive score.
	NoEvidence int
	// Stats are the final fit's solver statistics.
	Stats stkr.Stats
}

// ChooseSTKRCV is the protocol for real use, without a validation split: every
// candidate is scored by seeded stratified k-fold cross-validation over the
// labelled nodes of task (transductive: each fold's held-out nodes are
// visible and unlabelled), the one with the best pooled accuracy is chosen
// (the first on ties; candidates whose solver fails on a fold are skipped),
// and it is refitted on every labelled node to predict every node.
// cv.Folds 0 means eval.DefaultFolds; fewer are used when a class has fewer
// labelled nodes (eval.NewFolds); cv.Order, when set, is the order in which
// the labelled nodes are dealt into folds; cv.Progress, when set, is called
// after each candidate's fit on each fold. Any number of labels per class
// works: a class with a single labelled node is trained on in every fold and
// never held out.
func ChooseSTKRCV(ctx context.Context, task Task, cv eval.CV, candidates []*stkr.Classifier) (STKRCVChoice, error) {
	if len(candidates) == 0 {
		return STKRCVChoice{}, errors.New("stkr: ChooseCV: no candidate")
	}
	if task.Graph == nil || len(task.Labels) != task.Graph.Nodes() {
		return STKRCVChoice{}, errors.New("stkr: ChooseCV: the task needs a graph and one label per node")
	}
	f, err := cv.NewFolds(task.Labels)
	if errors.Is(err, eval.ErrTooFewLabels) && len(candidates) == 1 {
		c := STKRCVChoice{Best: 0, Accuracy: []float64{math.NaN()}, Failed: make([]error, 1)}
		return c, c.finalFit(ctx, task, candidates[0])
	}
	if err != nil {
		return STKRCVChoice{}, fmt.Errorf("stkr: choosing hyperparameters: %w", err)
	}
	c := STKRCVChoice{Best: -1, Folds: f.K, Accuracy: make([]float64, len(candidates)), Failed: make([]error, len(candidates))}
	right := make([]int, len(candidates))
	scored := make([]int, len(candidates))
	done := 0
	for k := 0; k < f.K; k++ {
		train, test := f.Split(k)
		prep, err := PrepareSTKR(task, Partition{Train: train, Test: test}, Transductive)
		if err != nil {
			return c, fmt.Errorf("stkr: fold %d of %d: %w", k+1, f.K, err)
		}
		for i, r := range candidates {
			if c.Failed[i] == nil {
				o, err := prep.Evaluate(ctx, r)
				if err != nil {
					return c, fmt.Errorf("stkr: fold %d of %d: %w", k+1, f.K, err)
				}
				if o.Err != nil {
					c.Failed[i] = fmt.Errorf("fold %d: %w", k+1, o.Err)
				} else {
					right[i] += o.TestCorrect
					scored[i] += o.TestScored
				}
			}
			if done++; f.Progress != nil { // after each fit, or skipped fit of a failed candidate
				f.Progress(done, f.K*len(candidates))
			}
		}
	}
	var failures []error
	for i := range candidates {
		c.Accuracy[i] = math.NaN()
		if c.Failed[i] != nil {
			failures = append(failures, fmt.Errorf("candidate %d (%s, β=%g): %w", i, candidates[i].Transform, candidates[i].Beta, c.Failed[i]))
			continue
		}
		if scored[i] > 0 {
			c.Accuracy[i] = float64(right[i]) / float64(scored[i])
		}
		if !math.IsNaN(c.Accuracy[i]) && (c.Best < 0 || c.Accuracy[i] > c.Accuracy[c.Best]) {
			c.Best = i
		}
	}
	if c.Best < 0 {
		return c, fmt.Errorf("stkr: every candidate failed: %w", errors.Join(failures...))
	}
	return c, c.finalFit(ctx, task, candidates[c.Best])
}

// finalFit fits r on every labelled node of task and predicts every node.
func (c *STKRCVChoice) finalFit(ctx context.Context, task Task, r *stkr.Classifier) error {
	var labelled []int
	for i, l := range task.Labels {
		if l >= 0 {
			labelled = append(labelled, i)
		}
	}
	prep, err := PrepareSTKR(task, Partition{Train: labelled}, Transductive)
	if err != nil {
		return err
	}
	// Fit fits the same one-hot system as PrepareSTKR's targets and remembers
	// the classes, so that the chosen model can be saved.
	r.Classes = task.Classes
	if err := r.FitKernel(ctx, prep.kernel, task.Labels); err != nil {
		return fmt.Errorf("stkr: final fit of %s β=%g on every labelled node: %w", r.Transform, r.Beta, err)
	}
	c.Stats = r.Stats()
	if c.Scores, err = r.Scores(); err != nil {
		return err
	}
	c.Probabilities, c.Labels, c.NoEvidence = stkr.Normalize(c.Scores, task.Labels)
	return nil
}

// STKRSplitRun is the outcome of ChooseSTKRSplit on one split.
type STKRSplitRun struct {
	// Partitions are the partitions fitted: one, or one per test chunk.
	Partitions []Partition
	// Choices[k] is ChooseSTKR's outcome on Partitions[k] and Chosen[k] its
	// chosen regressor (fitted; the refit in the Inductive setting).
	Choices []STKRChoice
	Chosen  []*stkr.Classifier
	// TestCorrect and TestScored sum the right and the scored test
	// predictions over the partitions.
	TestCorrect, TestScored int
	// ValAccuracy is the mean over the partitions of the chosen
	// candidate's validation accuracy (NaN without validation nodes).
	ValAccuracy float64
}

// TestAccuracy is TestCorrect/TestScored.
func (r STKRSplitRun) TestAccuracy() float64 {
	if r.TestScored == 0 {
		return 0
	}
	return float64(r.TestCorrect) / float64(r.TestScored)
}

// ChooseSTKRSplit runs the paper's protocol (Appendix D.1) on one
// train/val/test split of task's nodes: the split becomes a partition with
// round(pTest·N) test nodes drawn with seed (NewPartition; pTest 0 keeps
// the split's test set) or, with chunks, one partition per chunk of its
// test nodes (TestChunks), and ChooseSTKR picks and scores a candidate on each.
// candidates returns fresh regressors for each partition; done, when set,
// is called after each partition with the number of candidates fitted.
// On an error the partitions done so far are returned with it (their
// Choices hold the failed candidates' errors).
func ChooseSTKRSplit(ctx context.Context, task Task, split eval.Split, setting Setting, pTest float64, chunks bool, seed uint64,
	candidates func() []*stkr.Classifier, done func(fits int)) (STKRSplitRun, error) {
	var run STKRSplitRun
	n := task.Graph.Nodes()
	var err error
	if chunks {
		run.Partitions, err = TestChunks(n, split, pTest, seed)
	} else {
		var p Partition
		p, err = NewPartition(n, split, pTest, seed)
		run.Partitions = []Partition{p}
	}
	if err != nil {
		return STKRSplitRun{}, err
	}
	var val float64
	for k, part := range run.Partitions {
		cands := candidates()
		c, err := ChooseSTKR(ctx, task, part, setting, cands)
		run.Choices = append(run.Choices, c)
		if done != nil {
			done(len(cands))
		}
		if err != nil {
			return run, fmt.Errorf("partition %d of %d: %w", k+1, len(run.Partitions), err)
		}
		run.Chosen = append(run.Chosen, cands[c.Best])
		run.TestCorrect += c.Final.TestCorrect
		run.TestScored += c.Final.TestScored
		val += c.Final.ValAccuracy
	}
	run.ValAccuracy = val / float64(len(run.Partitions))
	return run, nil
}
