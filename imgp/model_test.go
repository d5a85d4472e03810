package imgp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/knngraph"
)

// eigenTol: eigenvalues of a 150-node L_sym from two dense factorisations
// (per component and whole graph) agree to rounding, 1e-13 relative to the
// spectral radius ≤ 2.
const eigenTol = 1e-10

// twoCircles is a disconnected point cloud: two far-apart noisy circles.
func twoCircles(t testing.TB) (*mat.Dense, *knngraph.Graph) {
	x1, _, _ := noisyCircle(t, 3, 90, 3, 6)
	x2, _, _ := noisyCircle(t, 4, 60, 3, 6)
	x := mat.NewDense(150, 3, nil)
	for i := 0; i < 90; i++ {
		x.SetRow(i, x1.RawRowView(i))
	}
	for i := 0; i < 60; i++ {
		r := x2.RawRowView(i)
		x.SetRow(90+i, []float64{r[0] + 10, r[1], r[2]})
	}
	nb, err := knngraph.Exact(context.Background(), x, 6, nil)
	require.NoError(t, err)
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	require.NoError(t, err)
	return x, g
}

func TestEigensolversAgainstWholeGraph(t *testing.T) {
	_, g := twoCircles(t)
	_, count := g.Dist2.Components()
	require.Equal(t, 2, count)
	w, err := g.Weights(0.05)
	require.NoError(t, err)
	const L = 12
	h := Hyperparameters{Alpha: 0.05, Kappa: 1, Amplitude: 1, Noise: 1}
	dm := newDenseModel(g, 1, h)
	_, lam, _ := dm.eigenKernel(1, h)
	n := len(w.D)
	for _, solver := range []Eigensolver{DenseComponents{}, Lanczos{}} {
		t.Run(fmt.Sprintf("%T", solver), func(t *testing.T) {
			ep, err := solver.Smallest(context.Background(), w, L)
			require.NoError(t, err)
			require.InDelta(t, 0, ep.Values[0], eigenTol)
			require.InDelta(t, 0, ep.Values[1], eigenTol, "two components: eigenvalue 0 twice")
			for l := 0; l < L; l++ {
				require.InDelta(t, lam[l], ep.Values[l], eigenTol, "λ_%d", l)
				// Δ_rw f = λ f and fᵀDf = 1, checked with the dense matrices.
				f := mat.Col(nil, l, ep.Vectors)
				var norm float64
				for i := 0; i < n; i++ {
					var af float64
					for j := 0; j < n; j++ {
						af += dm.a.At(i, j) * f[j]
					}
					require.InDelta(t, ep.Values[l]*f[i], f[i]-af/dm.d[i], 1e-8, "residual λ_%d node %d", l, i)
					norm += dm.d[i] * f[i] * f[i]
				}
				require.InDelta(t, 1, norm, 1e-10)
				for m := 0; m < l; m++ {
					var ip float64
					for i := 0; i < n; i++ {
						ip += dm.d[i] * f[i] * ep.Vectors.At(i, m)
					}
					require.InDelta(t, 0, ip, 1e-10, "D-orthogonality %d,%d", l, m)
				}
			}
		})
	}
	_, err = DenseComponents{MaxComponent: 50}.Smallest(context.Background(), w, L)
	require.ErrorContains(t, err, "component 0 has 90 nodes")
}

// fitCircle fits a small model on a noisy circle in R^10 with the target
// cos θ, labelled every fourth node.
func fitCircle(t *testing.T, iters int) (*Regressor, *mat.Dense, []float64) {
	return fitCircleWith(t, iters, ProcedureRefit)
}

// fitCircleWith is fitCircle with the given procedure.
func fitCircleWith(t *testing.T, iters int, proc Procedure) (*Regressor, *mat.Dense, []float64) {
	x, theta, _ := noisyCircle(t, 5, 200, 10, 8)
	var lab []int
	var y []float64
	for i := 0; i < 200; i += 4 {
		lab = append(lab, i)
		y = append(y, math.Cos(theta[i]))
	}
	r := &Regressor{K: 8, Eigenpairs: 30, Iterations: iters, Seed: 1, Euclidean: &gp.Regressor{Covariance: gp.SquaredExponential}, Procedure: proc,
		Scaling: &Scaling{Scale: 1}} // the targets as they are: the tests compare with references on them
	require.NoError(t, r.FitIndexed(context.Background(), x, lab, y))
	return r, x, theta
}

// TestDefaultProcedureIsRefit checks that the default fit is the paper's
// fit followed by the rank-L refit (Refined), hyperparameters and
// predictions alike, and that the paper's procedure stays one field away.
func TestDefaultProcedureIsRefit(t *testing.T) {
	def, x, _ := fitCircle(t, 3)
	paper, _, _ := fitCircleWith(t, 3, ProcedurePaper)
	refined, err := paper.Refined(context.Background())
	require.NoError(t, err)
	require.Equal(t, refined.Hyperparameters(), def.Hyperparameters())
	require.NotEqual(t, paper.Hyperparameters(), def.Hyperparameters())
	q := mat.DenseCopyOf(x.Slice(0, 5, 0, 10))
	pd, err := def.Posterior(context.Background(), q)
	require.NoError(t, err)
	pr, err := refined.Posterior(context.Background(), q)
	require.NoError(t, err)
	require.Equal(t, pr.Mean, pd.Mean)
	require.Error(t, (&Regressor{Procedure: 7}).Validate())
	p, err := ParseProcedure("paper")
	require.NoError(t, err)
	require.Equal(t, ProcedurePaper, p)
	_, err = ParseProcedure("x")
	require.Error(t, err)
}

func TestNystromReproducesNodesAndGamma(t *testing.T) {
	r, x, _ := fitCircle(t, 5)
	g := r.FittedGraph()
	ep := r.Spectrum()
	w, err := g.Weights(r.Hyperparameters().Alpha)
	require.NoError(t, err)
	n, L := ep.Vectors.Dims()
	for i := 0; i < n; i++ {
		idx, d2 := g.NodeNeighbourhood(i)
		e, err := w.Extend(idx, d2)
		require.NoError(t, err)
		f, err := r.Extend(e)
		require.NoError(t, err)
		for l := 0; l < L; l++ {
			// 1/(1−λ) Σ_j A_ij/D_i f_l(x_j) = f_l(x_i) up to eigenvector rounding.
			require.InDelta(t, ep.Vectors.At(i, l), f[l], 1e-9, "node %d eigenvector %d", i, l)
		}
	}
	alpha := r.Hyperparameters().Alpha
	require.Equal(t, 1.0, Gamma(0, alpha))
	require.Equal(t, 0.0, Gamma(3*alpha, alpha))
	require.Equal(t, 0.0, Gamma(3.5*alpha, alpha))
	require.InDelta(t, math.Exp(1-1/(1-0.25)), Gamma(1.5*alpha, alpha), 1e-15)
	// Predicting at the nodes themselves: nearest distance 0, so γ = 1.
	p, err := r.Posterior(context.Background(), x)
	require.NoError(t, err)
	for i, gm := range p.Gamma {
		require.Equal(t, 1.0, gm, "γ at node %d", i)
	}
	// Far away: γ = 0 and the prediction is the Euclidean GP's.
	far := mat.NewDense(1, 10, nil)
	far.Set(0, 0, 50)
	p, err = r.Posterior(context.Background(), far)
	require.NoError(t, err)
	require.Equal(t, 0.0, p.Gamma[0])
	require.Equal(t, p.EuclideanMean[0], p.Mean[0])
	require.Equal(t, p.EuclideanVariance[0], p.Variance[0])
}

func TestHutchinsonIsUnbiased(t *testing.T) {
	_, theta, g := noisyCircle(t, 6, 60, 3, 5)
	var lab []int
	var y []float64
	for i := 0; i < 60; i += 2 {
		lab = append(lab, i)
		y = append(y, math.Sin(theta[i]))
	}
	pr := &gmrf{geo: g, nu: 2, labelled: lab, y: y, tol: 1e-12}
	h := Hyperparameters{Alpha: 0.08, Kappa: 2, Amplitude: 0.05, Noise: 0.02}
	ctx := context.Background()
	exact, err := pr.evaluate(ctx, h, exactProbes(60))
	require.NoError(t, err)
	// Many independent single-probe estimates: their mean must be within
	// 4.5 standard errors of the exact gradient (false failure rate < 1e-5
	// per component for a Gaussian mean).
	const trials = 2000
	rng := rand.New(rand.NewPCG(9, 9))
	var sum, sumSq [4]float64
	z := make([]float64, 60)
	for k := 0; k < trials; k++ {
		for i := range z {
			z[i] = float64(2*rng.IntN(2) - 1)
		}
		res, err := pr.evaluate(ctx, h, [][]float64{z})
		require.NoError(t, err)
		for p := range sum {
			sum[p] += res.Grad[p]
			sumSq[p] += res.Grad[p] * res.Grad[p]
		}
	}
	for p := range sum {
		mean := sum[p] / trials
		sd := math.Sqrt((sumSq[p]/trials - mean*mean) / trials)
		require.InDelta(t, exact.Grad[p], mean, 4.5*sd+1e-9, "parameter %d: exact %v, mean %v ± %v", p, exact.Grad[p], mean, sd)
		require.Greater(t, sd, 0.0)
	}
}

func TestFitImprovesOnCircle(t *testing.T) {
	r, x, theta := fitCircle(t, 40)
	ctx := context.Background()
	// New points on the same circle, between the nodes.
	rng := rand.New(rand.NewPCG(11, 11))
	m := 50
	q := mat.NewDense(m, 10, nil)
	truth := make([]float64, m)
	for i := 0; i < m; i++ {
		th := 2 * math.Pi * rng.Float64()
		q.Set(i, 0, math.Cos(th))
		q.Set(i, 1, math.Sin(th))
		truth[i] = math.Cos(th)
	}
	p, err := r.Posterior(ctx, q)
	require.NoError(t, err)
	var sse float64
	for i := range truth {
		sse += (p.Mean[i] - truth[i]) * (p.Mean[i] - truth[i])
		require.Greater(t, p.Observation[i], 0.0)
	}
	require.Less(t, math.Sqrt(sse/float64(m)), 0.1, "IMGP should interpolate a smooth function of the angle")
	s, err := r.Sample(ctx, q, 3, 1)
	require.NoError(t, err)
	rows, cols := s.Dims()
	require.Equal(t, 3, rows)
	require.Equal(t, m, cols)
	_ = x
	_ = theta
}

func TestSampleMomentsMatchPrediction(t *testing.T) {
	r, _, _ := fitCircle(t, 3)
	q := mat.NewDense(3, 10, nil)
	for i, th := range []float64{0.3, 2, 4} {
		q.Set(i, 0, 1.02*math.Cos(th))
		q.Set(i, 1, 1.02*math.Sin(th))
	}
	ctx := context.Background()
	p, err := r.Posterior(ctx, q)
	require.NoError(t, err)
	const count = 20000
	s, err := r.Sample(ctx, q, count, 3)
	require.NoError(t, err)
	for j := 0; j < 3; j++ {
		col := mat.Col(nil, j, s)
		var mean, sq float64
		for _, v := range col {
			mean += v
		}
		mean /= count
		for _, v := range col {
			sq += (v - mean) * (v - mean)
		}
		v := sq / (count - 1)
		se := math.Sqrt(p.Variance[j] / count)
		// Sample mean within 5 standard errors; sample variance within 5 % (its
		// relative standard error is √(2/count) = 1 %).
		require.InDelta(t, p.Mean[j], mean, 5*se+1e-12, "point %d mean", j)
		require.InEpsilon(t, p.Variance[j], v, 0.05, "point %d variance", j)
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	x, _, _ := noisyCircle(t, 7, 30, 3, 5)
	y := []float64{1, 2, 3}
	lab := []int{0, 5, 9}
	cases := map[string]struct {
		r    Regressor
		x    *mat.Dense
		lab  []int
		y    []float64
		want string
	}{
		"no labels":     {Regressor{K: 5}, x, nil, nil, "no labelled points"},
		"nan target":    {Regressor{K: 5}, x, lab, []float64{1, math.NaN(), 3}, "target 1 (point 5) is NaN"},
		"K ≥ N":         {Regressor{K: 30}, x, lab, y, "K = 30 is invalid for 30 points"},
		"nu":            {Regressor{K: 5, Nu: -1}, x, lab, y, "positive integer smoothness"},
		"index":         {Regressor{K: 5}, x, []int{0, 30, 1}, y, "labelled[1] = 30"},
		"duplicate":     {Regressor{K: 5}, x, []int{0, 5, 0}, y, "point 0 is labelled twice"},
		"length":        {Regressor{K: 5}, x, lab, y[:2], "3 labelled indices but 2 targets"},
		"no points":     {Regressor{K: 5}, &mat.Dense{}, lab, y, "no input points"},
		"eigenpairs":    {Regressor{K: 5, Eigenpairs: 31}, x, lab, y, "Eigenpairs = 31"},
		"learning rate": {Regressor{K: 5, LearningRate: math.NaN()}, x, lab, y, "LearningRate"},
		"initial":       {Regressor{K: 5, Initial: Hyperparameters{Kappa: -1}}, x, lab, y, "Initial.Kappa = -1"},
	}
	for name, c := range cases {
		err := c.r.FitIndexed(ctx, c.x, c.lab, c.y)
		require.ErrorContains(t, err, c.want, name)
	}
	_, err := NewPrecision(&knngraph.Weights{A: nil}, 2, 1, 1)
	require.Error(t, err)
	_, g := twoCircles(t)
	w, err := g.Weights(0.1)
	require.NoError(t, err)
	_, err = NewPrecision(w, 0, 1, 1)
	require.ErrorContains(t, err, "nu = 0 is invalid")
	_, err = NewPrecision(w, 2, math.Inf(1), 1)
	require.ErrorContains(t, err, "kappa = +Inf")
	r := Regressor{}
	_, err = r.Posterior(ctx, x)
	require.ErrorIs(t, err, errNotFitted)
	bad := mat.DenseCopyOf(x)
	bad.Set(2, 1, math.NaN())
	r = Regressor{K: 5}
	require.ErrorContains(t, r.FitIndexed(ctx, bad, lab, y), "point 2, coordinate 1 is NaN")
}

// A regular polygon's KNN graph is a circulant: its eigenvalues come in
// equal pairs, which inverse iteration must still return as orthogonal
// eigenvectors.
func TestDenseComponentsRepeatedEigenvalues(t *testing.T) {
	n := 64
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		th := 2 * math.Pi * float64(i) / float64(n)
		x.SetRow(i, []float64{math.Cos(th), math.Sin(th)})
	}
	nb, err := knngraph.Exact(context.Background(), x, 4, nil)
	require.NoError(t, err)
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	require.NoError(t, err)
	w, err := g.Weights(0.1)
	require.NoError(t, err)
	ep, err := DenseComponents{}.Smallest(context.Background(), w, 9)
	require.NoError(t, err)
	h := Hyperparameters{Alpha: 0.1, Kappa: 1, Amplitude: 1, Noise: 1}
	dm := newDenseModel(g, 1, h)
	_, lam, _ := dm.eigenKernel(1, h)
	require.InDelta(t, ep.Values[1], ep.Values[2], 1e-10, "a circulant has double eigenvalues")
	for l := 0; l < 9; l++ {
		require.InDelta(t, lam[l], ep.Values[l], eigenTol)
		f := mat.Col(nil, l, ep.Vectors)
		for i := 0; i < n; i++ {
			var af float64
			for j := 0; j < n; j++ {
				af += dm.a.At(i, j) * f[j]
			}
			require.InDelta(t, ep.Values[l]*f[i], f[i]-af/dm.d[i], 1e-8)
		}
		for m := 0; m <= l; m++ {
			var ip float64
			for i := 0; i < n; i++ {
				ip += dm.d[i] * f[i] * ep.Vectors.At(i, m)
			}
			want := 0.0
			if m == l {
				want = 1
			}
			require.InDelta(t, want, ip, 1e-10, "D-inner product %d,%d", l, m)
		}
	}
}

// truncTol: the Woodbury/determinant-lemma form against a dense n×n Cholesky
// of the same covariance; both are exact to rounding at condition ≤ 1e6.
const truncTol = 1e-9

func TestTruncatedLikelihoodAgainstDense(t *testing.T) {
	// the paper's fit, so that the refit below starts from the GMRF optimum
	r, x, theta := fitCircleWith(t, 2, ProcedurePaper)
	_ = x
	ep := r.Spectrum()
	lab := r.fit.labelled
	y := r.fit.y
	tr := newTruncated(ep, 2, lab, y)
	for _, h := range []Hyperparameters{{Kappa: 2, Amplitude: 0.3, Noise: 0.01}, {Kappa: 40, Amplitude: 1e-4, Noise: 1e-3}} {
		c := 4 / (h.Kappa * h.Kappa)
		n := len(lab)
		cov := mat.NewSymDense(n, nil)
		for a, i := range lab {
			for b, j := range lab {
				if b < a {
					continue
				}
				var s float64
				for q, lam := range ep.Values {
					s += h.Amplitude * spectralDensity(lam, c, 2) * ep.Vectors.At(i, q) * ep.Vectors.At(j, q)
				}
				if a == b {
					s += h.Noise
				}
				cov.SetSym(a, b, s)
			}
		}
		var ch mat.Cholesky
		require.True(t, ch.Factorize(cov))
		alpha := mat.NewVecDense(n, nil)
		require.NoError(t, ch.SolveVecTo(alpha, mat.NewVecDense(n, y)))
		want := -0.5*mat.Dot(alpha, mat.NewVecDense(n, y)) - 0.5*ch.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
		got := tr.logLikelihood([]float64{math.Log(h.Kappa), math.Log(h.Amplitude), math.Log(h.Noise)})
		require.InEpsilon(t, want, got, truncTol)
	}
	// Refinement does not lower the truncated likelihood.
	h0 := r.Hyperparameters()
	rr, err := r.Refined(context.Background())
	require.NoError(t, err)
	h1 := rr.Hyperparameters()
	u := func(h Hyperparameters) []float64 {
		return []float64{math.Log(h.Kappa), math.Log(h.Amplitude), math.Log(h.Noise)}
	}
	require.GreaterOrEqual(t, tr.logLikelihood(u(h1)), tr.logLikelihood(u(h0)))
	require.Equal(t, h0.Alpha, h1.Alpha)
	_ = theta
}

// With all N eigenpairs from DenseComponents, the eigen form of the kernel
// is the inverse of the sparse precision (the two forms of the prior agree).
func TestEigenFormInvertsPrecision(t *testing.T) {
	_, g := twoCircles(t)
	h := Hyperparameters{Alpha: 0.05, Kappa: 1.3, Amplitude: 0.7, Noise: 1}
	w, err := g.Weights(h.Alpha)
	require.NoError(t, err)
	n := len(w.D)
	ep, err := DenseComponents{}.Smallest(context.Background(), w, n)
	require.NoError(t, err)
	for _, nu := range []int{1, 2} {
		p, err := NewPrecision(w, nu, h.Kappa, 1/h.Amplitude)
		require.NoError(t, err)
		c := 2 * float64(nu) / (h.Kappa * h.Kappa)
		k := mat.NewDense(n, n, nil)
		for l, lam := range ep.Values {
			phi := h.Amplitude * spectralDensity(lam, c, nu)
			for i := 0; i < n; i++ {
				fi := ep.Vectors.At(i, l)
				if fi == 0 {
					continue
				}
				for j := 0; j < n; j++ {
					k.Set(i, j, k.At(i, j)+phi*fi*ep.Vectors.At(j, l))
				}
			}
		}
		var pk mat.Dense
		pk.Mul(p.Dense(), k)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				require.InDelta(t, want, pk.At(i, j), precisionTol, "ν=%d (PK)[%d,%d]", nu, i, j)
			}
		}
	}
}

// TestBlockProductsMatchVectorProducts: the block products used by the
// training's block CG give, column by column, exactly the vector products
// (P for ν = 1, 2, 3; P + S; M), so block CG runs each column's own CG.
func TestBlockProductsMatchVectorProducts(t *testing.T) {
	_, g := twoCircles(t)
	w, err := g.Weights(0.05)
	require.NoError(t, err)
	n := len(w.D)
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(n, 5, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 5; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	sel := make([]float64, n)
	for i := 0; i < n; i += 7 {
		sel[i] = 3.5
	}
	for _, nu := range []int{1, 2, 3} {
		p, err := NewPrecision(w, nu, 1.3, 0.8)
		require.NoError(t, err)
		st := &state{p: p, sel: sel}
		for name, op := range map[string]interface {
			MulVecTo(dst, x []float64)
			MulBlockTo(dst, x *mat.Dense)
		}{"P": p, "P + S": posteriorOp{st}, "M": mOp{p}} {
			got := mat.NewDense(n, 5, nil)
			op.MulBlockTo(got, x)
			col, want := make([]float64, n), make([]float64, n)
			for j := 0; j < 5; j++ {
				mat.Col(col, j, x)
				op.MulVecTo(want, col)
				for i := 0; i < n; i++ {
					require.Equal(t, want[i], got.At(i, j), "ν=%d %s: entry (%d, %d)", nu, name, i, j)
				}
			}
		}
	}
}
