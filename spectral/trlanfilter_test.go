package spectral

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// TestSingleVectorFilteredAgainstDense runs the Chebyshev-filtered
// single-vector method (Bounds set) on both ends against mat.EigenSym: the
// largest of S with the bounds [−1, 1], through laplacian's operator and
// the CSR operator of LaplacianEigs, and the smallest
// of L_un with the Gershgorin bounds [0, 2·max degree].
func TestSingleVectorFilteredAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := randomGraph(rng, 600, 1200)
	dg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	require.NoError(t, err)
	s, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	sparse, err := newSparseOperator(g, laplacian.NormalizedAdjacency, dg)
	require.NoError(t, err)
	un, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	require.NoError(t, err)
	var dmax float64
	for _, d := range dg.D {
		dmax = math.Max(dmax, d)
	}
	refS, refUn := denseSpectrum(t, s), denseSpectrum(t, un)
	for _, k := range []int{1, 6, 25} {
		for _, deg := range []int{2, 7} {
			set := Settings{Tol: solveTol, Method: SingleVector, FilterDegree: deg, Bounds: Interval{Lo: -1, Hi: 1}}
			for _, op := range []struct {
				name string
				a    linop.Operator
			}{{"laplacian.Operator", s}, {"sparseOperator", sparse}} {
				name, a := op.name, op.a
				r, err := Eigs(context.Background(), a, k, Largest, set)
				require.NoError(t, err, "%s k=%d deg=%d", name, k, deg)
				require.InDeltaSlice(t, refS[len(refS)-k:], r.Values, valueTol, "%s k=%d deg=%d", name, k, deg)
				checkResiduals(t, s, r, solveTol*1.01)
				checkOrthonormal(t, r.Vectors, nil, orthoTol)
			}
			set.Bounds = Interval{Lo: 0, Hi: 2 * dmax}
			r, err := Eigs(context.Background(), un, k, Smallest, set)
			require.NoError(t, err, "L_un k=%d deg=%d", k, deg)
			require.InDeltaSlice(t, refUn[:k], r.Values, valueTol*2*dmax, "L_un k=%d deg=%d", k, deg)
			checkResiduals(t, un, r, solveTol*2*dmax*1.01)
			checkOrthonormal(t, r.Vectors, nil, orthoTol)
		}
	}
}

// TestSingleVectorFilteredNotConverged checks the restart cap of the
// filtered phase: the error carries only pairs whose true residuals meet the
// tolerance, each an eigenvalue of the dense spectrum.
func TestSingleVectorFilteredNotConverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	g := randomGraph(rng, 600, 1200)
	op, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	ref := denseSpectrum(t, op)
	_, err = Eigs(context.Background(), op, 40, Largest, Settings{Tol: 1e-14, MaxRestarts: 2, BasisSize: 50, Method: SingleVector, FilterDegree: 3, Bounds: Interval{Lo: -1, Hi: 1}})
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc)
	require.Less(t, len(nc.Converged.Values), 40)
	for j, v := range nc.Converged.Values {
		require.LessOrEqual(t, nc.Converged.Residuals[j], 1e-14*1.01)
		d := math.Inf(1)
		for _, x := range ref {
			d = math.Min(d, math.Abs(x-v))
		}
		require.Less(t, d, valueTol)
	}
}

// TestSingleVectorFilterCutAboveWanted starts the filtered phase with a cut
// above the third largest eigenvalue, which damps wanted ones: the run must
// notice it (a wanted Ritz value of B in the damped interval) and finish
// unfiltered on A with the right eigenvalues.
func TestSingleVectorFilterCutAboveWanted(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	g := randomGraph(rng, 600, 1200)
	op, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	ref := denseSpectrum(t, op)
	const k = 5
	set := Settings{Tol: solveTol, Method: SingleVector, FilterDegree: 6, Bounds: Interval{Lo: -1, Hi: 1}}
	c, err := set.resolve(op.Dim(), k)
	require.NoError(t, err)
	tr := newTrlan(context.Background(), op, k, Largest, c, 0)
	cut := (ref[len(ref)-3] + ref[len(ref)-4]) / 2
	tr.deg, tr.sgn = 6, 1
	tr.gamma, tr.e = (cut-1)/2, (cut+1)/2
	tr.tfar = chebT(6, (1-tr.gamma)/tr.e)
	tr.anormA, tr.tolB = 1, solveTol
	tr.cheb = make([]float64, 3*op.Dim())
	// No probe: run on B from the first cycle.
	tr.c.degree = 1
	r, err := tr.run()
	require.NoError(t, err)
	require.Equal(t, 1, tr.deg, "the filter must have been turned off")
	require.InDeltaSlice(t, ref[len(ref)-k:], r.Values, valueTol)
	checkResiduals(t, op, r, solveTol*1.01)
	checkOrthonormal(t, r.Vectors, nil, orthoTol)
}

// TestSingleVectorFilteredDeterministic checks that the filtered
// single-vector path of LaplacianEigs (a component above
// SingleVectorMinNodes) gives bitwise the same pairs under GOMAXPROCS 1, 2
// and 8.
func TestSingleVectorFilteredDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	n := SingleVectorMinNodes + 10
	g := randomGraph(rng, n, 2*n)
	const k = 12
	require.Greater(t, singleFilterDegree(g.NNZ(), n, singleVectorBasis(n, k, 0)), 1, "the test must take the filtered path")
	run := func(procs int) *Result {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		r, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol})
		require.NoError(t, err)
		return r
	}
	a := run(2)
	for _, p := range []int{1, 8} {
		b := run(p)
		require.Equal(t, a.Values, b.Values, "GOMAXPROCS %d", p)
		require.Equal(t, a.Vectors.RawMatrix().Data, b.Vectors.RawMatrix().Data, "GOMAXPROCS %d", p)
		require.Equal(t, a.MatVecs, b.MatVecs)
	}
}

// TestApplyScaledBitwise: on the normalised adjacency held by a
// sparseOperator, the filtered single-vector method applies
// B = T_d(σ(S − γ)/e)/T_d(x_far) with the scalings of the products joined to
// the recursion's passes (applyScaled), and the division of extend's new
// basis vector by its norm joined to the first of them. B·u must be bitwise
// what the operator's own products and passes give (apply on the operator
// as a plain linop.Operator), for a unit-weight and a weighted graph and
// both ends, and agree with the polynomial of the dense matrix of S.
func TestApplyScaledBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	weighted := randomGraph(rng, 700, 1400)
	var e []graph.Edge
	weighted.ForEachEdge(func(u, v int, _ float64) { e = append(e, graph.Edge{U: u, V: v, W: 1}) })
	unit, err := graph.FromEdges(weighted.Nodes(), e, graph.Options{})
	require.NoError(t, err)
	for _, g := range []*graph.CSR{unit, weighted} {
		n := g.Nodes()
		dg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
		require.NoError(t, err)
		op, err := newSparseOperator(g, laplacian.NormalizedAdjacency, dg)
		require.NoError(t, err)
		dense := linop.ToDense(op)
		for _, c := range []struct {
			deg      int
			sgn, cut float64
		}{{3, 1, 0.6}, {5, -1, -0.2}, {2, 1, 0.9}} {
			setUp := func(a linop.Operator) *trlan {
				tr := newTrlan(context.Background(), a, 4, Largest, config{}, 0)
				end := -c.sgn
				tr.deg, tr.sgn = c.deg, c.sgn
				tr.gamma, tr.e = (c.cut+end)/2, math.Abs(c.cut-end)/2
				tr.tfar = chebT(c.deg, c.sgn*(c.sgn-tr.gamma)/tr.e)
				tr.cheb = make([]float64, 4*n)
				return tr
			}
			fused, plain := setUp(op), setUp(opaqueOperator{op})
			require.Same(t, op, fused.scaled)
			require.Nil(t, plain.scaled)
			u := make([]float64, n)
			for i := range u {
				u[i] = rng.NormFloat64()
			}
			norm := 3.7
			scaled := make([]float64, n) // u·norm: extend's vector before its division
			for i, x := range u {
				scaled[i] = x * norm
			}
			wantU := make([]float64, n) // as extend normalises it itself
			for i, x := range scaled {
				wantU[i] = x * (1 / norm)
			}
			want, got := make([]float64, n), make([]float64, n)
			plain.apply(want, wantU)
			fused.unscaled = norm
			fused.apply(got, scaled)
			require.Equal(t, wantU, scaled, "deg %d: the first pass must divide u by its norm", c.deg)
			require.Equal(t, want, got, "deg %d sgn %v", c.deg, c.sgn)
			require.Zero(t, fused.unscaled)
			require.Equal(t, c.deg, fused.res.MatVecs)
			fused.apply(got, wantU) // no division pending
			require.Equal(t, want, got, "deg %d sgn %v", c.deg, c.sgn)
			// The dense reference: the three-term recursion on the matrix.
			prev, cur := mat.NewVecDense(n, append([]float64(nil), wantU...)), mat.NewVecDense(n, nil)
			cur.MulVec(dense, prev)
			cur.AddScaledVec(cur, -fused.gamma, prev)
			cur.ScaleVec(c.sgn/fused.e, cur)
			for d := 2; d <= c.deg; d++ {
				next := mat.NewVecDense(n, nil)
				next.MulVec(dense, cur)
				next.AddScaledVec(next, -fused.gamma, cur)
				next.ScaleVec(2*c.sgn/fused.e, next)
				next.SubVec(next, prev)
				prev, cur = cur, next
			}
			cur.ScaleVec(1/fused.tfar, cur)
			// Each step adds rounding of order ε times the growing norm
			// of the iterates (at most T_d(x_far)·‖u‖ before the scaling).
			require.InDeltaSlice(t, cur.RawVector().Data, got, 1e-12*math.Sqrt(float64(n)), "deg %d sgn %v", c.deg, c.sgn)
		}
	}
}

// opaqueOperator hides the type of the operator it wraps.
type opaqueOperator struct{ linop.Operator }

func (o opaqueOperator) IsSymmetric() bool { return true }

// TestChebPassBitwise: chebPass (on the AVX2 kernel where there is one)
// gives bitwise the entries of the plain loops of the Chebyshev step it
// replaced, y = f·(2a·(x·l − g·c) − p) and the first step's a·(x·l − g·u),
// with and without the scaled copy r∘y, for lengths around the kernel's
// multiple of 4.
func TestChebPassBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	for n := 1; n <= 13; n++ {
		for _, first := range []bool{false, true} {
			for _, last := range []bool{false, true} {
				x, l, c, p, r := vec(n), vec(n), vec(n), vec(n), vec(n)
				a, g, f := rng.NormFloat64(), rng.NormFloat64(), 1/rng.Float64()
				want, wantR := make([]float64, n), make([]float64, n)
				for i := range want {
					if first {
						want[i] = a * (float64(x[i]*l[i]) - g*c[i])
					} else {
						want[i] = f * (2*a*(float64(x[i]*l[i])-g*c[i]) - p[i])
					}
					wantR[i] = r[i] * want[i]
				}
				got, gotR := append([]float64(nil), x...), make([]float64, n)
				rc := gotR
				if last {
					rc = nil
				}
				if first {
					chebPass(got, l, c, nil, r, rc, a, g, 1)
				} else {
					chebPass(got, l, c, p, r, rc, 2*a, g, f)
				}
				for i := range want {
					require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "n %d first %v entry %d", n, first, i)
					if !last {
						require.Equal(t, math.Float64bits(wantR[i]), math.Float64bits(gotR[i]), "n %d first %v entry %d", n, first, i)
					} else {
						require.Zero(t, gotR[i])
					}
				}
			}
		}
	}
}

// TestScaleRXBitwise: scaleRX gives bitwise the plain loop's u·(1/div) and
// r∘u, and leaves u alone for div = 0, for lengths around the kernel's
// multiple of 4.
func TestScaleRXBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 13; n++ {
		for _, div := range []float64{0, 3 * rng.Float64()} {
			u, r := make([]float64, n), make([]float64, n)
			for i := range u {
				u[i], r[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			wantU, wantR := append([]float64(nil), u...), make([]float64, n)
			for i, x := range wantU {
				if div != 0 {
					x *= 1 / div
					wantU[i] = x
				}
				wantR[i] = r[i] * x
			}
			rx := make([]float64, n)
			scaleRX(u, r, rx, div)
			for i := range u {
				require.Equal(t, math.Float64bits(wantU[i]), math.Float64bits(u[i]), "n %d div %v entry %d", n, div, i)
				require.Equal(t, math.Float64bits(wantR[i]), math.Float64bits(rx[i]), "n %d div %v entry %d", n, div, i)
			}
		}
	}
}
