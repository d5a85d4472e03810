package labelprop

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/laplacian"
)

// BenchmarkPubMed times what lp.py's "seconds" cover — the solve and the
// labels, from the graph in memory — on PubMed's Planetoid split, for the a
// the validation nodes choose (0.9) and the peer's tolerance. Fit does more
// than the peer's timed block (degrees, components, probabilities). Custom
// metrics: iterations (the most any class needed) and test accuracy.
//
//	go test -run '^$' -bench PubMed -benchtime 20x ./labelprop
func BenchmarkPubMed(b *testing.B) {
	ds, cls := loadPlanetoid(b, sharedData(b, "pubmed"))
	g, sp := ds.Graph, ds.Split
	run := func(name string, m Classifier) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Fit(context.Background(), g, sp.Train, cls); err != nil {
					b.Fatal(err)
				}
			}
			acc, err := eval.Accuracy(m.Labels(), ds.Labels, sp.Test)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(m.Info().Iterations), "iterations")
			b.ReportMetric(acc, "test_accuracy")
		})
	}
	run("spreading-cg-a0.9", &Spreading{Alpha: 0.9})
	run("spreading-fixed-point-a0.9", &Spreading{Alpha: 0.9, Solver: FixedPoint})
	run("spreading-cg-a0.99", &Spreading{Alpha: 0.99})
	run("spreading-fixed-point-a0.99", &Spreading{Alpha: 0.99, Solver: FixedPoint})
	run("harmonic-cmn-jacobi", &Harmonic{ClassMassNormalization: true})
	run("harmonic-cmn-plain-cg", &Harmonic{ClassMassNormalization: true, Preconditioner: NoPreconditioner})

	// One product S·X with an n×7 block, as lp.py's "spmv" line.
	b.Run("spmv-7cols", func(b *testing.B) {
		s, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{Isolated: laplacian.IsolatedZero})
		if err != nil {
			b.Fatal(err)
		}
		n := g.Nodes()
		rng := rand.New(rand.NewPCG(0, 0))
		x := mat.NewDense(n, 7, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 7; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		dst := mat.NewDense(n, 7, nil)
		b.ReportAllocs()
		for b.Loop() {
			s.MulBlockTo(dst, x)
		}
	})
}
