package protocol

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/svm"
)

// GramEvaluation is the graph-classification protocol of Shervashidze et al.
// (JMLR 2011, §5) and of shared/bench/peers/wl.py: nested stratified
// cross-validation in which, for every outer fold, the candidate (a Gram
// matrix — one per WL height, say — and a value of Grid) with the best mean
// accuracy on InnerFolds inner folds of the outer training graphs is
// refitted on them and scored on the outer test fold; repeated for Seeds
// seeds Seed, Seed+1, ….
type GramEvaluation struct {
	Grams      []*mat.SymDense // candidate Gram matrices over all graphs
	Grid       []float64       // C (SVM) or ridge (Ridge) values, all > 0
	Machine    graphkernels.Machine
	OuterFolds int // ≥ 2; ignored with Folds
	InnerFolds int // ≥ 2
	Seeds      int // ≥ 1
	Seed       uint64
	// Folds, if not nil, holds the outer fold of every graph for each seed
	// (Folds[s][i] in 0..k−1), as read by loaders.ReadFolds.
	Folds [][]int
	// Progress, if not nil, is called after every seed.
	Progress func(done, total int)
}

// GramEvaluationResult is the outcome of a GramEvaluation. Candidate c stands for
// Grams[c / len(Grid)] with Grid[c % len(Grid)].
type GramEvaluationResult struct {
	Accuracy []float64 // mean outer accuracy of every seed
	Chosen   [][]int   // the candidate chosen in every outer fold of every seed
	Folds    int       // outer folds of the first seed
	// Fold and Prediction are, for every graph, its outer fold in the first
	// seed and the class the candidate chosen there predicts for it when
	// refitted on the other folds (out-of-fold predictions).
	Fold, Prediction []int
}

// Run evaluates on graphs with classes labels (0..C−1).
func (e GramEvaluation) Run(ctx context.Context, labels []int) (*GramEvaluationResult, error) {
	n := len(labels)
	switch {
	case len(e.Grams) == 0 || len(e.Grid) == 0:
		return nil, fmt.Errorf("protocol: graph kernels: no candidates (%d Gram matrices, %d grid values)", len(e.Grams), len(e.Grid))
	case e.Seeds < 1:
		return nil, fmt.Errorf("protocol: graph kernels: Seeds=%d is invalid: it must be ≥ 1", e.Seeds)
	case e.InnerFolds < 2:
		return nil, fmt.Errorf("protocol: graph kernels: InnerFolds=%d is invalid: it must be ≥ 2", e.InnerFolds)
	case e.Folds == nil && e.OuterFolds < 2:
		return nil, fmt.Errorf("protocol: graph kernels: OuterFolds=%d is invalid: it must be ≥ 2", e.OuterFolds)
	case e.Folds != nil && len(e.Folds) < e.Seeds:
		return nil, fmt.Errorf("protocol: graph kernels: %d fold assignments for %d seeds", len(e.Folds), e.Seeds)
	case e.Machine != graphkernels.SVM && e.Machine != graphkernels.Ridge:
		return nil, fmt.Errorf("protocol: graph kernels: Machine=%d is invalid", int(e.Machine))
	}
	for _, k := range e.Grams {
		if r, _ := k.Dims(); r != n {
			return nil, fmt.Errorf("protocol: graph kernels: a %d×%d Gram matrix for %d graphs", r, r, n)
		}
	}
	for _, v := range e.Grid {
		if !(v > 0) || v > 1e300 {
			return nil, fmt.Errorf("protocol: graph kernels: grid value %v is invalid: every value must be finite and > 0", v)
		}
	}
	nGrid := len(e.Grid)
	cv := eval.NestedCV{
		InnerFolds: e.InnerFolds,
		Candidates: len(e.Grams) * nGrid,
		Score: func(ctx context.Context, c int, train, test []int) (float64, error) {
			pred, err := e.fitPredict(ctx, c, labels, train, test)
			if err != nil {
				return 0, err
			}
			right := 0
			for p, i := range test {
				if pred[p] == labels[i] {
					right++
				}
			}
			return float64(right) / float64(len(test)), nil
		},
	}
	res := &GramEvaluationResult{}
	for s := 0; s < e.Seeds; s++ {
		seed := e.Seed + uint64(s)
		var fold []int
		var err error
		if e.Folds != nil {
			fold = e.Folds[s]
			if len(fold) != n {
				return nil, fmt.Errorf("protocol: graph kernels: fold assignment %d has %d entries for %d graphs", s, len(fold), n)
			}
		} else if fold, err = eval.StratifiedFolds(labels, e.OuterFolds, seed); err != nil {
			return nil, fmt.Errorf("protocol: graph kernels: %w", err)
		}
		nr, err := cv.Run(ctx, labels, fold, seed)
		if err != nil {
			return nil, fmt.Errorf("protocol: graph kernels: seed %d: %w", seed, err)
		}
		res.Accuracy = append(res.Accuracy, nr.Mean)
		res.Chosen = append(res.Chosen, nr.Chosen)
		if s == 0 {
			res.Folds = len(nr.Chosen)
			res.Fold = append([]int(nil), fold...)
			res.Prediction = make([]int, n)
			for i := range res.Prediction {
				res.Prediction[i] = -1
			}
			for f, c := range nr.Chosen {
				train, test := eval.FoldSplit(fold, f)
				pred, err := e.fitPredict(ctx, c, labels, train, test)
				if err != nil {
					return nil, fmt.Errorf("protocol: graph kernels: out-of-fold predictions: %w", err)
				}
				for p, i := range test {
					res.Prediction[i] = pred[p]
				}
			}
		}
		if e.Progress != nil {
			e.Progress(s+1, e.Seeds)
		}
	}
	return res, nil
}

// Select returns the candidate the protocol's inner selection chooses on
// all the graphs — the best mean accuracy over InnerFolds stratified folds
// of every graph, drawn with Seed, the lowest index on ties: the rule Run
// applies to each outer fold's training graphs, applied to the whole set,
// to configure a final model refitted on every graph (as scikit-learn's
// GridSearchCV refit). With one candidate it returns 0 without fitting.
func (e GramEvaluation) Select(ctx context.Context, labels []int) (int, error) {
	n := len(labels)
	switch {
	case len(e.Grams) == 0 || len(e.Grid) == 0:
		return 0, fmt.Errorf("protocol: graph kernels: selection: no candidates (%d Gram matrices, %d grid values)", len(e.Grams), len(e.Grid))
	case e.InnerFolds < 2:
		return 0, fmt.Errorf("protocol: graph kernels: selection: InnerFolds=%d is invalid: it must be ≥ 2", e.InnerFolds)
	case e.Machine != graphkernels.SVM && e.Machine != graphkernels.Ridge:
		return 0, fmt.Errorf("protocol: graph kernels: selection: Machine=%d is invalid", int(e.Machine))
	}
	for _, k := range e.Grams {
		if r, _ := k.Dims(); r != n {
			return 0, fmt.Errorf("protocol: graph kernels: selection: a %d×%d Gram matrix for %d graphs", r, r, n)
		}
	}
	cands := len(e.Grams) * len(e.Grid)
	if cands == 1 {
		return 0, nil
	}
	fold, err := eval.StratifiedFolds(labels, e.InnerFolds, e.Seed)
	if err != nil {
		return 0, fmt.Errorf("protocol: graph kernels: selection: %w", err)
	}
	means := make([]float64, cands)
	for c := range means {
		var sum float64
		for f := 0; f < e.InnerFolds; f++ {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			train, test := eval.FoldSplit(fold, f)
			pred, err := e.fitPredict(ctx, c, labels, train, test)
			if err != nil {
				return 0, fmt.Errorf("protocol: graph kernels: selection: candidate %d, fold %d: %w", c, f, err)
			}
			right := 0
			for p, i := range test {
				if pred[p] == labels[i] {
					right++
				}
			}
			sum += float64(right) / float64(len(test))
		}
		means[c] = sum / float64(e.InnerFolds)
	}
	best, err := eval.FirstBest(means)
	if err != nil {
		return 0, fmt.Errorf("protocol: graph kernels: selection: %w", err)
	}
	return best, nil
}

// fitPredict fits candidate c on the graphs train and predicts test.
func (e GramEvaluation) fitPredict(ctx context.Context, c int, labels, train, test []int) ([]int, error) {
	k := e.Grams[c/len(e.Grid)]
	v := e.Grid[c%len(e.Grid)]
	ktr := svm.SubGram(k, train)
	ytr := make([]int, len(train))
	for p, i := range train {
		ytr[p] = labels[i]
	}
	cross := svm.SubCross(k, test, train)
	var m estimator.Classifier[mat.Symmetric, mat.Matrix] = &svm.SVC{C: v}
	if e.Machine == graphkernels.Ridge {
		m = &svm.KernelRidge{Ridge: v}
	}
	if err := m.Fit(ctx, ktr, ytr); err != nil {
		return nil, err
	}
	scores, err := m.Predict(ctx, cross)
	if err != nil {
		return nil, err
	}
	return estimator.Argmax(scores), nil
}

// SweepKernels runs e once for each kernel alone (e.Grams replaced by that
// kernel's Gram matrix; e.Progress unused): the accuracy of every kernel
// fixed, as gssl graphkernel --heights sweeps the WL height. grams[i], when
// given and not nil, is kernel i's Gram matrix already computed; otherwise
// kernels[i] is fitted on graphs. Every result has the folds of e's seeds.
func (e GramEvaluation) SweepKernels(ctx context.Context, labels []int, graphs []graphkernels.Graph, kernels []graphkernels.Kernel, grams []*mat.SymDense) ([]*GramEvaluationResult, error) {
	e.Progress = nil
	out := make([]*GramEvaluationResult, len(kernels))
	for i, k := range kernels {
		var g *mat.SymDense
		if i < len(grams) {
			g = grams[i]
		}
		if g == nil {
			var err error
			if g, err = graphkernels.FitGram(ctx, k, graphs); err != nil {
				return nil, fmt.Errorf("protocol: kernel %d: %w", i, err)
			}
		}
		e.Grams = []*mat.SymDense{g}
		r, err := e.Run(ctx, labels)
		if err != nil {
			return nil, fmt.Errorf("protocol: kernel %d: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}

// TimedGram fits a kernel from newKernel on graphs and computes their Gram
// matrix runs times (runs ≥ 1; one warm-up run first when runs > 1, not
// timed), as the wall time of a Gram matrix is measured: it returns the
// last kernel and Gram matrix and the seconds of each timed run. newKernel
// gets the run's number (0 the warm-up when there is one).
func TimedGram(ctx context.Context, graphs []graphkernels.Graph, runs int, newKernel func(run int) graphkernels.Kernel) (graphkernels.Kernel, *mat.SymDense, []float64, error) {
	if runs < 1 {
		return nil, nil, nil, fmt.Errorf("protocol: TimedGram: runs=%d is invalid: it must be ≥ 1", runs)
	}
	total := runs
	if runs > 1 {
		total++ // the first is a warm-up
	}
	var k graphkernels.Kernel
	var gram *mat.SymDense
	var secs []float64
	for r := 0; r < total; r++ {
		k = newKernel(r)
		t0 := time.Now()
		g, err := graphkernels.FitGram(ctx, k, graphs)
		if err != nil {
			return nil, nil, nil, err
		}
		if r > 0 || total == 1 {
			secs = append(secs, time.Since(t0).Seconds())
		}
		gram = g
	}
	return k, gram, secs, nil
}
