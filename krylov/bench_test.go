package krylov

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// grid is the 5-point operator shift·I + L on a side×side grid, L the grid
// Laplacian, plus conv times a one-sided difference along rows (conv = 0:
// symmetric). A sparse operator for the solver benchmarks.
type grid struct {
	side        int
	shift, conv float64
}

func (g grid) Dim() int { return g.side * g.side }

func (g grid) MulVecTo(dst, x []float64) {
	m := g.side
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			p := i*m + j
			v := (4 + g.shift) * x[p]
			if i > 0 {
				v -= x[p-m]
			}
			if i < m-1 {
				v -= x[p+m]
			}
			if j > 0 {
				v -= (1 + g.conv) * x[p-1]
			}
			if j < m-1 {
				v -= x[p+1]
			}
			dst[p] = v
		}
	}
}

func (g grid) IsSymmetric() bool { return g.conv == 0 }

func benchRHS(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return b
}

// BenchmarkSolvers runs each single-vector solver for a fixed number of
// iterations (a tolerance it does not reach), so that the time is that of
// the iterations.
func BenchmarkSolvers(b *testing.B) {
	const side, iters = 64, 200
	for _, tc := range []struct {
		name   string
		solver func(context.Context, linop.Operator, []float64, []float64, Settings) (Result, error)
		a      grid
	}{
		{"MINRES", MINRES, grid{side: side, shift: -0.3}},
		{"GMRES", GMRES, grid{side: side, shift: 0.01, conv: 0.5}},
		{"BiCGSTAB", BiCGSTAB, grid{side: side, shift: 0.01, conv: 0.5}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			n := tc.a.Dim()
			rhs, x := benchRHS(n), make([]float64, n)
			s := Settings{Tol: 1e-15, MaxIter: iters, Restart: 30}
			b.ReportAllocs()
			for b.Loop() {
				clear(x)
				_, _ = tc.solver(context.Background(), tc.a, rhs, x, s)
			}
		})
	}
}

// BenchmarkMINRESColumns runs MINRESColumns on 8 columns for a fixed number
// of iterations.
func BenchmarkMINRESColumns(b *testing.B) {
	const side, c, iters = 64, 8, 200
	a := grid{side: side, shift: -0.3}
	n := a.Dim()
	rhs := mat.NewDense(n, c, nil)
	for j := 0; j < c; j++ {
		rhs.SetCol(j, benchRHS(n + j)[j:])
	}
	x := mat.NewDense(n, c, nil)
	s := Settings{Tol: 1e-15, MaxIter: iters}
	b.ReportAllocs()
	for b.Loop() {
		x.Zero()
		_, _ = MINRESColumns(context.Background(), a, rhs, x, s)
	}
}

// BenchmarkChebyshev runs Chebyshev on a dense 200×200 spreading system
// with 4 columns.
func BenchmarkChebyshev(b *testing.B) {
	const n, c = 200, 4
	s, rhs := randomSpread(rand.New(rand.NewPCG(3, 4)), n, c)
	bnorm := make([]float64, c)
	for j := range bnorm {
		bnorm[j] = mat.Norm(rhs.ColView(j), 2)
	}
	sys := &denseSpread[float64]{s: s, b: rhs, a: 0.9, c: c}
	cur, prv := make([]float64, n*c), make([]float64, n*c)
	b.ReportAllocs()
	for b.Loop() {
		_, _, _ = Chebyshev(context.Background(), sys, 0.9, cur, prv, ChebyshevSettings[float64]{
			Settings: Settings{Tol: 1e-12, MaxIter: 40}, Method: "bench", BNorm: bnorm, Zero: true})
	}
}
