package nodeclass

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// reduceOversample is the randomized SVD's oversampling p.
const reduceOversample = 10

// Reduce returns the n×k rank-k principal directions of the feature rows,
// Z = U_k Σ_k of the (uncentred) truncated SVD X ≈ U_k Σ_k V_kᵀ, computed by
// the randomized range finder with one power iteration (Halko, Martinsson
// & Tropp, "Finding structure with randomness", SIAM Review 2011): with Ω
// a d×l Gaussian matrix seeded by seed, l = min(k+p, d, n),
//
//	Y = X Xᵀ X Ω,  Q R = Y,  B = Qᵀ X = Û Σ Vᵀ,  Z = Q Û_k Σ_k.
//
// It costs O(nnz(X)·(k+p)) and keeps the channel models' width independent
// of the vocabulary of bag-of-words features. When d ≤ k or n ≤ k the
// rows are returned densely as they are.
func Reduce(ctx context.Context, x Features, k int, seed uint64) (*mat.Dense, error) {
	n, d := x.Dims()
	if k < 1 {
		return nil, fmt.Errorf("nodeclass: Reduce to %d dimensions: it must be ≥ 1", k)
	}
	if d <= k || n <= k {
		if x.Sparse != nil {
			return x.Sparse.Dense(nil), nil
		}
		return mat.DenseCopyOf(x.Dense), nil
	}
	l := min(k+reduceOversample, d, n)
	rng := rand.New(rand.NewPCG(seed, 0x5ed))
	omega := mat.NewDense(d, l, nil)
	for i := range omega.RawMatrix().Data {
		omega.RawMatrix().Data[i] = rng.NormFloat64()
	}
	y := featMul(x, omega)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nodeclass: reduce cancelled: %w", err)
	}
	y = featMul(x, orthonormal(featTMul(x, orthonormal(y))))
	q := orthonormal(y)
	bt := featTMul(x, q) // Bᵀ = Xᵀ Q, d×l
	var svd mat.SVD
	if !svd.Factorize(bt.T(), mat.SVDThin) {
		return nil, fmt.Errorf("nodeclass: reduce: the SVD of the %d×%d sketch did not converge", l, d)
	}
	var u mat.Dense
	svd.UTo(&u)
	s := svd.Values(nil)
	uk := mat.DenseCopyOf(u.Slice(0, l, 0, k))
	for j := 0; j < k; j++ {
		for i := 0; i < l; i++ {
			uk.Set(i, j, uk.At(i, j)*s[j])
		}
	}
	z := mat.NewDense(n, k, nil)
	z.Mul(q, uk)
	return z, nil
}

// orthonormal returns an orthonormal basis of y's columns: the thin Q of
// y = QR (Householder, formed with y's shape, never the full r×r Q).
func orthonormal(y *mat.Dense) *mat.Dense {
	r, c := y.Dims()
	if r < c {
		var qr mat.QR
		qr.Factorize(y)
		var q mat.Dense
		qr.QTo(&q)
		return mat.DenseCopyOf(q.Slice(0, r, 0, min(r, c)))
	}
	q := mat.DenseCopyOf(y)
	a := q.RawMatrix()
	tau := make([]float64, c)
	work := make([]float64, 1)
	lapack64.Geqrf(a, tau, work, -1)
	work = make([]float64, max(int(work[0]), r))
	lapack64.Geqrf(a, tau, work, len(work))
	lapack64.Orgqr(a, tau, work[:1], -1)
	if need := max(int(work[0]), c); need > len(work) {
		work = make([]float64, need)
	}
	lapack64.Orgqr(a, tau, work, len(work))
	return q
}

// featMul returns X W.
func featMul(x Features, w *mat.Dense) *mat.Dense {
	n, _ := x.Dims()
	_, l := w.Dims()
	out := mat.NewDense(n, l, nil)
	if x.Dense != nil {
		out.Mul(x.Dense, w)
		return out
	}
	for i := 0; i < n; i++ {
		row := out.RawRowView(i)
		cols, vals := x.Sparse.Row(i)
		for k, c := range cols {
			for j, v := range w.RawRowView(int(c)) {
				row[j] += vals[k] * v
			}
		}
	}
	return out
}

// featTMul returns Xᵀ W.
func featTMul(x Features, w *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	_, l := w.Dims()
	out := mat.NewDense(d, l, nil)
	if x.Dense != nil {
		out.Mul(x.Dense.T(), w)
		return out
	}
	for i := 0; i < n; i++ {
		src := w.RawRowView(i)
		cols, vals := x.Sparse.Row(i)
		for k, c := range cols {
			dst := out.RawRowView(int(c))
			for j, v := range src {
				dst[j] += vals[k] * v
			}
		}
	}
	return out
}
