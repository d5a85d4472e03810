package estimatortest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/svm"
)

var _ = cover("gp.Regressor", "imgp.Regressor", "krr.Exact", "krr.Nystrom", "krr.Falkon", "krr.RandomFeatures",
	"krr.Classifier", "svm.PointSVC", "svm.SVC", "svm.KernelRidge")

// pointData is n points near a circle in R^3, a smooth target of the
// angle (NaN for every fourth point when partial), three classes by
// angle, and m query points.
func pointData(n, m int, partial bool) (x *mat.Dense, y []float64, labels []int, q *mat.Dense) {
	rng := rand.New(rand.NewPCG(7, 11))
	draw := func(k int) (*mat.Dense, []float64) {
		pts := mat.NewDense(k, 3, nil)
		th := make([]float64, k)
		for i := range th {
			th[i] = 2 * math.Pi * rng.Float64()
			pts.SetRow(i, []float64{math.Cos(th[i]) + 0.05*rng.NormFloat64(), math.Sin(th[i]) + 0.05*rng.NormFloat64(), 0.05 * rng.NormFloat64()})
		}
		return pts, th
	}
	x, th := draw(n)
	q, _ = draw(m)
	y = make([]float64, n)
	labels = make([]int, n)
	for i, t := range th {
		y[i] = math.Sin(t)
		labels[i] = int(3 * t / (2 * math.Pi))
		if partial && i%4 == 3 {
			y[i] = math.NaN()
		}
	}
	return x, y, labels, q
}

type pointCase = estimatortest.Case[*mat.Dense, *mat.Dense]

func TestPointModels(t *testing.T) {
	x, y, labels, q := pointData(60, 7, false)
	xp, yp, _, _ := pointData(60, 7, true)
	g := kernel.Gaussian{Sigma: 0.8}
	falkon := func() *krr.Falkon {
		return &krr.Falkon{Kernel: g, Lambda: 1e-3, Centres: krr.Centres{M: 20, Seed: 1}, Iterations: 5}
	}
	cases := []pointCase{
		{
			Name: gp.RegressorKind,
			New:  func() estimator.Estimator { return &gp.Regressor{MaxIterations: 20} },
			Invalid: map[string]func() estimator.Estimator{
				"MaxIterations": func() estimator.Estimator { return &gp.Regressor{MaxIterations: -1} },
				"Jitter":        func() estimator.Estimator { return &gp.Regressor{Jitter: math.NaN()} },
			},
			X: xp, Targets: yp, Query: q, QueryRows: 7, FittedRows: 45,
		},
		{
			Name: imgp.RegressorKind,
			New: func() estimator.Estimator {
				return &imgp.Regressor{K: 5, Eigenpairs: 10, Iterations: 2, Seed: 1, Euclidean: &gp.Regressor{Fixed: true}}
			},
			Invalid: map[string]func() estimator.Estimator{
				"K":       func() estimator.Estimator { return &imgp.Regressor{K: -1} },
				"Scaling": func() estimator.Estimator { return &imgp.Regressor{Scaling: &imgp.Scaling{Scale: -1}} },
				"Tol":     func() estimator.Estimator { return &imgp.Regressor{Tol: 2} },
			},
			X: xp, Targets: yp, Query: q, QueryRows: 7, FittedRows: 60,
		},
		{
			Name: krr.ExactKind,
			New:  func() estimator.Estimator { return &krr.Exact{Kernel: g, Lambda: 1e-3} },
			Invalid: map[string]func() estimator.Estimator{
				"Lambda": func() estimator.Estimator { return &krr.Exact{Kernel: g, Lambda: -1} },
				"Kernel": func() estimator.Estimator { return &krr.Exact{Lambda: 1} },
			},
			X: x, Targets: y, Query: q, QueryRows: 7,
		},
		{
			Name: krr.NystromKind,
			New: func() estimator.Estimator {
				return &krr.Nystrom{Kernel: g, Lambda: 1e-3, Centres: krr.Centres{M: 20, Seed: 1}}
			},
			Invalid: map[string]func() estimator.Estimator{
				"Lambda": func() estimator.Estimator { return &krr.Nystrom{Kernel: g} },
				"M":      func() estimator.Estimator { return &krr.Nystrom{Kernel: g, Lambda: 1, Centres: krr.Centres{M: -2}} },
			},
			X: x, Targets: y, Query: q, QueryRows: 7,
		},
		{
			Name: krr.FalkonKind,
			New:  func() estimator.Estimator { return falkon() },
			Invalid: map[string]func() estimator.Estimator{
				"Iterations": func() estimator.Estimator { f := falkon(); f.Iterations = -1; return f },
				"Tol":        func() estimator.Estimator { f := falkon(); f.Tol = 1; return f },
			},
			X: x, Targets: y, Query: q, QueryRows: 7,
		},
		{
			Name: krr.RandomFeaturesKind,
			New:  func() estimator.Estimator { return &krr.RandomFeatures{Sigma: 0.8, D: 30, Lambda: 1e-3, Seed: 4} },
			Invalid: map[string]func() estimator.Estimator{
				"D":      func() estimator.Estimator { return &krr.RandomFeatures{Sigma: 1, D: -1, Lambda: 1} },
				"Lambda": func() estimator.Estimator { return &krr.RandomFeatures{Sigma: 1, Lambda: math.Inf(1)} },
			},
			X: x, Targets: y, Query: q, QueryRows: 7,
		},
		{
			Name: krr.ClassifierKind,
			New:  func() estimator.Estimator { return &krr.Classifier{Model: falkon()} },
			Invalid: map[string]func() estimator.Estimator{
				"Model":   func() estimator.Estimator { return &krr.Classifier{} },
				"Classes": func() estimator.Estimator { return &krr.Classifier{Model: falkon(), Classes: -1} },
			},
			X: x, Labels: labels, Query: q, QueryRows: 7, Columns: 3, Output: estimatortest.DecisionValues,
		},
		{
			Name: svm.PointSVCKind,
			New:  func() estimator.Estimator { return &svm.PointSVC{Kernel: g, C: 2} },
			Invalid: map[string]func() estimator.Estimator{
				"C":      func() estimator.Estimator { return &svm.PointSVC{Kernel: g, C: -1} },
				"Kernel": func() estimator.Estimator { return &svm.PointSVC{} },
			},
			X: x, Labels: labels, Query: q, QueryRows: 7, Columns: 3, Output: estimatortest.DecisionValues,
		},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { estimatortest.Check(t, c) })
	}
}

// TestPrecomputedKernelModels checks svm.SVC and svm.KernelRidge,
// classifiers of items given by their Gram matrix and, to predict, their
// kernel rows to the training items.
func TestPrecomputedKernelModels(t *testing.T) {
	x, _, labels, q := pointData(60, 7, false)
	g := kernel.Gaussian{Sigma: 0.8}
	k, err := kernel.Gram(g, x, x)
	if err != nil {
		t.Fatal(err)
	}
	cross, err := kernel.Gram(g, q, x)
	if err != nil {
		t.Fatal(err)
	}
	sym := mat.NewSymDense(60, nil)
	for i := 0; i < 60; i++ {
		for j := i; j < 60; j++ {
			sym.SetSym(i, j, k.At(i, j))
		}
	}
	estimatortest.Check(t, estimatortest.Case[mat.Symmetric, mat.Matrix]{
		Name: svm.SVCKind,
		New:  func() estimator.Estimator { return &svm.SVC{C: 2} },
		Invalid: map[string]func() estimator.Estimator{
			"C":   func() estimator.Estimator { return &svm.SVC{C: -1} },
			"Tol": func() estimator.Estimator { return &svm.SVC{Settings: svm.Settings{Tol: -1}} },
		},
		X: sym, Labels: labels, Query: cross, QueryRows: 7, Columns: 3, Output: estimatortest.DecisionValues,
	})
	estimatortest.Check(t, estimatortest.Case[mat.Symmetric, mat.Matrix]{
		Name: svm.KernelRidgeKind,
		New:  func() estimator.Estimator { return &svm.KernelRidge{Ridge: 0.1} },
		Invalid: map[string]func() estimator.Estimator{
			"Ridge": func() estimator.Estimator { return &svm.KernelRidge{Ridge: -1} },
		},
		X: sym, Labels: labels, Query: cross, QueryRows: 7, Columns: 3, Output: estimatortest.DecisionValues,
	})
}
