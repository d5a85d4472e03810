//go:build amd64

package graph_test

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/hugepage"
)

// BenchmarkMul32Prefetch times one product, on one goroutine, of the graph
// of GSSL_LP_GRAPH (a .gsg file) and of a copy with weights, with a float32
// block of 8 and 16 columns, by the AVX-512 kernels without and with the
// prefetch (csr32PrefetchBytes chooses between them), interleaved: each
// iteration runs both, in alternating order. It reports the medians and
// the median ratio with/without within an iteration:
//
//	GSSL_LP_GRAPH=/tmp/gssl-scale-lp5/sbm-1M.gsg go test ./graph -run '^$' -bench Mul32Prefetch -benchtime 100x
func BenchmarkMul32Prefetch(b *testing.B) {
	path := os.Getenv("GSSL_LP_GRAPH")
	if path == "" {
		b.Skip("GSSL_LP_GRAPH not set")
	}
	if !graph.HasCSR512() {
		b.Skip("no AVX-512")
	}
	u, _, err := graphfile.Read(path)
	if err != nil {
		b.Fatal(err)
	}
	n := u.Nodes()
	for _, unit := range []bool{true, false} {
		g, name := u, "unit"
		if !unit {
			g, name = u.WithRandomWeights(), "weighted"
		}
		for _, c := range []int{8, 16} {
			x := hugepage.Float32s(n * c)
			for i := range x {
				x[i] = float32(i%7) / 7
			}
			dst := hugepage.Float64s(n * c)
			b.Run(name+"/c="+strconv.Itoa(c), func(b *testing.B) {
				var t [2][]float64
				var ratio []float64
				it := 0
				for b.Loop() {
					var d [2]float64
					for j := range 2 {
						v := (j + it) % 2
						start := time.Now()
						g.MulBlock32AVX512(dst, x, c, 0, n, v == 1)
						d[v] = time.Since(start).Seconds() * 1e3
					}
					it++
					t[0], t[1], ratio = append(t[0], d[0]), append(t[1], d[1]), append(ratio, d[1]/d[0])
				}
				med := func(s []float64) float64 { s = slices.Clone(s); slices.Sort(s); return s[len(s)/2] }
				b.ReportMetric(med(t[0]), "ms/product")
				b.ReportMetric(med(t[1]), "prefetch-ms/product")
				b.ReportMetric(med(ratio), "prefetch/none")
			})
		}
	}
}
