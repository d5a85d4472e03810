package spectral

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// Tolerances of the eigensolver tests.
const (
	// solveTol is the residual asked of Eigs in agreement tests.
	solveTol = 1e-11
	// valueTol bounds |λ − λ_dense|: for a symmetric matrix a residual r
	// puts an eigenvalue within r (and within r²/gap for isolated ones), and
	// gonum's dense solver is accurate to ~1e-14 for these norms.
	valueTol = 1e-9
	// orthoTol bounds |VᵀV − I| entries after full re-orthogonalisation.
	orthoTol = 1e-10
)

// randomGraph returns a connected random weighted graph on n nodes: a random
// spanning path plus extra random edges.
func randomGraph(rng *rand.Rand, n, extra int) *graph.CSR {
	perm := rng.Perm(n)
	var e []graph.Edge
	for i := 1; i < n; i++ {
		e = append(e, graph.Edge{U: perm[i-1], V: perm[i], W: 0.2 + rng.Float64()})
	}
	for t := 0; t < extra; t++ {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v {
			e = append(e, graph.Edge{U: u, V: v, W: rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, e, graph.Options{Duplicates: graph.DuplicateSum})
	if err != nil {
		panic(err)
	}
	return g
}

// denseSpectrum returns the ascending eigenvalues of the dense matrix of a.
func denseSpectrum(t *testing.T, a linop.Operator) []float64 {
	d := linop.ToDense(a)
	n, _ := d.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (d.At(i, j)+d.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(s, false))
	return es.Values(nil)
}

// checkOrthonormal asserts VᵀMV = I, M = diag(w) (nil: identity).
func checkOrthonormal(t *testing.T, v *mat.Dense, w []float64, tol float64) {
	n, k := v.Dims()
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			var s float64
			for i := 0; i < n; i++ {
				x := v.At(i, a) * v.At(i, b)
				if w != nil {
					x *= w[i]
				}
				s += x
			}
			want := 0.0
			if a == b {
				want = 1
			}
			require.InDelta(t, want, s, tol, "columns %d, %d", a, b)
		}
	}
}

// checkSigns asserts the sign convention: the largest |entry| is positive.
func checkSigns(t *testing.T, v *mat.Dense) {
	n, k := v.Dims()
	for j := 0; j < k; j++ {
		best, at := -1.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(v.At(i, j)); a > best {
				best, at = a, i
			}
		}
		require.Positive(t, v.At(at, j), "column %d", j)
	}
}

// checkResiduals recomputes ‖A v − λ v‖ independently of the solver.
func checkResiduals(t *testing.T, a linop.Operator, r *Result, bound float64) {
	n, k := r.Vectors.Dims()
	x := make([]float64, n)
	y := make([]float64, n)
	for j := 0; j < k; j++ {
		mat.Col(x, j, r.Vectors)
		a.MulVecTo(y, x)
		var ss float64
		for i := range y {
			d := y[i] - r.Values[j]*x[i]
			ss += d * d
		}
		require.LessOrEqual(t, math.Sqrt(ss), bound, "pair %d (λ = %v)", j, r.Values[j])
		require.InDelta(t, math.Sqrt(ss), r.Residuals[j], 1e-12+1e-6*math.Sqrt(ss))
	}
}

func TestEigsRandomGraphsAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{250, 400} {
		g := randomGraph(rng, n, 3*n)
		for _, kind := range []laplacian.Kind{laplacian.Unnormalized, laplacian.NormalizedAdjacency} {
			op, err := laplacian.New(g, kind, laplacian.Options{})
			require.NoError(t, err)
			ref := denseSpectrum(t, op)
			anorm := math.Max(math.Abs(ref[0]), math.Abs(ref[n-1]))
			for _, which := range []Which{Largest, Smallest} {
				// block sizes 1 and 3, and the single-vector method
				for _, set := range []Settings{{BlockSize: 1}, {BlockSize: 3}, {Method: SingleVector}} {
					for _, k := range []int{1, 7, 20} {
						var seen int
						set.Tol, set.Seed, set.Progress = solveTol, 9, func(Status) { seen++ }
						r, err := Eigs(context.Background(), op, k, which, set)
						require.NoError(t, err, "n=%d %v %v b=%d %v k=%d", n, kind, which, set.BlockSize, set.Method, k)
						want := ref[:k]
						if which == Largest {
							want = ref[n-k:]
						}
						require.InDeltaSlice(t, want, r.Values, valueTol, "n=%d %v %v b=%d %v k=%d", n, kind, which, set.BlockSize, set.Method, k)
						checkResiduals(t, op, r, solveTol*anorm*1.01)
						checkOrthonormal(t, r.Vectors, nil, orthoTol)
						checkSigns(t, r.Vectors)
						require.Equal(t, r.Restarts, seen)
					}
				}
			}
		}
	}
}

func TestEigsFilteredAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 600
	g := randomGraph(rng, n, 2*n)
	s, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	un, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	require.NoError(t, err)
	var dmax float64
	for _, d := range g.Degrees() {
		dmax = math.Max(dmax, d)
	}
	for _, tc := range []struct {
		op     linop.Operator
		bounds Interval
		which  Which
	}{
		{s, Interval{-1, 1}, Largest},
		{s, Interval{-1, 1}, Smallest},
		{un, Interval{0, 2 * dmax}, Smallest},
		{un, Interval{0, 2 * dmax}, Largest},
	} {
		ref := denseSpectrum(t, tc.op)
		anorm := math.Max(math.Abs(tc.bounds.Lo), math.Abs(tc.bounds.Hi))
		for _, k := range []int{5, 30} {
			r, err := Eigs(context.Background(), tc.op, k, tc.which, Settings{Tol: solveTol, Bounds: tc.bounds, Seed: 1})
			require.NoError(t, err, "%v k=%d", tc.which, k)
			want := ref[:k]
			if tc.which == Largest {
				want = ref[n-k:]
			}
			require.InDeltaSlice(t, want, r.Values, valueTol*anorm, "%v k=%d", tc.which, k)
			checkResiduals(t, tc.op, r, solveTol*anorm*1.01)
			checkOrthonormal(t, r.Vectors, nil, orthoTol)
		}
	}
}

// clusteredOperator returns QΛQᵀ (dense, n×n) for a random orthogonal Q and
// the given eigenvalues.
func clusteredOperator(rng *rand.Rand, vals []float64) linop.Dense {
	n := len(vals)
	g := mat.NewDense(n, n, nil)
	g.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, g)
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	var m mat.Dense
	m.Mul(&q, mat.NewDiagDense(n, vals))
	m.Mul(&m, q.T())
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			x := (m.At(i, j) + m.At(j, i)) / 2
			m.Set(i, j, x)
			m.Set(j, i, x)
		}
	}
	return linop.Dense{M: &m}
}

func TestEigsRepeatedAndClustered(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 300
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = -1 + 1.8*rng.Float64()
	}
	// Top of the spectrum: 1 three times, a cluster 0.95 ± 1e-7, and 0.9
	// twice.
	copy(vals, []float64{1, 1, 1, 0.95, 0.95 + 1e-7, 0.95 - 1e-7, 0.9, 0.9})
	op := clusteredOperator(rng, vals)
	ref := denseSpectrum(t, op)
	for _, s := range []Settings{
		{Tol: solveTol, BlockSize: 3},
		{Tol: solveTol, BlockSize: 4, Bounds: Interval{-1, 1}},
	} {
		r, err := Eigs(context.Background(), op, 8, Largest, s)
		require.NoError(t, err)
		require.InDeltaSlice(t, ref[n-8:], r.Values, valueTol)
		checkResiduals(t, op, r, solveTol*1.01)
		checkOrthonormal(t, r.Vectors, nil, orthoTol)
	}
}

func TestEigsSmallDensePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	op := clusteredOperator(rng, []float64{3, 1, 1, -2, 0.5})
	r, err := Eigs(context.Background(), op, 2, Smallest, Settings{})
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{-2, 0.5}, r.Values, valueTol)
	checkResiduals(t, op, r, 1e-12)
	checkSigns(t, r.Vectors)
}

func TestEigsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := randomGraph(rng, 500, 1000)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	s := Settings{Seed: 42, Bounds: Interval{-1, 1}}
	a, err := Eigs(context.Background(), op, 6, Largest, s)
	require.NoError(t, err)
	b, err := Eigs(context.Background(), op, 6, Largest, s)
	require.NoError(t, err)
	require.Equal(t, a.Values, b.Values)
	require.True(t, mat.Equal(a.Vectors, b.Vectors))
	checkSigns(t, a.Vectors)
}

func TestEigsErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	g := randomGraph(rng, 300, 600)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	rw, _ := laplacian.New(g, laplacian.RandomWalk, laplacian.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		op   linop.Operator
		k    int
		w    Which
		s    Settings
		msg  string
	}{
		{"nil", nil, 1, Largest, Settings{}, "operator is nil"},
		{"k=0", op, 0, Largest, Settings{}, "k = 0 is invalid: it must lie in [1, 300]"},
		{"k>n", op, 301, Largest, Settings{}, "k = 301 is invalid"},
		{"which", op, 3, Which(7), Settings{}, "which = Which(7) is invalid"},
		{"nonsym", rw, 3, Largest, Settings{}, "symmetric operator"},
		{"tol", op, 3, Largest, Settings{Tol: 2}, "Tol = 2 is invalid"},
		{"tol tiny", op, 3, Largest, Settings{Tol: 1e-17}, "Tol = 1e-17 is invalid"},
		{"block", op, 3, Largest, Settings{BlockSize: -1}, "BlockSize = -1 is invalid"},
		{"basis", op, 3, Largest, Settings{BasisSize: -5}, "BasisSize = -5 is invalid"},
		{"restarts", op, 3, Largest, Settings{MaxRestarts: -1}, "MaxRestarts = -1 is invalid"},
		{"degree", op, 3, Largest, Settings{FilterDegree: -2}, "FilterDegree = -2 is invalid"},
		{"bounds", op, 3, Largest, Settings{Bounds: Interval{1, -1}}, "Bounds [1, -1] is invalid"},
		{"bounds nan", op, 3, Largest, Settings{Bounds: Interval{math.NaN(), 1}}, "is invalid"},
		{"bounds wrong", op, 3, Largest, Settings{Bounds: Interval{-0.5, 0.5}}, "do not contain the spectrum"},
	} {
		_, err := Eigs(ctx, tc.op, tc.k, tc.w, tc.s)
		require.Error(t, err, tc.name)
		require.Contains(t, err.Error(), tc.msg, tc.name)
	}
	if !errors.Is(func() error { _, err := Eigs(ctx, rw, 3, Largest, Settings{}); return err }(), ErrNotSymmetric) {
		t.Fatal("non-symmetric operator error does not wrap ErrNotSymmetric")
	}
}

func TestEigsNotConvergedCarriesPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	g := randomGraph(rng, 700, 1400)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	_, err := Eigs(context.Background(), op, 30, Largest, Settings{Tol: 1e-14, MaxRestarts: 2, BlockSize: 1, BasisSize: 40})
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc)
	require.Equal(t, 30, nc.Wanted)
	require.Equal(t, 2, nc.Restarts)
	require.Less(t, len(nc.Converged.Values), 30)
	require.Greater(t, nc.Residual, 1e-14)
	// Whatever converged is a true eigenpair.
	ref := denseSpectrum(t, op)
	for j, v := range nc.Converged.Values {
		require.LessOrEqual(t, nc.Converged.Residuals[j], 1e-12)
		d := math.Inf(1)
		for _, x := range ref {
			d = math.Min(d, math.Abs(x-v))
		}
		require.Less(t, d, valueTol)
	}
	require.Contains(t, err.Error(), "of 30 eigenpairs converged after 2 restarts")
}

func TestEigsCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	g := randomGraph(rng, 500, 1000)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Eigs(ctx, op, 5, Largest, Settings{})
	require.ErrorIs(t, err, context.Canceled)
}

func TestEigsProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	g := randomGraph(rng, 500, 1000)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	var seen []Status
	r, err := Eigs(context.Background(), op, 5, Largest, Settings{Progress: func(s Status) { seen = append(seen, s) }})
	require.NoError(t, err)
	require.Len(t, seen, r.Restarts)
	last := seen[len(seen)-1]
	require.Equal(t, 5, last.Converged)
	require.Equal(t, 5, last.Wanted)
}

// noisyOperator adds an error of relative size eps to every product, like
// an operator whose products are computed in lower precision.
type noisyOperator struct {
	a   linop.Operator
	eps float64
	rng *rand.Rand
}

func (o noisyOperator) Dim() int { return o.a.Dim() }
func (o noisyOperator) MulVecTo(dst, x []float64) {
	o.a.MulVecTo(dst, x)
	var nx float64
	for _, v := range x {
		nx += v * v
	}
	nx = math.Sqrt(nx / float64(len(x)))
	for i := range dst {
		dst[i] += o.eps * nx * o.rng.NormFloat64()
	}
}

func TestEigsStallsBelowTheRoundingFloor(t *testing.T) {
	// Products with errors of relative size 1e-11 cannot give residuals of
	// 1e-14: Eigs must end with a *NotConvergedError that says so, long
	// before the restart cap, filtered or not.
	rng := rand.New(rand.NewPCG(8, 9))
	g := randomGraph(rng, 600, 1200)
	s, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	op := noisyOperator{a: s, eps: 1e-11, rng: rand.New(rand.NewPCG(1, 1))}
	for _, set := range []Settings{{Tol: 1e-14}, {Tol: 1e-14, Bounds: Interval{-1.01, 1.01}}} {
		_, err := Eigs(context.Background(), op, 10, Largest, set)
		var nc *NotConvergedError
		require.ErrorAs(t, err, &nc)
		require.True(t, nc.Stalled)
		require.Less(t, nc.Restarts, DefaultMaxRestarts/2)
		require.ErrorContains(t, err, "Tol is below the accuracy attainable")
	}
}
