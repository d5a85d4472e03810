package krr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// DefaultM is the number of Nyström centres when M is 0 (capped at n).
const DefaultM = 1000

// DefaultJitter is ε in T = chol(K_MM + εM I) when Jitter is 0.
const DefaultJitter = 1e-12

// maxJitter caps the tenfold increases of ε when K_MM + εMI does not factor.
const maxJitter = 1e-4

// Centres holds what Nystrom and Falkon share: the centres and how to
// choose them. The zero value draws min(n, 1000) centres uniformly.
type Centres struct {
	// M is the number of centres, 1 ≤ M ≤ n; 0 means min(n, DefaultM), or
	// the number of indices when Sampler is Fixed.
	M int
	// Sampler chooses them; nil means Uniform{}.
	Sampler Sampler
	// Seed seeds the sampler's random choices.
	Seed uint64
}

func (c Centres) resolve(n int) (int, Sampler, error) {
	s := c.Sampler
	if s == nil {
		s = Uniform{}
	}
	m := c.M
	if m == 0 {
		if f, ok := s.(Fixed); ok {
			m = len(f)
		} else {
			m = min(n, DefaultM)
		}
	}
	if m < 1 || m > n {
		return 0, nil, fmt.Errorf("krr: M=%d is invalid: it must be in [1, n=%d] (0 means min(n, %d))", m, n, DefaultM)
	}
	return m, s, nil
}

// setup is the common part of a Nyström fit: centres, the blocked kernel
// matrix K_nM and T = chol(K_MM + εMI).
type setup struct {
	n, c, m int
	idx     []int
	centres *mat.Dense
	km      *kernel.Matrix
	t       *mat.TriDense
	jitter  float64
}

func prepare(ctx context.Context, k kernel.Kernel, lambda float64, cs Centres, jitter float64, prec kernel.Precision, blockRows int, x, y *mat.Dense) (*setup, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := checkLambda(lambda); err != nil {
		return nil, err
	}
	if jitter < 0 || math.IsNaN(jitter) || jitter > maxJitter {
		return nil, fmt.Errorf("krr: Jitter=%v is invalid: it must be in [0, %g] (0 means %g)", jitter, maxJitter, DefaultJitter)
	}
	if jitter == 0 {
		jitter = DefaultJitter
	}
	n, _, c, err := checkData(x, y)
	if err != nil {
		return nil, err
	}
	m, sampler, err := cs.resolve(n)
	if err != nil {
		return nil, err
	}
	idx, err := sampler.Centres(ctx, k, x, m, lambda, newRand(cs.Seed))
	if err != nil {
		return nil, err
	}
	centres := rowsOf(x, idx)
	km, err := kernel.NewMatrix(k, x, centres, prec, blockRows)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	kmmM, err := kernel.NewMatrix(k, centres, centres, kernel.Float64, 0)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	kmm := mat.NewDense(m, m, nil)
	kmmM.RowsTo(kmm, 0, m)
	var t *mat.TriDense
	for {
		sym := mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				sym.SetSym(i, j, (kmm.At(i, j)+kmm.At(j, i))/2)
			}
			sym.SetSym(i, i, sym.At(i, i)+jitter*float64(m))
		}
		var ok bool
		if t, ok = cholUpper(sym); ok {
			break
		}
		if jitter*10 > maxJitter {
			return nil, fmt.Errorf("krr: K_MM + εMI is not numerically positive definite even with ε=%g: the kernel matrix of the centres is singular (duplicate points?)", jitter)
		}
		jitter *= 10
	}
	return &setup{n: n, c: c, m: m, idx: idx, centres: centres, km: km, t: t, jitter: jitter}, nil
}

// Nystrom is Nyström kernel ridge regression solved directly, through the
// well-conditioned system of FALKON's preconditioner (see the package
// documentation). Memory O(nd + M²); time O(nMd + nM² + M³).
type Nystrom struct {
	// Kernel is required.
	Kernel kernel.Kernel
	// Lambda is the ridge parameter λ > 0.
	Lambda float64
	// Centres chooses the M centres; the zero value draws min(n, 1000)
	// uniformly with seed 0.
	Centres Centres
	// Jitter is ε in K_MM + εMI; 0 means DefaultJitter, raised tenfold (up
	// to 1e-4) while the factorisation fails.
	Jitter float64
	// Precision of the kernel inner products; the zero value is Float64.
	Precision kernel.Precision
	// BlockRows is the number of rows of K_nM evaluated at once; 0 means
	// kernel.DefaultBlockRows.
	BlockRows int

	fit    expansion
	idx    []int
	jitter float64
}

// Validate reports a hyperparameter outside its valid range (the data
// dependent ones, such as M ≤ n, are checked by Fit).
func (s *Nystrom) Validate() error {
	if err := checkKernel(s.Kernel); err != nil {
		return err
	}
	if err := checkLambda(s.Lambda); err != nil {
		return err
	}
	if s.Centres.M < 0 {
		return fmt.Errorf("krr: M=%d is invalid: it must be ≥ 1 (0 means min(n, %d))", s.Centres.M, DefaultM)
	}
	return nil
}

// Fit computes α = T^{−1} S^{−1} T^{−T} K_nMᵀY/n.
func (s *Nystrom) Fit(ctx context.Context, x, y *mat.Dense) error {
	if err := s.Validate(); err != nil {
		return err
	}
	st, err := prepare(ctx, s.Kernel, s.Lambda, s.Centres, s.Jitter, s.Precision, s.BlockRows, x, y)
	if err != nil {
		return err
	}
	g, kty, err := st.km.Normal(ctx, y, nil)
	if err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	m, nf := st.m, float64(st.n)
	// S = T^{-T} G T^{-1} / n + λI
	w := mat.DenseCopyOf(g)
	triSolve(st.t, true, w) // W = T^{-T} G
	// W T^{-1} = (T^{-T} Wᵀ)ᵀ; only its symmetric part is used below
	sd := mat.DenseCopyOf(w.T())
	triSolve(st.t, true, sd)
	sym := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			sym.SetSym(i, j, (sd.At(i, j)+sd.At(j, i))/(2*nf))
		}
		sym.SetSym(i, i, sym.At(i, i)+s.Lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(sym) {
		return fmt.Errorf("krr: Nystrom: the preconditioned system is not numerically positive definite (λ=%v too small?)", s.Lambda)
	}
	rhs := mat.DenseCopyOf(kty)
	rhs.Scale(1/nf, rhs)
	triSolve(st.t, true, rhs)
	alpha := mat.NewDense(m, st.c, nil)
	if err := ch.SolveTo(alpha, rhs); err != nil {
		return fmt.Errorf("krr: Nystrom: %w", err)
	}
	triSolve(st.t, false, alpha)
	s.fit = expansion{k: s.Kernel, centres: st.centres, alpha: alpha, prec: s.Precision, blockRows: s.BlockRows}
	s.idx, s.jitter = st.idx, st.jitter
	return nil
}

// Predict returns f(x) for each row of x.
func (s *Nystrom) Predict(x *mat.Dense) (*mat.Dense, error) { return s.fit.predict(x) }

// CentreIndices returns the rows of the training X used as centres.
func (s *Nystrom) CentreIndices() []int { return s.idx }

// Coefficients returns α (M×c), or nil before Fit.
func (s *Nystrom) Coefficients() *mat.Dense { return s.fit.alpha }

// JitterUsed returns the ε of the last fit.
func (s *Nystrom) JitterUsed() float64 { return s.jitter }
