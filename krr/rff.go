package krr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/kernel"
)

// FourierMap is a random Fourier feature map z(x) = √(2/D) cos(Wᵀx + b)
// with W ~ N(0, σ^{−2}I) (d×D) and b ~ U[0, 2π) (Rahimi & Recht 2007):
// E[z(x)ᵀz(y)] = exp(−‖x−y‖²/(2σ²)).
type FourierMap struct {
	W *mat.Dense // d×D
	B []float64  // D
}

// NewFourierMap draws a map for points of dimension d with D features, from
// the seed.
func NewFourierMap(sigma float64, d, features int, seed uint64) (*FourierMap, error) {
	if err := (kernel.Gaussian{Sigma: sigma}).Validate(); err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	if d < 1 {
		return nil, fmt.Errorf("krr: dimension d=%d is invalid: it must be ≥ 1", d)
	}
	if features < 1 {
		return nil, fmt.Errorf("krr: D=%d random features is invalid: it must be ≥ 1", features)
	}
	rng := newRand(seed)
	w := mat.NewDense(d, features, nil)
	raw := w.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64() / sigma
	}
	b := make([]float64, features)
	for i := range b {
		b[i] = 2 * math.Pi * rng.Float64()
	}
	return &FourierMap{W: w, B: b}, nil
}

// check reports a map that cannot take points of dimension d.
func (f *FourierMap) check(d int) error {
	if f.W == nil || len(f.B) == 0 {
		return fmt.Errorf("krr: FixedMap has no features")
	}
	wr, wc := f.W.Dims()
	if wr != d || wc != len(f.B) {
		return fmt.Errorf("krr: FixedMap W is %d×%d and b has %d entries, want %d×%d for points of dimension %d", wr, wc, len(f.B), d, len(f.B), d)
	}
	for i, v := range f.B {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("krr: FixedMap b[%d] is %v", i, v)
		}
	}
	if err := kernel.CheckPoints("FixedMap W", f.W, -1); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	return nil
}

// Features returns D.
func (f *FourierMap) Features() int { return len(f.B) }

// MapTo sets dst (n×D) to z of the rows of x (n×d).
func (f *FourierMap) MapTo(dst, x *mat.Dense) {
	n, _ := x.Dims()
	D := len(f.B)
	scale := math.Sqrt(2 / float64(D))
	parallel.For(n, 64, func(lo, hi int) {
		xb := x.Slice(lo, hi, 0, x.RawMatrix().Cols).(*mat.Dense)
		db := dst.Slice(lo, hi, 0, D).(*mat.Dense)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, xb.RawMatrix(), f.W.RawMatrix(), 0, db.RawMatrix())
		for i := 0; i < hi-lo; i++ {
			row := db.RawRowView(i)
			for j, v := range row {
				row[j] = scale * math.Cos(v+f.B[j])
			}
		}
	})
}

// RandomFeatures is ridge regression on D random Fourier features of the
// Gaussian kernel exp(−‖x−y‖²/(2σ²)): w = (ZᵀZ + nλI)^{−1}ZᵀY. Z is built
// in row blocks (memory O(nd + D²), time O(nDd + nD² + D³)).
type RandomFeatures struct {
	// Sigma is the Gaussian kernel's σ > 0 (not used with FixedMap).
	Sigma float64
	// D is the number of features; 0 means DefaultFeatures.
	D int
	// Lambda is the ridge parameter λ > 0.
	Lambda float64
	// Seed seeds W and b.
	Seed uint64
	// FixedMap, if not nil, is the feature map to use instead of drawing
	// one (for instance W and b drawn by another tool); its W must have d
	// rows, and D is then its number of features.
	FixedMap *FourierMap

	fm *FourierMap
	w  *mat.Dense
	d  int
}

// DefaultFeatures is the number D of random features when
// RandomFeatures.D is 0.
const DefaultFeatures = 1000

// rffBlock is the number of rows mapped at once.
const rffBlock = 512

// Validate reports a hyperparameter outside its valid range.
func (r *RandomFeatures) Validate() error {
	if r.FixedMap == nil {
		if err := (kernel.Gaussian{Sigma: r.Sigma}).Validate(); err != nil {
			return fmt.Errorf("krr: %w", err)
		}
	}
	if r.D < 0 {
		return fmt.Errorf("krr: D=%d random features is invalid: it must be ≥ 1 (0 means %d)", r.D, DefaultFeatures)
	}
	return checkLambda(r.Lambda)
}

// FitTargets solves (ZᵀZ + nλI) w = ZᵀY.
func (r *RandomFeatures) FitTargets(ctx context.Context, x, y *mat.Dense) error {
	if err := r.Validate(); err != nil {
		return err
	}
	n, d, c, err := checkData(x, y)
	if err != nil {
		return err
	}
	fm := r.FixedMap
	if fm != nil {
		if err := fm.check(d); err != nil {
			return err
		}
	} else {
		D := r.D
		if D == 0 {
			D = DefaultFeatures
		}
		if fm, err = NewFourierMap(r.Sigma, d, D, r.Seed); err != nil {
			return err
		}
	}
	D := fm.Features()
	ztz := mat.NewSymDense(D, nil)
	zty := mat.NewDense(D, c, nil)
	z := mat.NewDense(min(rffBlock, n), D, nil)
	for r0 := 0; r0 < n; r0 += rffBlock {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("krr: RandomFeatures stopped at row %d of %d: %w", r0, n, err)
		}
		r1 := min(r0+rffBlock, n)
		zb := z.Slice(0, r1-r0, 0, D).(*mat.Dense)
		fm.MapTo(zb, x.Slice(r0, r1, 0, d).(*mat.Dense))
		blas64.Syrk(blas.Trans, 1, zb.RawMatrix(), 1, ztz.RawSymmetric())
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, zb.RawMatrix(), y.Slice(r0, r1, 0, c).(*mat.Dense).RawMatrix(), 1, zty.RawMatrix())
	}
	for i := 0; i < D; i++ {
		ztz.SetSym(i, i, ztz.At(i, i)+float64(n)*r.Lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(ztz) {
		return fmt.Errorf("krr: RandomFeatures: ZᵀZ + nλI is not numerically positive definite (λ=%v)", r.Lambda)
	}
	w := mat.NewDense(D, c, nil)
	if err := ch.SolveTo(w, zty); err != nil {
		return fmt.Errorf("krr: RandomFeatures: %w", err)
	}
	r.fm, r.w, r.d = fm, w, d
	return nil
}

// PredictTargets returns z(x)ᵀw for each row of x.
func (r *RandomFeatures) PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if r.w == nil {
		return nil, ErrNotFitted
	}
	if err := checkPredict(x, r.d); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	D, c := r.w.Dims()
	out := mat.NewDense(n, c, nil)
	z := mat.NewDense(min(rffBlock, n), D, nil)
	for r0 := 0; r0 < n; r0 += rffBlock {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r1 := min(r0+rffBlock, n)
		zb := z.Slice(0, r1-r0, 0, D).(*mat.Dense)
		r.fm.MapTo(zb, x.Slice(r0, r1, 0, r.d).(*mat.Dense))
		out.Slice(r0, r1, 0, c).(*mat.Dense).Mul(zb, r.w)
	}
	return out, nil
}

// Map returns the fitted feature map, or nil before Fit.
func (r *RandomFeatures) Map() *FourierMap { return r.fm }
