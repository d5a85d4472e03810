package imgp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
)

// noisyCircle returns n points on a noisy circle in R^d (the first two
// coordinates), their angle parameter, and the exact KNN graph.
func noisyCircle(t testing.TB, seed uint64, n, d, k int) (*mat.Dense, []float64, *knngraph.Graph) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	theta := make([]float64, n)
	for i := 0; i < n; i++ {
		th := 2 * math.Pi * (float64(i) + 0.3*rng.Float64()) / float64(n)
		theta[i] = th
		x.Set(i, 0, math.Cos(th))
		x.Set(i, 1, math.Sin(th))
		for j := 0; j < d; j++ {
			x.Set(i, j, x.At(i, j)+0.02*rng.NormFloat64())
		}
	}
	nb, err := knngraph.Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	require.NoError(t, err)
	return x, theta, g
}

// denseModel rebuilds Ã, A, D and P from the squared distances with dense
// matrices only, independently of the sparse code.
type denseModel struct {
	a *mat.Dense // A
	d []float64  // D
	p *mat.Dense // P
}

func newDenseModel(g *knngraph.Graph, nu int, h Hyperparameters) denseModel {
	n := g.Dist2.Nodes()
	at := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		cols, d2 := g.Dist2.Row(i)
		for k, j := range cols {
			at.Set(i, int(j), math.Exp(-d2[k]/(4*h.Alpha*h.Alpha)))
		}
		at.Set(i, i, 1)
	}
	dt := make([]float64, n)
	for i := 0; i < n; i++ {
		dt[i] = mat.Sum(at.RowView(i))
	}
	a := mat.NewDense(n, n, nil)
	a.Apply(func(i, j int, v float64) float64 { return v / (dt[i] * dt[j]) }, at)
	d := make([]float64, n)
	for i := range d {
		d[i] = mat.Sum(a.RowView(i))
	}
	c := 2 * float64(nu) / (h.Kappa * h.Kappa)
	// B = cI + Δ_rw = (1+c)I − D⁻¹A
	b := mat.NewDense(n, n, nil)
	b.Apply(func(i, j int, v float64) float64 {
		out := -v / d[i]
		if i == j {
			out += 1 + c
		}
		return out
	}, a)
	pw := mat.NewDense(n, n, nil)
	pw.Pow(b, nu)
	p := mat.NewDense(n, n, nil)
	p.Apply(func(i, j int, v float64) float64 { return d[i] * v / h.Amplitude }, pw)
	return denseModel{a: a, d: d, p: p}
}

// eigenKernel is K = s Σ_l Φ(λ_l) f_l f_lᵀ over all eigenpairs of Δ_rw,
// from a dense symmetric eigendecomposition of L_sym.
func (dm denseModel) eigenKernel(nu int, h Hyperparameters) (*mat.SymDense, []float64, *mat.Dense) {
	n := len(dm.d)
	lsym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := -dm.a.At(i, j) / math.Sqrt(dm.d[i]*dm.d[j])
			if i == j {
				v++
			}
			lsym.SetSym(i, j, v)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(lsym, true) {
		panic("eigen")
	}
	lam := es.Values(nil)
	var u mat.Dense
	es.VectorsTo(&u)
	f := mat.NewDense(n, n, nil)
	f.Apply(func(i, j int, v float64) float64 { return v / math.Sqrt(dm.d[i]) }, &u)
	c := 2 * float64(nu) / (h.Kappa * h.Kappa)
	k := mat.NewSymDense(n, nil)
	for l := 0; l < n; l++ {
		phi := h.Amplitude * spectralDensity(lam[l], c, nu)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				k.SetSym(i, j, k.At(i, j)+phi*f.At(i, l)*f.At(j, l))
			}
		}
	}
	return k, lam, f
}

// logLikelihood is log N(y; 0, (P⁻¹)_nn + σ_ε² I) from dense Cholesky factors.
func (dm denseModel) logLikelihood(labelled []int, y []float64, noise float64) float64 {
	n := len(dm.d)
	var pc mat.Cholesky
	if !pc.Factorize(symOf(dm.p)) {
		panic("P not SPD")
	}
	var kinv mat.SymDense
	if err := pc.InverseTo(&kinv); err != nil {
		panic(err)
	}
	m := len(labelled)
	c := mat.NewSymDense(m, nil)
	for a, i := range labelled {
		for b, j := range labelled {
			if b >= a {
				c.SetSym(a, b, kinv.At(i, j))
			}
		}
		c.SetSym(a, a, c.At(a, a)+noise)
	}
	_ = n
	var cc mat.Cholesky
	if !cc.Factorize(c) {
		panic("C not SPD")
	}
	a := mat.NewVecDense(m, nil)
	yv := mat.NewVecDense(m, y)
	if err := cc.SolveVecTo(a, yv); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(a, yv) - 0.5*cc.LogDet() - 0.5*float64(m)*math.Log(2*math.Pi)
}

func symOf(a *mat.Dense) *mat.SymDense {
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, 0.5*(a.At(i, j)+a.At(j, i)))
		}
	}
	return s
}

const (
	// precisionTol: P·K = I with K from a dense eigendecomposition of a
	// graph whose condition number is below 1e6; eigenvector rounding of
	// 1e-15 relative is amplified by at most that.
	precisionTol = 1e-8
	// sparseTol: the sparse and dense constructions of P sum the same few
	// dozen terms in different orders.
	sparseTol = 1e-10
)

func TestPrecisionMatchesDenseAndEigenForm(t *testing.T) {
	for _, nu := range []int{1, 2, 3} {
		_, _, g := noisyCircle(t, 1, 120, 3, 6)
		h := Hyperparameters{Alpha: 0.05, Kappa: 0.8, Amplitude: 1.7, Noise: 0.01}
		w, err := g.Weights(h.Alpha)
		require.NoError(t, err)
		p, err := NewPrecision(w, nu, h.Kappa, 1/h.Amplitude)
		require.NoError(t, err)
		dm := newDenseModel(g, nu, h)
		pd := p.Dense()
		n := p.Dim()
		scale := mat.Norm(dm.p, math.Inf(1))
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				require.InDelta(t, dm.p.At(i, j), pd.At(i, j), sparseTol*scale, "ν=%d P[%d,%d]", nu, i, j)
			}
		}
		diag := p.Diagonal()
		if nu <= 2 {
			for i := 0; i < n; i++ {
				require.InDelta(t, pd.At(i, i), diag[i], sparseTol*scale, "ν=%d diag %d", nu, i)
			}
		}
		k, _, _ := dm.eigenKernel(nu, h)
		var pk mat.Dense
		pk.Mul(pd, k)
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

// gradTol: the analytic gradient with exact traces (unit-vector probes, CG to
// 1e-13) against central differences with step 1e-4 in log space, whose
// truncation error is about 1e-8 of the curvature.
const gradTol = 1e-4

func TestGradientAgainstFiniteDifferences(t *testing.T) {
	ctx := context.Background()
	for _, nu := range []int{1, 2, 3} {
		_, theta, g := noisyCircle(t, 2, 80, 3, 5)
		n := g.Dist2.Nodes()
		var labelled []int
		var y []float64
		for i := 0; i < n; i += 3 {
			labelled = append(labelled, i)
			y = append(y, math.Sin(theta[i])+0.3*math.Cos(2*theta[i]))
		}
		pr := &gmrf{geo: g, nu: nu, labelled: labelled, y: y, tol: 1e-13}
		h := Hyperparameters{Alpha: 0.06, Kappa: 1.5, Amplitude: 0.02, Noise: 0.05}
		probes := exactProbes(n)
		res, err := pr.evaluate(ctx, h, probes)
		require.NoError(t, err)
		ll := func(hh Hyperparameters) float64 {
			return newDenseModel(g, nu, hh).logLikelihood(labelled, y, hh.Noise)
		}
		const step = 1e-4
		for p := 0; p < 4; p++ {
			at := func(s float64) float64 {
				hh := h
				switch p {
				case 0:
					hh.Alpha *= math.Exp(s)
				case 1:
					hh.Kappa *= math.Exp(s)
				case 2:
					hh.Amplitude *= math.Exp(s)
				case 3:
					hh.Noise *= math.Exp(s)
				}
				return ll(hh)
			}
			fd := (at(step) - at(-step)) / (2 * step)
			assert.InEpsilon(t, fd, res.Grad[p], gradTol, "ν=%d parameter %d: fd %v analytic %v", nu, p, fd, res.Grad[p])
		}
		// The posterior mean is K_{·n}(K_nn + σ²I)⁻¹y from the dense kernel.
		dm := newDenseModel(g, nu, h)
		k, _, _ := dm.eigenKernel(nu, h)
		m := len(labelled)
		c := mat.NewDense(m, m, nil)
		for a, i := range labelled {
			for b, j := range labelled {
				c.Set(a, b, k.At(i, j))
			}
			c.Set(a, a, c.At(a, a)+h.Noise)
		}
		alpha := mat.NewVecDense(m, nil)
		require.NoError(t, alpha.SolveVec(c, mat.NewVecDense(m, y)))
		for i := 0; i < n; i++ {
			var want float64
			for a, j := range labelled {
				want += k.At(i, j) * alpha.AtVec(a)
			}
			require.InDelta(t, want, res.Mean[i], 1e-8, "mean at node %d", i)
		}
	}
}

// exactProbes returns √N·e_i for every i: the Hutchinson mean over them is
// exactly the trace.
func exactProbes(n int) [][]float64 {
	probes := make([][]float64, n)
	for i := range probes {
		probes[i] = make([]float64, n)
		probes[i][i] = math.Sqrt(float64(n))
	}
	return probes
}
