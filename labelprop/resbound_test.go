package labelprop

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
)

// bigRelResiduals returns ‖b_j − (I − aS)f_j‖/‖b_j‖ per column, computed in
// 256-bit floating point from the graph's stored degrees (so that the
// reference's own rounding, about 2^-256, cannot hide a bound that is too
// small).
func bigRelResiduals(g *graph.CSR, a float64, b, f *mat.Dense) []float64 {
	const prec = 256
	n, c := b.Dims()
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	ts := make([]*big.Float, n) // d^{-1/2}, 0 for isolated nodes
	for i := range n {
		ts[i] = nf(0)
		if d := g.Degree(i); d > 0 {
			ts[i].Quo(nf(1), new(big.Float).SetPrec(prec).Sqrt(nf(d)))
		}
	}
	ba := nf(a)
	rr, bb := make([]*big.Float, c), make([]*big.Float, c)
	for j := range c {
		rr[j], bb[j] = nf(0), nf(0)
	}
	for i := range n {
		cols, ws := g.Row(i)
		for j := range c {
			s := nf(0)
			for k, col := range cols {
				w := nf(1)
				if ws != nil {
					w = nf(ws[k])
				}
				term := new(big.Float).SetPrec(prec).Mul(w, ts[col])
				s.Add(s, term.Mul(term, nf(f.At(int(col), j))))
			}
			s.Mul(s, ts[i]).Mul(s, ba)
			r := nf(b.At(i, j))
			r.Sub(r, nf(f.At(i, j))).Add(r, s)
			rr[j].Add(rr[j], new(big.Float).SetPrec(prec).Mul(r, r))
			bv := nf(b.At(i, j))
			bb[j].Add(bb[j], bv.Mul(bv, bv))
		}
	}
	out := make([]float64, c)
	for j := range c {
		q := new(big.Float).SetPrec(prec).Quo(rr[j], bb[j])
		out[j], _ = q.Sqrt(q).Float64()
	}
	return out
}

// TestResidualBound checks the bound that ends a cold CG solve without a
// final true residual (resbound.go) against the true residual computed in
// 256-bit arithmetic, down to tolerances near the attainable accuracy, where
// the recursive residual falls below the true one: with the rounding
// terms left out (the bound √rr alone) it fails at the tight tolerances.
// The solve must end by the bound at the default tolerance, and by the
// true residual when the bound cannot meet Tol. From 5 classes the solves
// run with and without the float32 gather copy of the directions
// (gather32.go), which the bound covers as it is.
func TestResidualBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	var cases []problem
	for trial := range 2 {
		cases = append(cases, randomProblem(rng, 2+trial))
	}
	g, nodes, classes := weightedProblem(rng, 300, 4)
	cases = append(cases, problem{g: g, nodes: nodes, classes: classes, c: 4, isolated: -1})
	g, nodes, classes = unweightedProblem(rng, 400, 3)
	cases = append(cases, problem{g: g, nodes: nodes, classes: classes, c: 3, isolated: -1})
	g, nodes, classes = weightedProblem(rng, 300, 5)
	cases = append(cases, problem{g: g, nodes: nodes, classes: classes, c: 5, isolated: -1})
	g, nodes, classes = unweightedProblem(rng, 400, 9)
	cases = append(cases, problem{g: g, nodes: nodes, classes: classes, c: 9, isolated: -1})
	defer func(v, w bool) { spreadDeflate, spreadGather32 = v, w }(spreadDeflate, spreadGather32)
	var byBound, tight [2]int
	for _, in := range cases {
		for _, gather := range []bool{false, true} {
			if gather && in.c < gather32Min {
				continue
			}
			spreadGather32 = gather
			for _, deflate := range []bool{false, true} {
				spreadDeflate = deflate
				k := residualBoundCase(t, in, gather)
				byBound[int(indicator(gather))] += k[0]
				tight[int(indicator(gather))] += k[1]
			}
		}
	}
	for k, what := range []string{"float64 directions", "float32 gathers"} {
		assert.Greater(t, byBound[k], 0, what)
		assert.Greater(t, tight[k], 0, "%s: some solves must end by the bound near the attainable accuracy", what)
	}
}

// residualBoundCase runs TestResidualBound's solves of one problem (a, tol
// over their grids; the deflation and gathers as set) and returns how many
// ended by the bound, in all and at tol ≤ 1e-11.
func residualBoundCase(t *testing.T, in problem, gather bool) [2]int {
	var count [2]int
	n := in.g.Nodes()
	for _, a := range []float64{0.5, 0.9, 0.99} {
		b := oneHot(n, in.c, a, in.nodes, in.classes)
		for _, tol := range []float64{DefaultTol, 1e-9, 1e-11, 1e-12, 1e-13, 1e-14} {
			what := fmt.Sprintf("n=%d c=%d a=%v tol=%g deflate=%v gather=%v", n, in.c, a, tol, spreadDeflate, gather)
			f := mat.NewDense(n, in.c, nil)
			cg, err := newSpreadingCG(in.g, a, b, f, krylov.Settings{Tol: tol, MaxIter: 400})
			require.NoError(t, err)
			require.Equal(t, gather, cg.p32 != nil, what)
			res, err := cg.run(context.Background())
			if err != nil {
				continue // not attainable: the true residual keeps the solve going
			}
			if cg.gap == nil {
				assert.Less(t, tol, 1e-8, "%s: the bound must end the solve at the default tolerance", what)
				continue
			}
			count[0]++
			if tol <= 1e-11 {
				count[1]++
			}
			for j, rel := range bigRelResiduals(in.g, a, b, f) {
				assert.LessOrEqual(t, rel, res.Residual[j], "%s: class %d: true residual above the bound", what, j)
				assert.LessOrEqual(t, res.Residual[j], tol, "%s: class %d", what, j)
			}
		}
	}
	return count
}
