package imgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/spectral"
)

// DefaultExactLabels is the zero LikelihoodSettings' ExactLabels: up to
// this many labelled nodes the likelihood is exact.
const DefaultExactLabels = 128

// LikelihoodSettings control Regressor.LogMarginalLikelihood. The zero value
// is usable.
type LikelihoodSettings struct {
	// Probes, Steps, Seed and Progress of the stochastic Lanczos quadrature
	// (0 means spectral.DefaultProbes probes and min(N,
	// spectral.DefaultSteps) Lanczos steps per probe; probe i is
	// Rademacher from rand.NewPCG(Seed, i)). With the exact route Progress
	// counts the labelled nodes instead of the probes.
	spectral.TraceSettings
	// ExactLabels: when the number n of labelled nodes is at most
	// ExactLabels, log det Q − log det P is computed exactly by the
	// determinant lemma (n·ν CG solves with M and an n×n Cholesky factor);
	// above it, by stochastic Lanczos quadrature. 0 means
	// DefaultExactLabels; a negative
	// value means always the quadrature. (The exact route's cost grows with
	// the labels and the quadrature's is fixed, with a standard error of a
	// few nats: up to about 128 labels the exact value is a small part of a
	// fit; BENCHMARKS.md, IMGP log marginal likelihood.)
	ExactLabels int
}

func (s LikelihoodSettings) resolve(n int) (LikelihoodSettings, error) {
	ts, err := s.TraceSettings.Resolved(n)
	if err != nil {
		return s, fmt.Errorf("imgp: likelihood settings: %w", err)
	}
	s.TraceSettings = ts
	if s.ExactLabels == 0 {
		s.ExactLabels = DefaultExactLabels
	}
	return s, nil
}

// LogLikelihood is the value of the marginal likelihood of the labelled
// targets with its parts. Estimate holds log p(y) and its standard error
// over the quadrature probes (0 when the determinant term is exact).
type LogLikelihood struct {
	spectral.Estimate
	// Quadratic is yᵀy/σ_ε² − (ỹ/σ_ε²)ᵀQ⁻¹(ỹ/σ_ε²) = yᵀ(y − m_n)/σ_ε².
	Quadratic float64
	// LogDetRatio is log det Q − log det P (an estimate unless Exact).
	LogDetRatio float64
	// Exact reports that LogDetRatio came from the determinant lemma.
	Exact bool
}

// likelihoodTol is the relative CG residual of the solves of the likelihood
// value: the quadratic term yᵀ(y − m_n)/σ_ε² is a difference of nearly equal
// numbers when σ_ε² is small, so it needs a tighter solve than training.
const likelihoodTol = 1e-10

// LogMarginalLikelihood returns log p(y) of the labelled targets under the
// full-rank GMRF model at the fitted hyperparameters (ALGORITHMS.md §3):
//
//	log p(y) = −½[yᵀy/σ_ε² − (ỹ/σ_ε²)ᵀQ⁻¹(ỹ/σ_ε²) + log det Q − log det P + n log σ_ε² + n log 2π]
//
// with Q = P + E/σ_ε². The quadratic term is one CG solve with Q. The
// determinant term log det Q − log det P is
//
//   - for n ≤ ExactLabels, exactly log det(I_n + (P⁻¹)_nn/σ_ε²) by the
//     matrix determinant lemma, the n columns of P⁻¹ = s(M⁻¹D)^{ν−1}M⁻¹ at
//     the labelled nodes by ν CG solves each with the well-conditioned
//     M = (1+c)D − A; cost n·ν solves plus O(n³);
//   - otherwise by stochastic Lanczos quadrature of the two log-determinants
//     in forms whose spectra are bounded away from 0 and ∞:
//     log det Q = Σ_i log q_i + log det(Q̂), Q̂ = diag(q)^{−1/2} Q diag(q)^{−1/2}
//     with q the (Jacobi) diagonal of Q, and
//     log det P = −N log s + Σ_i log D_i + ν log det((1+c)I − D^{−1/2}AD^{−1/2})
//     (from log det M = Σ log D_i + log det((1+c)I − D^{−1/2}AD^{−1/2}),
//     whose spectrum lies in [c, 2 + c]). Each probe z gives
//     zᵀlog(Q̂)z − ν zᵀlog((1+c)I − D^{−1/2}AD^{−1/2})z: sharing the probe
//     between the two logarithms cancels part of their variance, and the L
//     prediction eigenpairs of the fit deflate the second: Σ_l log(c + λ_l)
//     exactly, the quadrature on the probe projected off their span. Cost per
//     probe: Steps products with Q̂ (ν sparse products each) and with the
//     normalised operator (one), plus O(N·Steps²) re-orthogonalisation —
//     linear in N.
//
// The exact route has no probe error but needs one solve per labelled node;
// the quadrature costs Probes·Steps products whatever n is, and its error is
// reported as the standard error. Under ProcedureRefit the hyperparameters are
// the refined ones, still evaluated under the full-rank GMRF model.
func (r *Regressor) LogMarginalLikelihood(ctx context.Context, s LikelihoodSettings) (LogLikelihood, error) {
	if r.fit == nil {
		return LogLikelihood{}, errNotFitted
	}
	if ctx == nil {
		ctx = context.Background()
	}
	f := r.fit
	if f.geo == nil {
		return LogLikelihood{}, errors.New("imgp: LogMarginalLikelihood needs the KNN graph, which a model read from a file does not keep: refit to evaluate it")
	}
	_, _, _, _, _, _, tol := r.defaults()
	pr := &gmrf{geo: f.geo, nu: f.nu, labelled: f.labelled, y: f.y, tol: tol}
	return pr.logLikelihood(ctx, f.h, s, rademacherProbe(s.Seed), f.eig)
}

// rademacherProbe fills z with ±1 entries from the stream rand.NewPCG(seed, i).
func rademacherProbe(seed uint64) func(i int, z []float64) {
	return func(i int, z []float64) {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		for k := range z {
			if rng.Uint64()&1 == 0 {
				z[k] = 1
			} else {
				z[k] = -1
			}
		}
	}
}

// logLikelihood evaluates log p(y) at h; probe fills the quadrature probes;
// defl, if not nil, holds exact eigenpairs of Δ_rw at h.Alpha that deflate
// the quadrature of log det((1+c)I − D^{−1/2}AD^{−1/2}).
func (pr *gmrf) logLikelihood(ctx context.Context, h Hyperparameters, s LikelihoodSettings, probe func(i int, z []float64), defl *Eigenpairs) (LogLikelihood, error) {
	if err := h.validate(""); err != nil {
		return LogLikelihood{}, err
	}
	st, err := pr.state(h, false)
	if err != nil {
		return LogLikelihood{}, err
	}
	big := st.p.Dim()
	if s, err = s.resolve(big); err != nil {
		return LogLikelihood{}, err
	}
	n := len(pr.labelled)
	b := make([]float64, big)
	for k, i := range pr.labelled {
		b[i] = pr.y[k] / h.Noise
	}
	tol := math.Min(pr.tol, likelihoodTol)
	m, _, err := st.solveQ(ctx, b, tol)
	if err != nil {
		return LogLikelihood{}, fmt.Errorf("imgp: log marginal likelihood: %w", err)
	}
	var out LogLikelihood
	for k, i := range pr.labelled {
		out.Quadratic += pr.y[k] * (pr.y[k] - m[i]) / h.Noise
	}
	var se float64
	if n <= s.ExactLabels {
		out.LogDetRatio, err = st.exactLogDetRatio(ctx, pr.labelled, h, tol, s.Progress)
		out.Exact = true
	} else {
		out.LogDetRatio, se, err = st.slqLogDetRatio(ctx, s, probe, defl)
		out.Probes = s.Probes
	}
	if err != nil {
		return LogLikelihood{}, fmt.Errorf("imgp: log marginal likelihood: %w", err)
	}
	nl := float64(n)
	out.Value = -0.5 * (out.Quadratic + out.LogDetRatio + nl*math.Log(h.Noise) + nl*math.Log(2*math.Pi))
	out.StdErr = 0.5 * se
	if math.IsNaN(out.Value) || math.IsInf(out.Value, 0) {
		return out, fmt.Errorf("imgp: log marginal likelihood is %v at %v", out.Value, h)
	}
	return out, nil
}

// exactLogDetRatio is log det(I_n + (P⁻¹)_nn/σ_ε²) = log det Q − log det P.
func (st *state) exactLogDetRatio(ctx context.Context, labelled []int, h Hyperparameters, tol float64, progress func(done, total int)) (float64, error) {
	n := len(labelled)
	p := st.p
	w := mat.NewSymDense(n, nil)
	errs := make([]error, n)
	var mu sync.Mutex
	done := 0
	parallel.For(n, 1, func(lo, hi int) {
		e := make([]float64, p.Dim())
		for a := lo; a < hi; a++ {
			if errs[a] = ctx.Err(); errs[a] != nil {
				continue
			}
			clear(e)
			e[labelled[a]] = 1
			x, _, err := st.solveM(ctx, e, tol)
			for k := 1; k < p.Nu && err == nil; k++ {
				for i := range x {
					x[i] *= p.D[i]
				}
				x, _, err = st.solveM(ctx, x, tol)
			}
			if errs[a] = err; err != nil {
				continue
			}
			// Column a of (P⁻¹)_nn/σ_ε², symmetrised by halves.
			scale := 0.5 / (p.Scale * h.Noise)
			mu.Lock()
			for c, j := range labelled {
				if c == a {
					w.SetSym(a, a, w.At(a, a)+2*scale*x[j])
				} else {
					w.SetSym(a, c, w.At(a, c)+scale*x[j])
				}
			}
			done++
			if progress != nil {
				progress(done, n)
			}
			mu.Unlock()
		}
	})
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	for a := 0; a < n; a++ {
		w.SetSym(a, a, w.At(a, a)+1)
	}
	var ch mat.Cholesky
	if !ch.Factorize(w) {
		return 0, errors.New("I + (P⁻¹)_nn/σ_ε² is not positive definite (CG solves inaccurate?)")
	}
	return ch.LogDet(), nil
}

// scaledOp is diag(l)·X·diag(l) for a symmetric X.
type scaledOp struct {
	x interface {
		Dim() int
		MulVecTo(dst, x []float64)
	}
	l []float64
}

func (o scaledOp) Dim() int          { return o.x.Dim() }
func (o scaledOp) IsSymmetric() bool { return true }
func (o scaledOp) MulVecTo(dst, x []float64) {
	t := make([]float64, len(x))
	for i, v := range x {
		t[i] = o.l[i] * v
	}
	o.x.MulVecTo(dst, t)
	for i := range dst {
		dst[i] *= o.l[i]
	}
}

// normalisedM is (1+c)I − D^{−1/2}AD^{−1/2}, spectrum in [c, 2 + c].
type normalisedM struct {
	a   *graph.CSR
	scl graph.Scaling
}

func newNormalisedM(p *Precision) normalisedM {
	n := p.Dim()
	diag := make([]float64, n)
	left := make([]float64, n)
	right := make([]float64, n)
	for i, d := range p.D {
		diag[i] = 1 + p.Shift
		right[i] = 1 / math.Sqrt(d)
		left[i] = -right[i]
	}
	return normalisedM{a: p.A, scl: graph.Scaling{Diag: diag, Left: left, Right: right}}
}

func (o normalisedM) Dim() int                  { return o.a.Nodes() }
func (o normalisedM) IsSymmetric() bool         { return true }
func (o normalisedM) MulVecTo(dst, x []float64) { o.a.ScaledMulVecTo(dst, x, o.scl) }

// slqLogDetRatio estimates log det Q − log det P and its standard error.
//
// With eigenpairs (λ_l, f_l) of Δ_rw, u_l = D^{1/2}f_l are orthonormal
// eigenvectors of (1+c)I − D^{−1/2}AD^{−1/2} with eigenvalues c + λ_l, so
//
//	tr log((1+c)I − D^{−1/2}AD^{−1/2}) = Σ_l log(c + λ_l) + E[z_⊥ᵀ log(·) z_⊥],  z_⊥ = (I − UUᵀ)z:
//
// the smallest eigenvalues, whose log carries most of the probe variance
// (their eigenvectors are smooth and dense), are summed exactly and the
// quadrature sees only the rest of the spectrum.
func (st *state) slqLogDetRatio(ctx context.Context, s LikelihoodSettings, probe func(i int, z []float64), defl *Eigenpairs) (float64, float64, error) {
	p := st.p
	big := p.Dim()
	l, offset := st.slqScaling()
	u, offset, err := deflationBasis(p, defl, offset)
	if err != nil {
		return 0, 0, err
	}
	qhat := scaledOp{x: posteriorOp{st}, l: l}
	nm := newNormalisedM(p)
	vals := make([]float64, s.Probes)
	errs := make([]error, s.Probes)
	var mu sync.Mutex
	done := 0
	parallel.For(s.Probes, 1, func(lo, hi int) {
		z := make([]float64, big)
		zp := z
		var coef *mat.VecDense
		if u != nil {
			zp = make([]float64, big)
			_, nl := u.Dims()
			coef = mat.NewVecDense(nl, nil)
		}
		for i := lo; i < hi; i++ {
			if errs[i] = ctx.Err(); errs[i] != nil {
				continue
			}
			probe(i, z)
			vq, err := spectral.QuadraticForm(qhat, spectral.Log(), z, s.Steps)
			if err != nil {
				errs[i] = fmt.Errorf("log det Q: %w", err)
				continue
			}
			if u != nil {
				// z_⊥ = z − U(Uᵀz)
				coef.MulVec(u.T(), mat.NewVecDense(big, z))
				zv := mat.NewVecDense(big, zp)
				zv.MulVec(u, coef)
				floats.SubTo(zp, z, zp)
			}
			vm, err := spectral.QuadraticForm(nm, spectral.Log(), zp, s.Steps)
			if err != nil {
				errs[i] = fmt.Errorf("log det M: %w", err)
				continue
			}
			vals[i] = vq - float64(p.Nu)*vm
			if s.Progress != nil {
				mu.Lock()
				done++
				s.Progress(done, s.Probes)
				mu.Unlock()
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	mean, se := meanAndError(vals)
	return offset + mean, se, nil
}

// slqScaling returns the Jacobi scaling l = q^{−1/2} of the posterior
// precision's diagonal q, and the part of the log-determinant ratio it
// and the scales of P account for: Σ log q_i − (−N log s + Σ log D_i).
func (st *state) slqScaling() ([]float64, float64) {
	p := st.p
	q := p.Diagonal()
	for i, v := range st.sel {
		q[i] += v
	}
	l := make([]float64, len(q))
	var offset float64
	for i, v := range q {
		l[i] = 1 / math.Sqrt(v)
		offset += math.Log(v) - math.Log(p.D[i])
	}
	offset -= float64(len(q)) * math.Log(p.Scale) // −N log s = N log Scale
	return l, offset
}

// deflationBasis returns U = D^{1/2}F of the deflation eigenpairs (nil
// without them) and the offset less ν Σ_l log(c + λ_l), their exact part.
func deflationBasis(p *Precision, defl *Eigenpairs, offset float64) (*mat.Dense, float64, error) {
	if defl == nil || len(defl.Values) == 0 {
		return nil, offset, nil
	}
	big := p.Dim()
	if r, _ := defl.Vectors.Dims(); r != big {
		return nil, offset, fmt.Errorf("deflation eigenvectors have %d rows for %d nodes", r, big)
	}
	u := mat.DenseCopyOf(defl.Vectors)
	for i := 0; i < big; i++ {
		row := u.RawRowView(i)
		floats.Scale(math.Sqrt(p.D[i]), row)
	}
	for _, lam := range defl.Values {
		offset -= float64(p.Nu) * math.Log(p.Shift+lam)
	}
	return u, offset, nil
}

// meanAndError returns the mean of vals and its standard error (0 for one
// value).
func meanAndError(vals []float64) (mean, se float64) {
	mean = floats.Sum(vals) / float64(len(vals))
	if len(vals) > 1 {
		var ss float64
		for _, v := range vals {
			ss += (v - mean) * (v - mean)
		}
		se = math.Sqrt(ss / float64(len(vals)-1) / float64(len(vals)))
	}
	return mean, se
}
