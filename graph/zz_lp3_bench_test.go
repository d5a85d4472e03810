package graph_test

import (
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
)

func BenchmarkLP3Product(b *testing.B) {
	g, _, err := graphfile.Read(os.Getenv("GSSL_LP_GRAPH"))
	if err != nil {
		b.Fatal(err)
	}
	n, c := g.Nodes(), 5
	x, dst := mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			x.Set(i, j, float64(i%7+j))
		}
	}
	diag, left := make([]float64, n), make([]float64, n)
	for i := range diag {
		diag[i], left[i] = 1.5, -0.25
	}
	sc := graph.Scaling{Diag: diag, Left: left}
	g.ScaledMulBlockTo(dst, x, sc)
	for b.Loop() {
		g.ScaledMulBlockTo(dst, x, sc)
	}
}
