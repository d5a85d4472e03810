package gp

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

// BenchmarkLikelihood times one evaluation of the log marginal likelihood
// and its gradient at n = 1001 points (the srmnist 10 % fit of gssl imgp:
// each L-BFGS step of the Euclidean GP is one such evaluation).
func BenchmarkLikelihood(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 1001, 20
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for t := 0; t < d; t++ {
			x.Set(i, t, rng.NormFloat64())
		}
		y[i] = rng.NormFloat64()
	}
	l := newLikelihood(Matern52, sqDistances(x, x), y, 1e-10)
	h := Hyperparameters{Amplitude: 1.5, LengthScale: 4, Noise: 0.1}
	for b.Loop() {
		l.last = Hyperparameters{} // no cache
		if _, _, err := l.eval(h, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitSRMNIST fits the Euclidean GP of gssl imgp on the 1001
// labelled rotated digits of srmnist's 10 % subset (784 pixels, angles
// standardised), as scripts/imgp_sklearn_gp.py fits scikit-learn's.
func BenchmarkFitSRMNIST(b *testing.B) {
	dir := sharedtest.Data(b, "srmnist")
	tr, err := loaders.ReadImages(filepath.Join(dir, "train_images_u8.bin.gz"), 784)
	if err != nil {
		b.Fatal(err)
	}
	angles, err := loaders.ReadFloats(filepath.Join(dir, "train_angles.txt"))
	if err != nil {
		b.Fatal(err)
	}
	idx, err := loaders.ReadInts(filepath.Join(dir, "train_subset10_seed0.txt"))
	if err != nil {
		b.Fatal(err)
	}
	mu, sd := eval.MeanStd(angles)
	x := tr.Dense(idx)
	y := make([]float64, len(idx))
	for k, i := range idx {
		y[k] = (angles[i] - mu) / sd
	}
	var r Regressor
	for b.Loop() {
		r = Regressor{}
		if err := r.Fit(context.Background(), x, y); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Evaluations()), "evaluations/op")
	b.ReportMetric(r.LogMarginalLikelihood(), "lml")
}
