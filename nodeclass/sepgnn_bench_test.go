package nodeclass

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/mlp"
)

// BenchmarkSepGNNEpochs fits SepGNN for 20 epochs (no early stop) on random
// graphs of n nodes and mean degree deg with 10 dense features, the shape
// of tolokers (n 11758, mean degree 88).
//
//	flock /tmp/gssl-bench.lock go test ./nodeclass -run '^$' -bench SepGNNEpochs -benchtime 3x
func BenchmarkSepGNNEpochs(b *testing.B) {
	for _, c := range []struct{ n, deg, hidden int }{{2000, 20, 64}, {12000, 88, 64}, {12000, 88, 32}} {
		rng := rand.New(rand.NewPCG(1, 2))
		var edges []graph.Edge
		for i := 0; i < c.n; i++ {
			for e := 0; e < c.deg/2; e++ {
				edges = append(edges, graph.Edge{U: i, V: rng.IntN(c.n), W: 1})
			}
		}
		g, err := graph.FromEdges(c.n, edges, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
		if err != nil {
			b.Fatal(err)
		}
		x := mat.NewDense(c.n, 10, nil)
		labels := make([]int, c.n)
		var val, valLabels []int
		for i := range labels {
			for j := 0; j < 10; j++ {
				x.Set(i, j, rng.Float64())
			}
			labels[i] = -1
			switch i % 4 {
			case 0, 1:
				labels[i] = rng.IntN(2)
			case 2:
				val, valLabels = append(val, i), append(valLabels, rng.IntN(2))
			}
		}
		b.Run(fmt.Sprintf("n=%d/deg=%d/hidden=%d", c.n, c.deg, c.hidden), func(b *testing.B) {
			b.ReportAllocs()
			for it := 0; it < b.N; it++ {
				m := &SepGNN{Hidden: c.hidden, Epochs: 20, Patience: 1000, Dropout: mlp.Off}
				if err := m.FitValidated(context.Background(), estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
