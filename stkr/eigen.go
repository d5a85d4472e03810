package stkr

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/spectral"
)

// LanczosEigen is the default kernel-PCA eigensolver, O(N·d) memory. For a
// GraphKernel it calls spectral.LaplacianEigs on the kernel's graph (the
// largest eigenvalues μ of S are 1 − the smallest of L_sym), which solves
// each connected component on its own, so the eigenvalue μ = 1, repeated
// once per component (78 times on Cora), is found in full. For any other
// base kernel it runs spectral.Eigs (block Lanczos with a Chebyshev filter
// on [−r, r], r = Radius()); there an eigenvalue repeated more often than
// Settings.BlockSize is not reliably found in full (see package spectral).
// Products with M are added to the fit's count.
type LanczosEigen struct {
	// Settings are spectral's (zero means its defaults: residual 1e-10,
	// block size min(d, 4), seed 0). Bounds is set from the kernel's radius
	// when left zero.
	Settings spectral.Settings
}

// Largest returns the d largest eigenpairs of a, descending.
func (e LanczosEigen) Largest(ctx context.Context, a linop.Operator, d int) ([]float64, *mat.Dense, error) {
	op := a
	var count func(int)
	if c, ok := a.(counted); ok {
		op = c.m
		count = func(k int) { c.n.Add(int64(k)) }
	}
	var res *spectral.Result
	var err error
	if gk, ok := op.(*GraphKernel); ok {
		res, err = spectral.LaplacianEigs(ctx, gk.Graph(), laplacian.Symmetric, laplacian.Options{Isolated: laplacian.IsolatedZero}, d, e.Settings)
		if err == nil {
			for k, l := range res.Values {
				res.Values[k] = 1 - l // μ = 1 − λ, still ordered: largest μ first
			}
		}
	} else {
		s := e.Settings
		if bk, ok := op.(BaseKernel); ok && s.Bounds == (spectral.Interval{}) {
			s.Bounds = spectral.Interval{Lo: -bk.Radius(), Hi: bk.Radius()}
		}
		res, err = spectral.Eigs(ctx, a, d, spectral.Largest, s)
		if err == nil {
			reverseColumns(res)
		}
		count = nil // a is counted itself
	}
	if err != nil {
		return nil, nil, err
	}
	if count != nil {
		count(res.MatVecs)
	}
	return res.Values, res.Vectors, nil
}

// reverseColumns turns spectral's ascending order into descending.
func reverseColumns(res *spectral.Result) {
	k := len(res.Values)
	n, _ := res.Vectors.Dims()
	col := make([]float64, n)
	other := make([]float64, n)
	for i, j := 0, k-1; i < j; i, j = i+1, j-1 {
		res.Values[i], res.Values[j] = res.Values[j], res.Values[i]
		mat.Col(col, i, res.Vectors)
		mat.Col(other, j, res.Vectors)
		res.Vectors.SetCol(i, other)
		res.Vectors.SetCol(j, col)
	}
}

// DenseEigen is the explicit dense eigensolver: it materialises the operator
// (N products, O(N²) memory) and runs LAPACK's symmetric eigensolver
// (O(N³) time). Eigenvector signs are fixed so that the entry of largest
// magnitude is positive. For graphs of a few thousand nodes.
type DenseEigen struct{}

// Largest returns the d largest eigenpairs of a, descending.
func (DenseEigen) Largest(ctx context.Context, a linop.Operator, d int) ([]float64, *mat.Dense, error) {
	n := a.Dim()
	if d < 1 || d > n {
		return nil, nil, fmt.Errorf("dense eigensolver: d=%d out of range [1, %d]", d, n)
	}
	dense := linop.ToDense(a)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for k := i; k < n; k++ {
			sym.SetSym(i, k, 0.5*(dense.At(i, k)+dense.At(k, i)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, nil, fmt.Errorf("dense eigensolver: LAPACK did not converge")
	}
	all := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	vals := make([]float64, d)
	vecs := mat.NewDense(n, d, nil)
	col := make([]float64, n)
	for k := 0; k < d; k++ {
		src := n - 1 - k
		vals[k] = all[src]
		mat.Col(col, src, &v)
		big := 0
		for i, x := range col {
			if math.Abs(x) > math.Abs(col[big]) {
				big = i
			}
		}
		if col[big] < 0 {
			floats.Scale(-1, col)
		}
		vecs.SetCol(k, col)
	}
	return vals, vecs, nil
}

// EigenCache remembers the eigenpairs an Eigensolver computed for a base
// kernel, so that kernel PCA fits that differ only in β or in the labelled
// nodes (a validation grid, several transductive splits of one graph)
// decompose M once; graph kernels are recognised by their graph. A request for fewer pairs than stored is served from
// the stored ones. Safe for concurrent use; it holds the vectors (N×d) until
// dropped.
type EigenCache struct {
	Solver Eigensolver // nil means LanczosEigen{}

	mu    sync.Mutex
	key   any
	vals  []float64
	vecs  *mat.Dense
	Calls int // eigensolver runs so far
}

// Largest returns the d largest eigenpairs of a, from the cache when the
// same operator was decomposed with at least d pairs.
func (c *EigenCache) Largest(ctx context.Context, a linop.Operator, d int) ([]float64, *mat.Dense, error) {
	var key any = a
	if cnt, ok := a.(counted); ok {
		key = cnt.m // the same kernel behind a fresh product counter
	}
	if gk, ok := key.(*GraphKernel); ok {
		key = gk.Graph() // kernels built on the same graph are the same operator
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == key && c.vecs != nil && len(c.vals) >= d {
		n, _ := c.vecs.Dims()
		return append([]float64(nil), c.vals[:d]...), mat.DenseCopyOf(c.vecs.Slice(0, n, 0, d)), nil
	}
	s := c.Solver
	if s == nil {
		s = LanczosEigen{}
	}
	vals, vecs, err := s.Largest(ctx, a, d)
	if err != nil {
		return nil, nil, err
	}
	c.Calls++
	c.key, c.vals, c.vecs = key, vals, vecs
	return append([]float64(nil), vals...), mat.DenseCopyOf(vecs), nil
}
