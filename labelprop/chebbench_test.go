package labelprop

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gssl/gssl/internal/sharedtest"
)

// BenchmarkChebyshevFit times Fit by the Chebyshev solver (a = 0.9) in
// float64 and float32 on Cora (7 classes) and PubMed (3), and on a random
// 0/1 graph of 50 000 nodes with 5 classes (the residual rows of graph's
// scaled kernels rather than the fused 3- and 7-column steps).
//
//	go test -run '^$' -bench ChebyshevFit ./labelprop
func BenchmarkChebyshevFit(b *testing.B) {
	run := func(name string, fit func(m *Spreading) error, classes int) {
		for _, f32 := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/float32=%v", name, f32), func(b *testing.B) {
				m := &Spreading{Alpha: 0.9, Classes: classes, Solver: Chebyshev, Float32: f32}
				b.ReportAllocs()
				cpu0 := sharedtest.CPUTime()
				for b.Loop() {
					if err := fit(m); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((sharedtest.CPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(m.Info().Iterations), "iterations")
			})
		}
	}
	for _, name := range []string{"cora", "pubmed"} {
		dir := filepath.Join("..", "testdata", "cora")
		if name != "cora" {
			dir = sharedtest.Data(b, name)
		}
		ds, cls := loadPlanetoid(b, dir)
		run(name, func(m *Spreading) error {
			return m.FitIndexed(context.Background(), ds.Graph, ds.Split.Train, cls)
		}, ds.Classes)
	}
	g, nodes, classes := unweightedProblem(rand.New(rand.NewPCG(28, 5)), 50000, 5)
	run("random-n=50000-c=5", func(m *Spreading) error {
		return m.FitIndexed(context.Background(), g, nodes, classes)
	}, 5)
}
