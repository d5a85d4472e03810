package imgp

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/knngraph"
)

// Eigenpairs are the L smallest eigenpairs of Δ_rw = I − D⁻¹A with
// D-orthonormal eigenvectors: Δ_rw f_l = λ_l f_l, f_lᵀ D f_m = δ_lm.
type Eigenpairs struct {
	Values  []float64  // λ_0 ≤ λ_1 ≤ … ≤ λ_{L−1}
	Vectors *mat.Dense // N×L, column l is f_l
}

// Eigensolver computes the L smallest eigenpairs of Δ_rw for graph weights.
// The spectral package's Lanczos solver is meant to plug in here.
type Eigensolver interface {
	Smallest(ctx context.Context, w *knngraph.Weights, l int) (*Eigenpairs, error)
}

// DenseComponents is the explicit dense eigensolver: it splits the graph into
// connected components and factorises each component's L_sym =
// I − D^{-1/2}AD^{-1/2} with a dense symmetric eigendecomposition, then keeps
// the L smallest eigenvalues over all components (a zero eigenvalue per
// component). Eigenvectors are f = D^{-1/2}u, zero outside their component,
// with the sign that makes the entry of largest magnitude positive. Cost
// Σ_c n_c³ time and max_c n_c² memory; a component larger than MaxComponent
// is an error. Per-component solving is exact for repeated zero eigenvalues
// (single-vector Lanczos is not; ALGORITHMS.md §1).
type DenseComponents struct {
	// MaxComponent is the largest component size accepted; 0 means 4000.
	MaxComponent int
}

// Smallest implements Eigensolver.
func (dc DenseComponents) Smallest(ctx context.Context, w *knngraph.Weights, l int) (*Eigenpairs, error) {
	n := len(w.D)
	if l < 1 || l > n {
		return nil, fmt.Errorf("imgp: eigenpairs L = %d is invalid: it must be in [1, N = %d]", l, n)
	}
	limit := dc.MaxComponent
	if limit == 0 {
		limit = 4000
	}
	comp, count := w.A.Components()
	members := make([][]int, count)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	for c, m := range members {
		if len(m) > limit {
			return nil, fmt.Errorf("imgp: DenseComponents: component %d has %d nodes, more than MaxComponent = %d; use a sparse eigensolver", c, len(m), limit)
		}
	}
	type pair struct {
		lambda float64
		comp   int
		col    int
	}
	var pairs []pair
	vecs := make([]*mat.Dense, count)
	sqrtD := make([]float64, n)
	for i, v := range w.D {
		sqrtD[i] = math.Sqrt(v)
	}
	vals := make([][]float64, count)
	errs := make([]error, count)
	// Components are independent: factorise them in parallel.
	parallel.For(count, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			if ctx.Err() != nil {
				errs[c] = ctx.Err()
				return
			}
			vals[c], vecs[c], errs[c] = componentEigen(w, members[c], sqrtD, l)
		}
	})
	for c := range members {
		if errs[c] != nil {
			return nil, errs[c]
		}
		for k, v := range vals[c] {
			pairs = append(pairs, pair{lambda: math.Max(v, 0), comp: c, col: k})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].lambda != pairs[b].lambda {
			return pairs[a].lambda < pairs[b].lambda
		}
		return pairs[a].comp < pairs[b].comp
	})
	if len(pairs) > l {
		pairs = pairs[:l]
	}
	out := &Eigenpairs{Values: make([]float64, len(pairs)), Vectors: mat.NewDense(n, len(pairs), nil)}
	for q, p := range pairs {
		out.Values[q] = p.lambda
		m := members[p.comp]
		var big float64
		for k := range m {
			if v := vecs[p.comp].At(k, p.col); math.Abs(v) > math.Abs(big)+1e-12 {
				big = v
			}
		}
		sign := 1.0
		if big < 0 {
			sign = -1
		}
		for k, i := range m {
			out.Vectors.Set(i, q, sign*vecs[p.comp].At(k, p.col)/sqrtD[i])
		}
	}
	return out, nil
}

// componentEigen returns the min(l, n_c) smallest eigenpairs of one
// component's L_sym (eigenvectors as columns, in the component's order).
func componentEigen(w *knngraph.Weights, m []int, sqrtD []float64, l int) ([]float64, *mat.Dense, error) {
	nc := len(m)
	local := make(map[int]int, nc)
	for k, i := range m {
		local[i] = k
	}
	s := mat.NewSymDense(nc, nil)
	for k, i := range m {
		s.SetSym(k, k, 1)
		cols, ws := w.A.Row(i)
		for p, j := range cols {
			if kj := local[int(j)]; kj >= k {
				s.SetSym(k, kj, s.At(k, kj)-ws[p]/(sqrtD[i]*sqrtD[j]))
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, true) {
		return nil, nil, fmt.Errorf("imgp: DenseComponents: eigendecomposition of a component of %d nodes failed", nc)
	}
	keep := min(l, nc)
	var u mat.Dense
	es.VectorsTo(&u)
	return es.Values(nil)[:keep], mat.DenseCopyOf(u.Slice(0, nc, 0, keep)), nil
}
