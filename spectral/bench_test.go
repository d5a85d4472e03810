package spectral

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
)

// BenchmarkLaplacianEigs times the k smallest eigenpairs of L_sym on random
// connected graphs (average degree ~6) and, when the shared data is present,
// on PubMed, at the tolerance of the side-by-side benchmark
// (scripts/bench-eigs.sh).
func BenchmarkLaplacianEigs(b *testing.B) {
	graphs := map[string]*graph.CSR{}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{5000, 20000} {
		graphs[fmt.Sprintf("random-n%d", n)] = randomGraph(rng, n, 2*n)
	}
	for _, name := range []string{"random-n5000", "random-n20000", "pubmed"} {
		b.Run(name, func(b *testing.B) {
			g, ok := graphs[name]
			if !ok {
				ds, err := loaders.LoadNodeDataset(sharedtest.Data(b, name))
				if err != nil {
					b.Fatal(err)
				}
				g = ds.Graph
			}
			for _, k := range []int{10, 50} {
				b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: 1e-13}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkLogDet times SLQ with the default 30 probes × 50 steps.
func BenchmarkLogDet(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{2000, 20000} {
		lap := spdGraphMatrix(rng, n, 2*n, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			a := shifted{lap, 1}
			for i := 0; i < b.N; i++ {
				if _, err := LogDet(context.Background(), a, TraceSettings{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// shifted is A + σI.
type shifted struct {
	a     *laplacian.Operator
	sigma float64
}

func (s shifted) Dim() int { return s.a.Dim() }
func (s shifted) MulVecTo(dst, x []float64) {
	s.a.MulVecTo(dst, x)
	for i, v := range x {
		dst[i] += s.sigma * v
	}
}
