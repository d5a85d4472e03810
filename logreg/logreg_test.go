package logreg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/loaders"
)

// sklearnData is the design of the scikit-learn reference below.
func sklearnData() (*mat.Dense, []int) {
	x := mat.NewDense(15, 3, nil)
	y := make([]int, 15)
	for i := 0; i < 15; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, float64((i*7+j*3)%11)/5.0-1.0+0.1*float64(j))
		}
		y[i] = i % 3
	}
	return x, y
}

// TestAgainstSciPy compares with the minimiser of the same J found by
// scipy.optimize.minimize(method="BFGS", gtol=1e-13) from zero (final
// ‖∇J‖_∞ = 7.7e-10), λ = 0.05, m = 15, for the data of sklearnData.
// (scikit-learn 1.2's LogisticRegression(C=1/(λm)) minimises the same J but
// stops at ‖∇J‖_∞ ≈ 3e-6, 2e-5 away in b.)
func TestAgainstSciPy(t *testing.T) {
	wantW := []float64{0.3791780583853969, 0.008023880637524393, -0.38720193902292144, -0.6697390036450023, 1.1908398808613292, -0.521100877216327, -0.5708068049785556, -0.00012829405216627815, 0.5709350990307221}
	wantB := []float64{0.2494778403745622, -0.1722601071152334, -0.07721773325932879}
	wantP := []float64{0.24830117977681967, 0.16972108500006716, 0.5819777352231131, 0.20492195736742483, 0.7139371697254613, 0.08114087290711385, 0.15238168655075404, 0.35851280186566215, 0.48910551158358395}
	x, y := sklearnData()
	// From zero, and preconditioned from the fit at a larger penalty (a
	// warm start along a path): the same minimiser.
	for _, m := range []Classifier{{L2: 0.05, GradTol: 1e-10}, {L2: 0.05, GradTol: 1e-10, Precondition: true, Start: pathStart(t, x, y)}} {
		checkSciPy(t, m, x, y, wantW, wantB, wantP)
	}
}

// pathStart is the fit at penalty 0.5 of x, y, preconditioned.
func pathStart(t *testing.T, x *mat.Dense, y []int) *Classifier {
	s := &Classifier{L2: 0.5, Precondition: true}
	require.NoError(t, s.Fit(context.Background(), x, y))
	return s
}

func checkSciPy(t *testing.T, m Classifier, x *mat.Dense, y []int, wantW, wantB, wantP []float64) {
	t.Helper()
	require.NoError(t, m.Fit(context.Background(), x, y))
	w, b, err := m.Coefficients()
	require.NoError(t, err)
	// Both stop at ‖∇J‖_∞ ≤ 1e-9 and J's curvature is ≥ λ: ‖Δθ‖ ≤ 1e-8·√12/λ.
	const tol = 1e-7
	assert.InDeltaSlice(t, wantW, w.RawMatrix().Data, tol)
	// The intercept is defined up to a constant (softmax is shift
	// invariant): compare centred.
	mean := (b[0] + b[1] + b[2]) / 3
	for j := range b {
		assert.InDelta(t, wantB[j], b[j]-mean, tol)
	}
	p, err := m.Probabilities(Dense{mat.DenseCopyOf(x.Slice(0, 3, 0, 3))})
	require.NoError(t, err)
	assert.InDeltaSlice(t, wantP, p.RawMatrix().Data, tol)
}

// randomProblem is an m×d design, dense and sparse (about half zeros), and
// c-class labels with every fourth row unlabelled.
func randomProblem(m, d, c int, seed uint64) (*mat.Dense, *loaders.Sparse, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &loaders.Sparse{Rows: m, Cols: d, Indptr: []int{0}}
	y := make([]int, m)
	for i := 0; i < m; i++ {
		for j := 0; j < d; j++ {
			if rng.Float64() < 0.5 {
				s.Indices = append(s.Indices, int32(j))
				s.Values = append(s.Values, rng.NormFloat64())
			}
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
		y[i] = rng.IntN(c)
		if i%4 == 3 {
			y[i] = -1
		}
	}
	return s.Dense(nil), s, y
}

func TestGradientFiniteDifferences(t *testing.T) {
	xd, xs, y := randomProblem(20, 6, 4, 1)
	var idx, yl []int
	for i, l := range y {
		if l >= 0 {
			idx, yl = append(idx, i), append(yl, l)
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	theta := make([]float64, (6+1)*4)
	for k := range theta {
		theta[k] = rng.NormFloat64()
	}
	for name, x := range map[string]Design{"dense": rowsOf(Dense{xd}, idx), "sparse": Sparse{X: xs, Rows: idx}} {
		o := newObjective(x, yl, 4, 0.3)
		g := make([]float64, len(theta))
		o.grad(g, theta)
		// central differences: error O(h²·J''') ≈ 1e-10 with h = 1e-5
		const h, tol = 1e-5, 1e-7
		for k := range theta {
			tp := append([]float64(nil), theta...)
			tm := append([]float64(nil), theta...)
			tp[k] += h
			tm[k] -= h
			fd := (o.value(tp) - o.value(tm)) / (2 * h)
			assert.InDelta(t, fd, g[k], tol, "%s: component %d", name, k)
		}
	}
}

// TestDesignsAndRowSpace checks that the dense and sparse designs, and the
// primal and row-space paths (d > m), reach the same optimum.
func TestDesignsAndRowSpace(t *testing.T) {
	ctx := context.Background()
	xd, xs, y := randomProblem(16, 40, 3, 2)
	var ref *mat.Dense
	for _, tc := range []struct {
		name   string
		x      Design
		primal bool
	}{
		{"dense-primal", Dense{xd}, true},
		{"dense-rowspace", Dense{xd}, false},
		{"sparse-primal", Sparse{X: xs}, true},
		{"sparse-rowspace", Sparse{X: xs}, false},
		{"sparse-primal-warm", Sparse{X: xs}, true},
		{"dense-rowspace-warm", Dense{xd}, false},
	} {
		m := Classifier{L2: 0.01, Primal: tc.primal, GradTol: 1e-9}
		if strings.HasSuffix(tc.name, "-warm") {
			// Preconditioned, from the fit at a larger penalty (mapped
			// into the row space on the row-space path).
			start := &Classifier{L2: 0.1, Primal: true}
			require.NoError(t, start.FitDesign(ctx, tc.x, y))
			m.Precondition, m.Start = true, start
		}
		require.NoError(t, m.FitDesign(ctx, tc.x, y), tc.name)
		p, err := m.Probabilities(Sparse{X: xs})
		require.NoError(t, err)
		if ref == nil {
			ref = p
			continue
		}
		// the minimiser is unique (λ > 0) and both stop at ‖∇J‖ ≤ 1e-9
		assert.True(t, mat.EqualApprox(ref, p, 1e-6), tc.name)
	}
	// The gradient of J, from the dense formula, vanishes at the fit.
	m := Classifier{L2: 0.01, GradTol: 1e-9}
	require.NoError(t, m.FitDesign(ctx, Sparse{X: xs}, y))
	w, b, _ := m.Coefficients()
	var g mat.Dense
	pr := mat.NewDense(0+countLabelled(y), 3, nil)
	xl := mat.NewDense(countLabelled(y), 40, nil)
	k := 0
	for i, l := range y {
		if l < 0 {
			continue
		}
		copy(xl.RawRowView(k), xd.RawRowView(i))
		row := pr.RawRowView(k)
		for j := 0; j < 3; j++ {
			row[j] = b[j] + mat.Dot(xd.RowView(i), w.ColView(j))
		}
		Softmax(row)
		row[l]--
		k++
	}
	g.Mul(xl.T(), pr)
	g.Scale(1/float64(k), &g)
	g.Add(&g, scaled(0.01, w))
	assert.Less(t, mat.Norm(&g, math.Inf(1)), 1e-7)
}

func countLabelled(y []int) int {
	n := 0
	for _, l := range y {
		if l >= 0 {
			n++
		}
	}
	return n
}

func scaled(a float64, m *mat.Dense) *mat.Dense {
	var s mat.Dense
	s.Scale(a, m)
	return &s
}

func TestErrors(t *testing.T) {
	var m Classifier
	_, err := m.Predict(context.Background(), mat.NewDense(1, 1, nil))
	require.True(t, errors.Is(err, ErrNotFitted))
	xd, _, y := randomProblem(8, 3, 2, 1)
	for i := range y {
		y[i] = -1
	}
	require.ErrorContains(t, m.Fit(context.Background(), xd, y), "no labelled rows")
	require.ErrorContains(t, (&Classifier{L2: math.NaN()}).Fit(context.Background(), xd, y), "L2")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	xd, _, y = randomProblem(8, 3, 2, 1)
	require.ErrorIs(t, m.Fit(ctx, xd, y), context.Canceled)
	// One L-BFGS step cannot reach the gradient threshold: the shared
	// not-converged error, with the fit kept.
	short := Classifier{L2: 0.01, MaxIter: 1, GradTol: 1e-12}
	err = short.Fit(context.Background(), xd, y)
	var nc *estimator.NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, 1, nc.Iterations)
	assert.Equal(t, 1, short.Info().Iterations)
	_, err = short.Predict(context.Background(), xd)
	require.NoError(t, err)
	_, err = short.Predict(context.Background(), nil)
	require.ErrorContains(t, err, "nil")
	require.ErrorContains(t, (&Classifier{MaxIter: -1}).Validate(), "MaxIter=-1")
	require.ErrorContains(t, (&Classifier{Memory: -1}).Validate(), "Memory=-1")
	c := (&Classifier{L2: 0.5, Classes: 3, MaxIter: 7, GradTol: 1e-4, Primal: true}).Clone()
	assert.Equal(t, Classifier{L2: 0.5, Classes: 3, MaxIter: 7, GradTol: 1e-4, Primal: true}, *c)
}

// TestMemoryAndStoppingRule: the fits with DefaultMemory correction pairs
// and with gonum's 15 (the old default), and a preconditioned one, each
// stopped at ‖∇_θ J‖_∞ < 1e-6 (the preconditioned one by gradientRule on
// the unscaled gradient), lie as close to a tight fit (1e-9) as that
// tolerance allows: J is λ-strongly convex in W, ‖ΔW‖ ≤ ‖∇J‖₂/λ, and their
// probabilities agree to 1e-5. The longer memory takes fewer evaluations.
func TestMemoryAndStoppingRule(t *testing.T) {
	ctx := context.Background()
	xd, _, y := randomProblem(300, 40, 4, 5)
	for j := 0; j < 40; j++ {
		// columns of different scales, for the preconditioner to matter
		for i := 0; i < 300; i++ {
			xd.Set(i, j, xd.At(i, j)*float64(1+j%7))
		}
	}
	const lambda = 1e-3
	tight := Classifier{L2: lambda, GradTol: 1e-9}
	require.NoError(t, tight.Fit(ctx, xd, y))
	wt, _, err := tight.Coefficients()
	require.NoError(t, err)
	pt, err := tight.Predict(ctx, xd)
	require.NoError(t, err)
	bound := (1e-6 + 1e-9) * math.Sqrt(41*4) / lambda
	evals := map[int]int{}
	for _, m := range []Classifier{{L2: lambda, Memory: 15}, {L2: lambda}, {L2: lambda, Precondition: true}} {
		require.NoError(t, m.Fit(ctx, xd, y))
		assert.Less(t, m.Details().GradNorm, 1e-6)
		w, _, err := m.Coefficients()
		require.NoError(t, err)
		var d mat.Dense
		d.Sub(w, wt)
		assert.Less(t, mat.Norm(&d, 2), bound, "memory %d precondition %v", m.Memory, m.Precondition)
		p, err := m.Predict(ctx, xd)
		require.NoError(t, err)
		assert.True(t, mat.EqualApprox(pt, p, 1e-5), "memory %d precondition %v", m.Memory, m.Precondition)
		if !m.Precondition {
			evals[m.memory()] = m.Info().Products
		}
	}
	assert.Less(t, evals[DefaultMemory], evals[15], "evaluations with %d and 15 pairs", DefaultMemory)
}
