package imgp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/gssl/gssl/gp"
)

// truncated is the exact marginal likelihood of the rank-L model used for
// prediction: y ~ N(0, F_n S F_nᵀ + σ_ε² I) with F_n the labelled rows of the
// eigenvectors and S = diag(s(c + λ_l)^{−ν}). With G = F_nᵀF_n and
// b = F_nᵀy (computed once), Woodbury and the determinant lemma give
//
//	yᵀC⁻¹y = (yᵀy − bᵀ(σ_ε²S⁻¹ + G)⁻¹b)/σ_ε²
//	log det C = n log σ_ε² + log det S + log det(S⁻¹ + G/σ_ε²)
//
// at O(L³) per evaluation, independent of N and n.
type truncated struct {
	lambda []float64
	nu     int
	g      *mat.SymDense
	b      *mat.VecDense
	yy     float64
	n      int
}

func newTruncated(eig *Eigenpairs, nu int, labelled []int, y []float64) *truncated {
	L := len(eig.Values)
	fn := mat.NewDense(len(labelled), L, nil)
	for a, i := range labelled {
		fn.SetRow(a, eig.Vectors.RawRowView(i))
	}
	t := &truncated{lambda: eig.Values, nu: nu, g: mat.NewSymDense(L, nil), b: mat.NewVecDense(L, nil), n: len(y)}
	t.g.SymOuterK(1, fn.T())
	t.b.MulVec(fn.T(), mat.NewVecDense(len(y), y))
	for _, v := range y {
		t.yy += v * v
	}
	return t
}

// logLikelihood at log κ, log s, log σ_ε² (u[0], u[1], u[2]).
func (t *truncated) logLikelihood(u []float64) float64 {
	kappa, s, noise := math.Exp(u[0]), math.Exp(u[1]), math.Exp(u[2])
	c := 2 * float64(t.nu) / (kappa * kappa)
	L := len(t.lambda)
	m := mat.NewSymDense(L, nil)
	var logDetS float64
	for q, lam := range t.lambda {
		sq := s * spectralDensity(lam, c, t.nu)
		logDetS += math.Log(sq)
		for r := q; r < L; r++ {
			v := t.g.At(q, r) / noise
			if r == q {
				v += 1 / sq
			}
			m.SetSym(q, r, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(m) {
		return math.Inf(-1)
	}
	z := mat.NewVecDense(L, nil)
	if err := ch.SolveVecTo(z, t.b); err != nil {
		return math.Inf(-1)
	}
	quad := (t.yy - mat.Dot(t.b, z)/noise) / noise
	logDet := float64(t.n)*math.Log(noise) + logDetS + ch.LogDet()
	return -0.5*quad - 0.5*logDet - 0.5*float64(t.n)*math.Log(2*math.Pi)
}

// refine maximises the truncated likelihood over κ, s and σ_ε² from h by
// L-BFGS with central-difference gradients, keeping σ_ε² ≥ minNoise and κ in
// [1e-3, 1e6]; it returns h unchanged if no better point is found.
func (t *truncated) refine(ctx context.Context, h Hyperparameters, minNoise float64) Hyperparameters {
	clamp := func(u []float64) []float64 {
		v := append([]float64(nil), u...)
		v[0] = math.Min(math.Max(v[0], math.Log(1e-3)), math.Log(1e6))
		v[2] = math.Max(v[2], math.Log(minNoise))
		return v
	}
	f := func(u []float64) float64 { return -t.logLikelihood(clamp(u)) }
	u0 := []float64{math.Log(h.Kappa), math.Log(h.Amplitude), math.Log(h.Noise)}
	start := f(u0)
	problem := optimize.Problem{
		Func: f,
		Grad: func(g, u []float64) {
			const step = 1e-5
			v := append([]float64(nil), u...)
			for p := range u {
				v[p] = u[p] + step
				fp := f(v)
				v[p] = u[p] - step
				fm := f(v)
				v[p] = u[p]
				g[p] = (fp - fm) / (2 * step)
			}
		},
	}
	settings := &optimize.Settings{MajorIterations: 500, GradientThreshold: 1e-6,
		Converger: &gp.ContextConverger{Context: ctx, Inner: &optimize.FunctionConverge{Absolute: 1e-10, Relative: 1e-12, Iterations: 20}}}
	res, err := optimize.Minimize(problem, u0, settings, &optimize.LBFGS{})
	if res == nil || (err != nil && res.F >= start) || !(res.F < start) {
		return h
	}
	u := clamp(res.X)
	return Hyperparameters{Alpha: h.Alpha, Kappa: math.Exp(u[0]), Amplitude: math.Exp(u[1]), Noise: math.Exp(u[2])}
}
