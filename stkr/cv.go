package stkr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
)

// CVChoice is the outcome of ChooseCV.
type CVChoice struct {
	// Best is the index of the chosen candidate; after ChooseCV,
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
	Stats Stats
}

// ChooseCV is the protocol for real use, without a validation split: every
// candidate is scored by seeded stratified k-fold cross-validation over the
// labelled nodes of task (transductive: each fold's held-out nodes are
// visible and unlabelled), the one with the best pooled accuracy is chosen
// (the first on ties; candidates whose solver fails on a fold are skipped),
// and it is refitted on every labelled node to predict every node.
// cv.Folds 0 means eval.DefaultFolds; fewer are used when a class has fewer
// labelled nodes (eval.NewFolds); cv.Order, when set, is the order in which
// the labelled nodes are dealt into folds. Any number of labels per class works: a class with
// a single labelled node is trained on in every fold and never held out.
func ChooseCV(ctx context.Context, task Task, cv eval.CV, candidates []*Classifier) (CVChoice, error) {
	if len(candidates) == 0 {
		return CVChoice{}, errors.New("stkr: ChooseCV: no candidate")
	}
	if task.Graph == nil || len(task.Labels) != task.Graph.Nodes() {
		return CVChoice{}, errors.New("stkr: ChooseCV: the task needs a graph and one label per node")
	}
	f, err := cv.NewFolds(task.Labels)
	if errors.Is(err, eval.ErrTooFewLabels) && len(candidates) == 1 {
		c := CVChoice{Best: 0, Accuracy: []float64{math.NaN()}, Failed: make([]error, 1)}
		return c, c.finalFit(ctx, task, candidates[0])
	}
	if err != nil {
		return CVChoice{}, fmt.Errorf("stkr: choosing hyperparameters: %w", err)
	}
	c := CVChoice{Best: -1, Folds: f.K, Accuracy: make([]float64, len(candidates)), Failed: make([]error, len(candidates))}
	right := make([]int, len(candidates))
	scored := make([]int, len(candidates))
	for k := 0; k < f.K; k++ {
		train, test := f.Split(k)
		prep, err := Prepare(task, Partition{Train: train, Test: test}, Transductive)
		if err != nil {
			return c, fmt.Errorf("stkr: fold %d of %d: %w", k+1, f.K, err)
		}
		for i, r := range candidates {
			if c.Failed[i] != nil {
				continue
			}
			o, err := prep.Evaluate(ctx, r)
			if err != nil {
				return c, fmt.Errorf("stkr: fold %d of %d: %w", k+1, f.K, err)
			}
			if o.Err != nil {
				c.Failed[i] = fmt.Errorf("fold %d: %w", k+1, o.Err)
				continue
			}
			right[i] += o.TestCorrect
			scored[i] += o.TestScored
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
func (c *CVChoice) finalFit(ctx context.Context, task Task, r *Classifier) error {
	var labelled []int
	for i, l := range task.Labels {
		if l >= 0 {
			labelled = append(labelled, i)
		}
	}
	prep, err := Prepare(task, Partition{Train: labelled}, Transductive)
	if err != nil {
		return err
	}
	// Fit fits the same one-hot system as Prepare's targets and remembers
	// the classes, so that the chosen model can be saved.
	r.Classes = task.Classes
	if err := r.FitKernel(ctx, prep.kernel, task.Labels); err != nil {
		return fmt.Errorf("stkr: final fit of %s β=%g on every labelled node: %w", r.Transform, r.Beta, err)
	}
	c.Stats = r.Stats()
	if c.Scores, err = r.Scores(); err != nil {
		return err
	}
	c.Probabilities, c.Labels, c.NoEvidence = Normalize(c.Scores, task.Labels)
	return nil
}

// Normalize turns STKR's scores (one row per node, one column per class,
// regressions on one-hot targets) into probabilities: each row clipped at
// zero and scaled to sum 1. A row with no positive entry gets the class
// frequencies of the labelled nodes of labels (negative = unlabelled). It
// returns the probabilities, their argmax (the smallest class on ties) and
// the number of rows without a positive entry.
func Normalize(scores *mat.Dense, labels []int) (*mat.Dense, []int, int) {
	n, c := scores.Dims()
	prior := classPrior(labels, c)
	p := mat.NewDense(n, c, nil)
	pred := make([]int, n)
	none := 0
	for i := 0; i < n; i++ {
		dst := p.RawRowView(i)
		if !normalizeRow(dst, scores.RawRowView(i), prior) {
			none++
		}
		best := 0
		for k, v := range dst {
			if v > dst[best] {
				best = k
			}
		}
		pred[i] = best
	}
	return p, pred, none
}
