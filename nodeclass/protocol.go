package nodeclass

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
)

// PerClassSplit draws train per class training nodes and val per class
// validation nodes of every class, and puts every other labelled node in
// test: the split of Shchur et al. ("Pitfalls of Graph Neural Network
// Evaluation", 2018: 20 and 30 per class) for graphs without a standard
// split. Nodes with label −1 are never drawn. The same seed gives the same
// split. It fails when a class has fewer than train + val labelled nodes.
func PerClassSplit(labels []int, train, val int, seed uint64) (eval.Split, error) {
	if train < 1 || val < 0 {
		return eval.Split{}, fmt.Errorf("nodeclass: per-class split: train=%d must be ≥ 1 and val=%d ≥ 0", train, val)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5c4c7a1e))
	byClass := make([][]int, numClasses(labels))
	for i, l := range labels {
		if l >= 0 {
			byClass[l] = append(byClass[l], i)
		}
	}
	var s eval.Split
	for c, items := range byClass {
		if len(items) < train+val {
			return eval.Split{}, fmt.Errorf("nodeclass: per-class split: class %d has %d labelled nodes, fewer than train+val = %d", c, len(items), train+val)
		}
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		s.Train = append(s.Train, items[:train]...)
		s.Val = append(s.Val, items[train:train+val]...)
		s.Test = append(s.Test, items[train+val:]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}

// Search is what Evaluate chooses from: a grid of candidates, optionally
// followed by Correct & Smooth on the chosen one (the protocol of Huang et
// al. 2021: the base model is tuned first, then C&S's α₁, α₂ and scale on
// that base, both on the validation nodes).
type Search struct {
	Candidates    []Base
	CorrectSmooth bool
	// Embedding > 0 appends that many Laplacian-eigenmap coordinates to the
	// features (WithEmbedding with weight 1 on the row-normalised features)
	// and fits SGC and APPNP candidates without further normalisation.
	Embedding int
}

// Outcome is the result of Evaluate on one split.
type Outcome struct {
	Model         string     // the chosen model
	Val           float64    // its validation accuracy (mean CV accuracy without val nodes)
	Test          float64    // its test accuracy
	Probabilities *mat.Dense // its class scores on every node
	// Best is the chosen model, fitted on the training labels (what
	// gssl classify --save writes).
	Best Base
	// With Search.CorrectSmooth: the base model chosen first, and its
	// accuracies.
	Base              string
	BaseVal, BaseTest float64
}

// Evaluate runs the protocol of one split: the candidates see the labels of
// the training and validation nodes only, Choose picks one on the val nodes
// (by cross-validation over the training nodes with cv when the split has
// none) and the chosen model, fitted on the training labels (all
// labelled nodes without val), is scored on the test nodes; with
// s.CorrectSmooth, Correct & Smooth's grid on the chosen model is searched
// the same way and its choice scored. truth holds every known label.
func Evaluate(ctx context.Context, s Search, g *graph.CSR, x Features, truth []int, split eval.Split, cv eval.CV) (Outcome, error) {
	known := make([]int, len(truth))
	for i := range known {
		known[i] = -1
	}
	for _, part := range [][]int{split.Train, split.Val} {
		for _, i := range part {
			if i < 0 || i >= len(truth) || truth[i] < 0 {
				return Outcome{}, fmt.Errorf("nodeclass: split node %d has no label", i)
			}
			known[i] = truth[i]
		}
	}
	score := func(sel *Selection) (string, float64, float64, *mat.Dense, error) {
		p, err := sel.Best.Probabilities()
		if err != nil {
			return "", 0, 0, nil, err
		}
		test := 0.0
		if len(split.Test) > 0 {
			if test, err = eval.Accuracy(estimator.Argmax(p), truth, split.Test); err != nil {
				return "", 0, 0, nil, err
			}
		}
		return fmt.Sprint(sel.Best), sel.Scores[sel.Index], test, p, nil
	}
	if s.Embedding > 0 {
		var err error
		if x, err = WithEmbedding(ctx, g, x, RowSum, s.Embedding, 1); err != nil {
			return Outcome{}, err
		}
		for _, c := range s.Candidates {
			switch m := c.(type) {
			case *SGC:
				m.Normalization = NoNormalization
			case *APPNP:
				m.Normalization = NoNormalization
			}
		}
	}
	sel, err := Choose(ctx, s.Candidates, g, x, known, split.Val, cv)
	if err != nil {
		return Outcome{}, err
	}
	var out Outcome
	if out.Model, out.Val, out.Test, out.Probabilities, err = score(sel); err != nil {
		return Outcome{}, err
	}
	out.Best = sel.Best
	if !s.CorrectSmooth {
		return out, nil
	}
	out.Base, out.BaseVal, out.BaseTest = out.Model, out.Val, out.Test
	if sel, err = Choose(ctx, CorrectSmoothGrid(sel.Best), g, x, known, split.Val, cv); err != nil {
		return Outcome{}, err
	}
	if out.Model, out.Val, out.Test, out.Probabilities, err = score(sel); err != nil {
		return Outcome{}, err
	}
	out.Best = sel.Best
	return out, nil
}
