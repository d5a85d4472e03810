package graph_test

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

// benchGraph loads PubMed from the shared data.
func benchGraph(b *testing.B) (string, *graph.CSR) {
	b.Helper()
	ds, err := loaders.LoadNodeDataset(sharedtest.Data(b, "pubmed"))
	if err != nil {
		b.Fatal(err)
	}
	return ds.Name, ds.Graph
}

// productBytes is the memory a product with c columns must touch at least:
// the CSR arrays, x and dst.
func productBytes(g *graph.CSR, c int) int64 {
	return int64(g.Bytes() - 8*g.Nodes() + 16*g.Nodes()*c) // Bytes counts degrees too
}

// BenchmarkMulVec measures W·x and W·X (n×c) next to a copy of the same
// number of bytes, so the ratio to the memory-bandwidth bound is visible.
//
//	go test ./graph -run '^$' -bench . -benchtime 2000x
func BenchmarkMulVec(b *testing.B) {
	name, g := benchGraph(b)
	n := g.Nodes()
	for _, c := range []int{1, 3, 7} {
		bytes := productBytes(g, c)
		b.Run(fmt.Sprintf("%s/product/c=%d", name, c), func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			if c == 1 {
				x, y := make([]float64, n), make([]float64, n)
				for i := range x {
					x[i] = 1
				}
				for b.Loop() {
					g.MulVecTo(y, x)
				}
				return
			}
			x, y := mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
			for b.Loop() {
				g.MulBlockTo(y, x)
			}
		})
		b.Run(fmt.Sprintf("%s/copy/c=%d", name, c), func(b *testing.B) {
			src, dst := make([]byte, bytes), make([]byte, bytes)
			b.SetBytes(bytes)
			for b.Loop() {
				copy(dst, src)
			}
		})
	}
}
