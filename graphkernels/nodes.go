package graphkernels

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// NodeKernel is a kernel on the nodes of one graph, a spectral transform
// K = r(L) of a Laplacian L = Σ λ_i u_i u_iᵀ (Smola & Kondor, COLT 2003):
// K = Σ r(λ_i) u_i u_iᵀ, positive semidefinite when r ≥ 0 on the spectrum.
type NodeKernel interface {
	// Validate reports a hyperparameter outside its valid range.
	Validate() error
	// Spectrum returns r(λ).
	Spectrum(lambda float64) float64
	// Operator returns x ↦ r(L)x without forming r(L).
	Operator(l *laplacian.Operator) (*NodeOperator, error)
}

// Diffusion is the diffusion (heat) kernel exp(−tL) (Kondor & Lafferty,
// ICML 2002), r(λ) = e^{−tλ}.
type Diffusion struct {
	// T is the diffusion time t > 0.
	T float64
}

// RegularizedLaplacian is (I + tL)^{-1}, r(λ) = 1/(1 + tλ).
type RegularizedLaplacian struct {
	// T is the scale t > 0.
	T float64
	// Tol is the CG relative residual of each product; 0 means 1e-12.
	Tol float64
}

// PStepRandomWalk is the p-step random-walk kernel (aI − L_sym)^p,
// r(λ) = (a − λ)^p; a ≥ 2 makes it PSD since L_sym's spectrum lies in [0, 2].
type PStepRandomWalk struct {
	// A is the shift a ≥ 2.
	A float64
	// P is the number of steps p ≥ 1.
	P int
}

var (
	_ NodeKernel = Diffusion{}
	_ NodeKernel = RegularizedLaplacian{}
	_ NodeKernel = PStepRandomWalk{}
)

func positiveParam(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("graphkernels: %s=%v is invalid: it must be finite and > 0", name, v)
	}
	return nil
}

// Validate checks t > 0.
func (k Diffusion) Validate() error { return positiveParam("Diffusion T", k.T) }

// Spectrum returns e^{−tλ}.
func (k Diffusion) Spectrum(lambda float64) float64 { return math.Exp(-k.T * lambda) }

// Validate checks t > 0 and the tolerance.
func (k RegularizedLaplacian) Validate() error {
	if err := positiveParam("RegularizedLaplacian T", k.T); err != nil {
		return err
	}
	if !(k.Tol >= 0 && k.Tol < 1) {
		return fmt.Errorf("graphkernels: RegularizedLaplacian Tol=%v is invalid: it must be in [0, 1) (0 means 1e-12)", k.Tol)
	}
	return nil
}

// Spectrum returns 1/(1 + tλ).
func (k RegularizedLaplacian) Spectrum(lambda float64) float64 { return 1 / (1 + k.T*lambda) }

// Validate checks a ≥ 2 and p ≥ 1.
func (k PStepRandomWalk) Validate() error {
	if !(k.A >= 2) || math.IsInf(k.A, 0) {
		return fmt.Errorf("graphkernels: PStepRandomWalk A=%v is invalid: it must be finite and ≥ 2 (L_sym has eigenvalues up to 2)", k.A)
	}
	if k.P < 1 {
		return fmt.Errorf("graphkernels: PStepRandomWalk P=%d is invalid: it must be ≥ 1", k.P)
	}
	return nil
}

// Spectrum returns (a − λ)^p.
func (k PStepRandomWalk) Spectrum(lambda float64) float64 { return math.Pow(k.A-lambda, float64(k.P)) }

// NodeOperator is a node kernel applied to vectors: a linop.Operator whose
// products may fail (a CG solve that does not converge); MulVecTo then
// leaves the best result in dst and keeps the error for Err.
type NodeOperator struct {
	n     int
	apply func(ctx context.Context, dst, x []float64) error

	mu  sync.Mutex
	err error
}

var _ linop.Operator = (*NodeOperator)(nil)

// Dim returns the number of nodes.
func (o *NodeOperator) Dim() int { return o.n }

// IsSymmetric returns true: r(L) is symmetric.
func (o *NodeOperator) IsSymmetric() bool { return true }

// Apply sets dst = r(L)x, checking ctx once per iteration.
func (o *NodeOperator) Apply(ctx context.Context, dst, x []float64) error {
	if len(dst) != o.n || len(x) != o.n {
		return fmt.Errorf("graphkernels: node kernel operator is %d×%d, dst has length %d, x has length %d", o.n, o.n, len(dst), len(x))
	}
	return o.apply(ctx, dst, x)
}

// MulVecTo sets dst = r(L)x. It panics on a dimension mismatch; a
// numerical failure is kept for Err.
func (o *NodeOperator) MulVecTo(dst, x []float64) {
	linop.CheckVec("graphkernels.NodeOperator", o.n, dst, x)
	if err := o.apply(context.Background(), dst, x); err != nil {
		o.mu.Lock()
		o.err = err
		o.mu.Unlock()
	}
}

// Err returns the last error of MulVecTo, nil if every product succeeded.
func (o *NodeOperator) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// laplacianBound returns an upper bound of the spectrum of L (which starts
// at 0): 2 for L_sym, 2·max d_i for L_un (Gershgorin). Other kinds are
// refused.
func laplacianBound(l *laplacian.Operator) (float64, error) {
	switch l.Kind() {
	case laplacian.Symmetric:
		return 2, nil
	case laplacian.Unnormalized:
		var dmax float64
		for _, d := range l.Degrees().D {
			dmax = math.Max(dmax, d)
		}
		return 2 * dmax, nil
	}
	return 0, fmt.Errorf("graphkernels: a node kernel needs the %v or %v Laplacian, got %v", laplacian.Unnormalized, laplacian.Symmetric, l.Kind())
}

// Operator returns x ↦ exp(−tL)x by a Chebyshev expansion on [0, b], b the
// Gershgorin bound of L's spectrum:
//
//	e^{−tλ} = e^{−a} e^{−a y} = Σ_k c_k T_k(y),   y = 2λ/b − 1,  a = tb/2,
//	c_0 = e^{−a} I_0(a),  c_k = 2 (−1)^k e^{−a} I_k(a)
//
// (modified Bessel functions I_k, by Miller's backward recurrence),
// truncated where the coefficients fall below 1e-17: about a + O(√a) + 20
// products with L.
func (k Diffusion) Operator(l *laplacian.Operator) (*NodeOperator, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	b, err := laplacianBound(l)
	if err != nil {
		return nil, err
	}
	coef := diffusionCoefficients(k.T * b / 2)
	n := l.Dim()
	return &NodeOperator{n: n, apply: func(ctx context.Context, dst, x []float64) error {
		return chebyshevApply(ctx, l, b, coef, dst, x)
	}}, nil
}

// Chebyshev truncation of the diffusion expansion.
const chebyshevCutoff = 1e-17 // coefficients below this (relative to c_0 + … ≤ 1) are dropped

// diffusionCoefficients returns the Chebyshev coefficients of e^{−a(1+y)}
// on [−1, 1].
func diffusionCoefficients(a float64) []float64 {
	if a == 0 {
		return []float64{1}
	}
	s := scaledBesselI(a, int(a+20*math.Sqrt(a+1)+40))
	last := len(s) - 1
	for last > 0 && 2*s[last] < chebyshevCutoff {
		last--
	}
	c := make([]float64, last+1)
	c[0] = s[0]
	for j := 1; j <= last; j++ {
		c[j] = 2 * s[j]
		if j%2 == 1 {
			c[j] = -c[j]
		}
	}
	return c
}

// scaledBesselI returns e^{−a} I_k(a) for k = 0..K, a > 0, by Miller's
// backward recurrence I_{k−1} = I_{k+1} + (2k/a) I_k from far above K,
// normalised with I_0(a) + 2 Σ_{k≥1} I_k(a) = e^{a}.
func scaledBesselI(a float64, K int) []float64 {
	start := K + 20 + int(math.Sqrt(40*float64(K+1)))
	out := make([]float64, K+1)
	var next, cur float64 = 0, 1e-300
	var sum float64
	for k := start; k >= 1; k-- {
		prev := next + 2*float64(k)/a*cur
		if k <= K {
			out[k] = cur
		}
		sum += 2 * cur
		next, cur = cur, prev
		if cur > 1e250 { // rescale everything computed so far
			next *= 1e-250
			cur *= 1e-250
			sum *= 1e-250
			for j := k; j <= K && j < len(out); j++ {
				out[j] *= 1e-250
			}
		}
	}
	out[0] = cur
	sum += cur
	for k := range out {
		out[k] /= sum
	}
	return out
}

// chebyshevApply sets dst = Σ c_k T_k(2L/b − I) x by the three-term
// recurrence.
func chebyshevApply(ctx context.Context, l linop.Operator, b float64, c []float64, dst, x []float64) error {
	n := len(x)
	tPrev := make([]float64, n)
	tCur := make([]float64, n)
	tmp := make([]float64, n)
	copy(tPrev, x)
	for i := range dst {
		dst[i] = c[0] * x[i]
	}
	if len(c) == 1 {
		return nil
	}
	// T_1 x = (2/b) L x − x
	l.MulVecTo(tmp, x)
	for i := range tCur {
		tCur[i] = 2/b*tmp[i] - x[i]
		dst[i] += c[1] * tCur[i]
	}
	for k := 2; k < len(c); k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.MulVecTo(tmp, tCur)
		for i := range tmp {
			next := 2*(2/b*tmp[i]-tCur[i]) - tPrev[i]
			tPrev[i] = tCur[i]
			tCur[i] = next
			dst[i] += c[k] * next
		}
	}
	return nil
}

// Operator returns x ↦ (I + tL)^{-1}x, one CG solve per product (the
// system is SPD with condition number at most 1 + t·λ_max(L)).
func (k RegularizedLaplacian) Operator(l *laplacian.Operator) (*NodeOperator, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if _, err := laplacianBound(l); err != nil {
		return nil, err
	}
	tol := k.Tol
	if tol == 0 {
		tol = 1e-12
	}
	sys := linop.Affine{A: l, Scale: k.T, Shift: 1}
	n := l.Dim()
	return &NodeOperator{n: n, apply: func(ctx context.Context, dst, x []float64) error {
		for i := range dst {
			dst[i] = 0
		}
		_, err := krylov.CG(ctx, sys, x, dst, krylov.Settings{Tol: tol, MaxIter: 10*n + 1000})
		if err != nil {
			return fmt.Errorf("graphkernels: RegularizedLaplacian: %w", err)
		}
		return nil
	}}, nil
}

// Operator returns x ↦ (aI − L_sym)^p x: p products with L_sym.
func (k PStepRandomWalk) Operator(l *laplacian.Operator) (*NodeOperator, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if l.Kind() != laplacian.Symmetric {
		return nil, fmt.Errorf("graphkernels: PStepRandomWalk needs the %v Laplacian, got %v", laplacian.Symmetric, l.Kind())
	}
	step := linop.Affine{A: l, Scale: -1, Shift: k.A}
	n := l.Dim()
	return &NodeOperator{n: n, apply: func(ctx context.Context, dst, x []float64) error {
		tmp := make([]float64, n)
		copy(tmp, x)
		for s := 0; s < k.P; s++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			step.MulVecTo(dst, tmp)
			copy(tmp, dst)
		}
		return nil
	}}, nil
}

// DenseNodeKernel returns r(L) as a dense matrix through the
// eigendecomposition of L (mat.EigenSym): the explicit dense path, O(n²)
// memory and O(n³) time, for small graphs and as a reference.
func DenseNodeKernel(k NodeKernel, l *laplacian.Operator) (*mat.SymDense, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if _, err := laplacianBound(l); err != nil {
		return nil, err
	}
	if pk, ok := k.(PStepRandomWalk); ok && l.Kind() != laplacian.Symmetric {
		return nil, fmt.Errorf("graphkernels: PStepRandomWalk (A=%v) needs the %v Laplacian, got %v", pk.A, laplacian.Symmetric, l.Kind())
	}
	n := l.Dim()
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	d := l.Dense()
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, 0.5*(d.At(i, j)+d.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, fmt.Errorf("graphkernels: eigendecomposition of the %d×%d Laplacian did not converge", n, n)
	}
	vals := eig.Values(nil)
	var u mat.Dense
	eig.VectorsTo(&u)
	scaled := mat.DenseCopyOf(&u)
	for j, v := range vals {
		r := k.Spectrum(v)
		for i := 0; i < n; i++ {
			scaled.Set(i, j, scaled.At(i, j)*r)
		}
	}
	var prod mat.Dense
	prod.Mul(scaled, u.T())
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, 0.5*(prod.At(i, j)+prod.At(j, i)))
		}
	}
	return out, nil
}
