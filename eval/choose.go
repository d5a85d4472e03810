package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gssl/gssl/estimator"
)

// NodeModel is a node classifier that clones itself: what selection over a
// grid works on. Each candidate of a grid is the base model's Clone with
// one hyperparameter set, so that no other one is dropped on the way.
type NodeModel[M any] interface {
	estimator.NodeClassifier
	estimator.Cloner[M]
}

// SelectByCV chooses among candidates by k-fold cross-validation over the
// labelled nodes (labels[i] ≥ 0), without a validation split: for every
// candidate and fold, a Clone of the candidate is fitted on x with the
// labels of the fold's training nodes only (every other label −1), and its
// predicted classes (the Argmax of Predict on the fitted nodes) are scored
// on the fold's held-out nodes. A candidate's score is its pooled accuracy
// over the folds (CrossValidate) and the best is the first of the highest
// (FirstBest). The candidates themselves are not fitted.
func SelectByCV[M NodeModel[M]](ctx context.Context, x estimator.Nodes, labels []int, candidates []M, folds *Folds) (best int, accuracy []float64, err error) {
	if len(candidates) == 0 {
		return -1, nil, errors.New("eval: selection by cross-validation among no candidate")
	}
	idx := make([]int, len(candidates))
	for i := range idx {
		idx[i] = i
	}
	return CrossValidate(ctx, idx, folds, func(ctx context.Context, i int, train, test []int) (int, int, error) {
		m := candidates[i].Clone()
		pred, _, err := fitPredict(ctx, m, x, labels, train)
		if err != nil {
			return 0, 0, err
		}
		right := 0
		for _, v := range test {
			if pred[v] == labels[v] {
				right++
			}
		}
		return right, len(test), nil
	})
}

// fittedLabeler is a node classifier that keeps its fitted nodes' classes
// (labelprop's models): FittedLabels returns the Argmax of
// Predict(FittedNodes) and its number of columns, without the n×c matrix
// that Predict forms.
type fittedLabeler interface {
	FittedLabels() (pred []int, classes int)
}

// fitPredict fits m on x with the labels of the nodes train (every other
// node unlabelled) and returns its predicted class of every fitted node
// and the number of classes it predicts.
func fitPredict(ctx context.Context, m estimator.NodeClassifier, x estimator.Nodes, labels, train []int) ([]int, int, error) {
	y := make([]int, len(labels))
	for i := range y {
		y[i] = -1
	}
	for _, v := range train {
		if v < 0 || v >= len(labels) || labels[v] < 0 {
			return nil, 0, fmt.Errorf("training node %d has no label", v)
		}
		y[v] = labels[v]
	}
	if err := m.Fit(ctx, x, y); err != nil {
		return nil, 0, err
	}
	if f, ok := m.(fittedLabeler); ok {
		pred, c := f.FittedLabels()
		return pred, c, nil
	}
	p, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return nil, 0, err
	}
	_, c := p.Dims()
	return estimator.Argmax(p), c, nil
}

// SplitSelection is the outcome of SelectOnSplit.
type SplitSelection[M any] struct {
	// Best indexes the chosen candidate and Model is it, fitted on the
	// training nodes; Pred is its predicted class of every node.
	Best  int
	Model M
	Pred  []int
	// Per candidate: the accuracy on the validation and the test nodes
	// (NaN without such nodes), the iterations of its fit (Info) and the
	// seconds its fit took.
	Val, Test  []float64
	Iterations []int
	Seconds    []float64
	// The chosen model's accuracies and macro-F1 on the test nodes (NaN
	// without nodes).
	ValAccuracy, TestAccuracy, MacroF1 float64
}

// SelectOnSplit is the benchmark protocol of a train/validation/test
// split: candidate(i), for i = 0..n−1, is fitted on x with the labels of
// the training nodes (every other node unlabelled), the one with the best
// validation accuracy is chosen (the first on ties, FirstBest's rule; with
// a single candidate there is nothing to choose and no validation node is
// needed), and it is scored on the test nodes. labels[i] is node i's
// class, −1 when unknown; every split node must be labelled.
//
// Candidates are asked for in order, one at a time, and only the best one
// so far is kept, so that at most two fitted models are held at once
// (candidate may hand the previous one to the next, e.g. as a warm start).
func SelectOnSplit[M estimator.NodeClassifier](ctx context.Context, x estimator.Nodes, labels []int, split Split, n int, candidate func(i int) M) (SplitSelection[M], error) {
	var out SplitSelection[M]
	if len(split.Train) == 0 {
		return out, errors.New("eval: the split has no training node")
	}
	if n > 1 && len(split.Val) == 0 {
		return out, fmt.Errorf("eval: %w: choosing among %d candidates needs validation nodes, and the split has none", ErrNoValidation, n)
	}
	accuracy := func(pred, idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		a, err := Accuracy(pred, labels, idx)
		if err != nil {
			return math.NaN()
		}
		return a
	}
	keptVal, classes := math.Inf(-1), 0
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	best, _, err := GridSearch(ctx, idx, func(ctx context.Context, i int) (float64, error) {
		m := candidate(i)
		t0 := time.Now()
		pred, c, err := fitPredict(ctx, m, x, labels, split.Train)
		if err != nil {
			return 0, err
		}
		out.Seconds = append(out.Seconds, time.Since(t0).Seconds())
		out.Test = append(out.Test, accuracy(pred, split.Test))
		out.Iterations = append(out.Iterations, m.Info().Iterations)
		a := accuracy(pred, split.Val)
		out.Val = append(out.Val, a)
		score := a
		if math.IsNaN(a) { // no validation nodes (a single candidate): nothing to choose
			score = 0
		}
		if i == 0 || score > keptVal {
			out.Best, out.Model, out.Pred, keptVal = i, m, pred, score
			classes = c
		}
		return score, nil
	})
	if err != nil {
		return SplitSelection[M]{}, err
	}
	if best != out.Best {
		return SplitSelection[M]{}, fmt.Errorf("eval: internal error: grid search chose candidate %d, the kept model is %d", best, out.Best)
	}
	out.ValAccuracy, out.TestAccuracy, out.MacroF1 = out.Val[best], out.Test[best], math.NaN()
	if len(split.Test) > 0 {
		if f1, err := MacroF1(out.Pred, labels, split.Test, classes); err == nil {
			out.MacroF1 = f1
		}
	}
	return out, nil
}

// ErrNoValidation is the cause of SelectOnSplit's error when there is a
// choice to make and the split has no validation node.
var ErrNoValidation = errors.New("no validation nodes")
