package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
)

// DefaultProbes and DefaultSteps are the zero TraceSettings' probe vectors
// and Lanczos steps per probe.
const (
	DefaultProbes = 30
	DefaultSteps  = 50
)

// TraceSettings control Hutchinson, TraceFunc and LogDet. The zero value is
// usable.
type TraceSettings struct {
	// Probes is the number of Rademacher probe vectors; 0 means
	// DefaultProbes.
	Probes int
	// Steps is the number of Lanczos steps per probe of the stochastic
	// Lanczos quadrature (TraceFunc, LogDet); 0 means min(n,
	// DefaultSteps).
	Steps int
	// Seed seeds the probes: probe i uses the stream rand.NewPCG(Seed, i),
	// so results do not depend on the number of cores.
	Seed uint64
	// Progress, when set, is called after each probe with the number done
	// and the total (from several goroutines, one call at a time).
	Progress func(done, total int)
}

// Estimate is a stochastic estimate: the mean over probes and its standard
// error (the sample standard deviation over √Probes).
type Estimate struct {
	Value  float64
	StdErr float64
	Probes int
}

// Resolved returns the settings with the documented defaults filled in for
// an operator of dimension n (Steps capped at n), or an error naming the
// invalid field.
func (s TraceSettings) Resolved(n int) (TraceSettings, error) { return s.resolve(n) }

func (s TraceSettings) resolve(n int) (TraceSettings, error) {
	if s.Probes < 0 {
		return s, fmt.Errorf("spectral: Probes = %d is invalid: it must be ≥ 0 (0 means %d)", s.Probes, DefaultProbes)
	}
	if s.Steps < 0 {
		return s, fmt.Errorf("spectral: Steps = %d is invalid: it must be ≥ 0 (0 means min(n, %d))", s.Steps, DefaultSteps)
	}
	if s.Probes == 0 {
		s.Probes = DefaultProbes
	}
	if s.Steps == 0 {
		s.Steps = DefaultSteps
	}
	s.Steps = min(s.Steps, n)
	return s, nil
}

// rademacher fills z with independent ±1 entries from probe i's stream.
func rademacher(z []float64, seed uint64, i int) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	for k := 0; k < len(z); k += 64 {
		bits := rng.Uint64()
		for t := 0; t < 64 && k+t < len(z); t++ {
			if bits&(1<<t) != 0 {
				z[k+t] = 1
			} else {
				z[k+t] = -1
			}
		}
	}
}

// probes runs one function per probe in parallel over the cores and returns
// the per-probe values.
func probes(ctx context.Context, s TraceSettings, n int, fn func(z []float64) (float64, error)) ([]float64, error) {
	vals := make([]float64, s.Probes)
	errs := make([]error, s.Probes)
	done := make(chan struct{}, s.Probes)
	progress := make(chan struct{})
	if s.Progress != nil {
		go func() {
			count := 0
			for range done {
				count++
				s.Progress(count, s.Probes)
			}
			close(progress)
		}()
	}
	parallel.For(s.Probes, 1, func(lo, hi int) {
		z := make([]float64, n)
		for i := lo; i < hi; i++ {
			if err := ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			rademacher(z, s.Seed, i)
			vals[i], errs[i] = fn(z)
			if s.Progress != nil {
				done <- struct{}{}
			}
		}
	})
	close(done)
	if s.Progress != nil {
		<-progress
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return vals, nil
}

func estimate(vals []float64) Estimate {
	mean := floats.Sum(vals) / float64(len(vals))
	var ss float64
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	e := Estimate{Value: mean, Probes: len(vals)}
	if len(vals) > 1 {
		e.StdErr = math.Sqrt(ss / float64(len(vals)-1) / float64(len(vals)))
	}
	return e
}

// Hutchinson estimates tr(A) = E[zᵀAz] with Rademacher probes z
// (Hutchinson 1990): unbiased, with variance 2Σ_{i≠j}A_ij² per probe. The
// operator need not be symmetric. Probes run in parallel over the cores.
func Hutchinson(ctx context.Context, a linop.Operator, s TraceSettings) (Estimate, error) {
	if a == nil {
		return Estimate{}, errors.New("spectral: Hutchinson: operator is nil")
	}
	n := a.Dim()
	s, err := s.resolve(n)
	if err != nil {
		return Estimate{}, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	vals, err := probes(ctx, s, n, func(z []float64) (float64, error) {
		az := make([]float64, n)
		a.MulVecTo(az, z)
		return floats.Dot(z, az), nil
	})
	if err != nil {
		return Estimate{}, fmt.Errorf("spectral: Hutchinson: %w", err)
	}
	return estimate(vals), nil
}

// TraceFunc estimates tr f(A) for a symmetric operator by stochastic Lanczos
// quadrature (Ubaru, Chen & Saad, SIAM J. Matrix Anal. Appl. 38(4), 2017,
// Algorithm 1): for each Rademacher probe z, s Lanczos steps from
// v = z/‖z‖ give T = Y Θ Yᵀ, and
//
//	zᵀ f(A) z ≈ n Σ_k τ_k² f(θ_k),   τ_k = Y_{1k}
//
// (an s-point Gauss quadrature of the spectral measure of v; ‖z‖² = n). The
// estimate is the mean over probes. The Lanczos basis is re-orthogonalised
// in full (n×Steps numbers per running probe).
func TraceFunc(ctx context.Context, a linop.Operator, f Function, s TraceSettings) (Estimate, error) {
	if a == nil {
		return Estimate{}, errors.New("spectral: TraceFunc: operator is nil")
	}
	if f.F == nil {
		return Estimate{}, errors.New("spectral: TraceFunc: function is nil")
	}
	if !linop.IsSymmetric(a) {
		return Estimate{}, fmt.Errorf("spectral: TraceFunc needs a symmetric operator: %w", ErrNotSymmetric)
	}
	n := a.Dim()
	s, err := s.resolve(n)
	if err != nil {
		return Estimate{}, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	vals, err := probes(ctx, s, n, func(z []float64) (float64, error) {
		return quadraticForm(a, f, z, s.Steps)
	})
	if err != nil {
		return Estimate{}, fmt.Errorf("spectral: TraceFunc: %w", err)
	}
	return estimate(vals), nil
}

// LogDet estimates log det A = tr log A of a symmetric positive definite
// operator by stochastic Lanczos quadrature (TraceFunc with log). A Ritz
// value ≤ 0 means A is not positive definite and is reported as an error
// wrapping ErrFunctionDomain.
func LogDet(ctx context.Context, a linop.Operator, s TraceSettings) (Estimate, error) {
	e, err := TraceFunc(ctx, a, Log(), s)
	if err != nil {
		return e, fmt.Errorf("spectral: LogDet (is the operator positive definite?): %w", err)
	}
	return e, nil
}

// QuadraticForm estimates zᵀf(A)z for a symmetric operator A and any
// non-zero vector z by Lanczos (Gauss) quadrature: s steps from v = z/‖z‖
// give T = Y Θ Yᵀ and
//
//	zᵀ f(A) z ≈ ‖z‖² Σ_k τ_k² f(θ_k),   τ_k = Y_{1k}
//
// (Golub & Meurant, "Matrices, Moments and Quadrature", 1994), exact for a
// polynomial f of degree < 2s and when the Krylov space becomes invariant.
// It is one probe of TraceFunc, for callers that choose their own probes
// (unit vectors, the same probe for several operators). Steps ≤ 0 means
// min(n, 50). Cost: s products with A and O(n·s²) re-orthogonalisation.
func QuadraticForm(a linop.Operator, f Function, z []float64, steps int) (float64, error) {
	if a == nil {
		return 0, errors.New("spectral: QuadraticForm: operator is nil")
	}
	if f.F == nil {
		return 0, errors.New("spectral: QuadraticForm: function is nil")
	}
	if !linop.IsSymmetric(a) {
		return 0, fmt.Errorf("spectral: QuadraticForm needs a symmetric operator: %w", ErrNotSymmetric)
	}
	if len(z) != a.Dim() {
		return 0, fmt.Errorf("spectral: QuadraticForm: vector length %d ≠ operator dimension %d", len(z), a.Dim())
	}
	if steps <= 0 {
		steps = 50
	}
	steps = min(steps, a.Dim())
	v, err := quadraticForm(a, f, z, steps)
	if err != nil {
		return 0, fmt.Errorf("spectral: QuadraticForm: %w", err)
	}
	return v, nil
}

// quadraticForm is zᵀf(A)z by steps Lanczos steps from z (zero for z = 0).
func quadraticForm(a linop.Operator, f Function, z []float64, steps int) (float64, error) {
	nz2 := floats.Dot(z, z)
	if nz2 == 0 {
		return 0, nil
	}
	kb := newKrylovBasis(a, steps)
	kb.start(z)
	for {
		invariant, full := kb.step()
		if invariant || full {
			break
		}
	}
	theta, y, err := kb.tridiagEig()
	if err != nil {
		return 0, err
	}
	var sum float64
	for k, t := range theta {
		v := f.F(t)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%s is %v at the Ritz value %v of the operator: %w", f.Name, v, t, ErrFunctionDomain)
		}
		tau := y[k] // first row of the eigenvector matrix
		sum += tau * tau * v
	}
	return nz2 * sum, nil
}
