package labelprop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krylov"
)

// TestPushProductBitwise checks pushProduct against the support product it
// replaces (graph.CSR.ScaledMulBlockRowsSupportTo, which reads every row's
// entries and skips the unmarked columns), bit for bit: every entry of q
// and the sums pᵀq and d·p̃, on a weighted graph with an isolated node and
// on a unit-weight one, with and without deflation, for supports from one
// row to every row, q holding stale values before the product.
func TestPushProductBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 21))
	p := randomProblem(rng, 5)
	g, nodes, classes := unweightedProblem(rng, 3000, 4)
	defer func(deflate bool) { spreadDeflate = deflate }(spreadDeflate)
	for _, in := range []problem{p, {g: g, nodes: nodes[:6], classes: classes[:6], c: 4}} {
		n := in.g.Nodes()
		b := denseRHS(oneHot(n, in.c, 0.5, in.nodes, in.classes))
		for _, deflate := range []bool{false, true} {
			spreadDeflate = deflate
			cg, err := newCGRHS(in.g, 0.5, b, mat.NewDense(n, in.c, nil), krylov.Settings{})
			require.NoError(t, err)
			require.Equal(t, deflate, cg.defl != nil)
			for _, share := range []float64{1 / float64(n), 0.05, 0.3, 1} {
				clear(cg.supp)
				for i := range n {
					row := cg.p[i*in.c : i*in.c+in.c]
					clear(row)
					if rng.Float64() < share {
						cg.supp[i>>6] |= 1 << (i & 63)
						for j := range row {
							row[j] = rng.NormFloat64()
						}
						row[rng.IntN(in.c)] = 0 // a zero inside a support row
					}
				}
				cg.supportProduct(true)
				wantQ, wantSums := slices.Clone(cg.q), slices.Clone(cg.sums)
				for i := range cg.q {
					cg.q[i] = math.NaN() // stale
				}
				clear(cg.sums)
				cg.pushProduct(true)
				requireBitwise(t, "pushProduct", in.c, cg.q, wantQ, cg.sums, wantSums)
			}
		}
	}
}
