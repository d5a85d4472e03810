package propagate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
)

// BenchmarkPPR times PPR (a = 0.9, Tol 1e-6) of dense features on random
// graphs (average degree 10): 20 000 nodes with 8 and 64 features, 100 000
// nodes with 8.
//
//	go test -run '^$' -bench PPR ./propagate
func BenchmarkPPR(b *testing.B) {
	for _, n := range []int{20000, 100000} {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		var edges []graph.Edge
		for i := 1; i < n; i++ {
			edges = append(edges, graph.Edge{U: i, V: rng.IntN(i), W: 1})
		}
		for k := 0; k < 4*n; k++ {
			if u, v := rng.IntN(n), rng.IntN(n); u != v {
				edges = append(edges, graph.Edge{U: u, V: v, W: 1})
			}
		}
		g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
		if err != nil {
			b.Fatal(err)
		}
		s := GCN(g)
		widths := []int{8, 64}
		if n > 20000 {
			widths = widths[:1]
		}
		for _, d := range widths {
			x := mat.NewDense(n, d, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < d; j++ {
					x.Set(i, j, rng.NormFloat64())
				}
			}
			b.Run(fmt.Sprintf("n=%d/d=%d", n, d), func(b *testing.B) {
				b.ReportAllocs()
				var info Info
				cpu0 := sharedtest.CPUTime()
				for b.Loop() {
					if _, info, err = PPR(context.Background(), s, Features{Dense: x}, 0.9, Settings{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((sharedtest.CPUTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(info.Iterations), "iterations")
			})
		}
	}
}
