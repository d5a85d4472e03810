package graphkernels

import (
	"context"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// SparseVector is a feature vector with few non-zeros: Val[k] is the
// coordinate Idx[k]; Idx is strictly increasing.
type SparseVector struct {
	Idx []int32
	Val []float64
}

// Dot returns the inner product of two sparse vectors (a merge of their
// index lists).
func (v SparseVector) Dot(w SparseVector) float64 {
	var s float64
	i, j := 0, 0
	for i < len(v.Idx) && j < len(w.Idx) {
		switch {
		case v.Idx[i] < w.Idx[j]:
			i++
		case v.Idx[i] > w.Idx[j]:
			j++
		default:
			s += v.Val[i] * w.Val[j]
			i++
			j++
		}
	}
	return s
}

// countVector turns a list of feature ids (with repeats) into the sparse
// vector of their counts. ids is sorted in place.
func countVector(ids []int32) SparseVector {
	slices.Sort(ids)
	distinct := 0
	for k := range ids {
		if k == 0 || ids[k] != ids[k-1] {
			distinct++
		}
	}
	v := SparseVector{Idx: make([]int32, 0, distinct), Val: make([]float64, 0, distinct)}
	for k := 0; k < len(ids); {
		e := k + 1
		for e < len(ids) && ids[e] == ids[k] {
			e++
		}
		v.Idx = append(v.Idx, ids[k])
		v.Val = append(v.Val, float64(e-k))
		k = e
	}
	return v
}

// dims returns one more than the largest index of any vector.
func dims(vs []SparseVector) int {
	d := 0
	for _, v := range vs {
		if n := len(v.Idx); n > 0 && int(v.Idx[n-1]) >= d {
			d = int(v.Idx[n-1]) + 1
		}
	}
	return d
}

// gramRowWork is the number of multiply-adds below which a Gram matrix is
// filled on one goroutine.
const gramRowWork = 1 << 16

// columns is the transpose of a list of sparse rows (compressed sparse
// columns): column f lists the rows holding coordinate f, ascending, with
// their values; pos[i][k] is where entry k of row i sits in its column.
type columns struct {
	ptr  []int
	rows []int32
	vals []float64
	pos  [][]int32
}

func transpose(phi []SparseVector, d int) columns {
	c := columns{ptr: make([]int, d+1), pos: make([][]int32, len(phi))}
	for _, v := range phi {
		for _, f := range v.Idx {
			c.ptr[f+1]++
		}
	}
	for f := 0; f < d; f++ {
		c.ptr[f+1] += c.ptr[f]
	}
	nnz := c.ptr[d]
	c.rows = make([]int32, nnz)
	c.vals = make([]float64, nnz)
	next := append([]int(nil), c.ptr[:d]...)
	for i, v := range phi {
		c.pos[i] = make([]int32, len(v.Idx))
		for k, f := range v.Idx {
			p := next[f]
			next[f]++
			c.rows[p], c.vals[p] = int32(i), v.Val[k]
			c.pos[i][k] = int32(p - c.ptr[f])
		}
	}
	return c
}

// SparseGram returns the Gram matrix ΦΦᵀ of the rows Φ_i = phi[i], in
// parallel over rows, through the inverted index of the features: row i
// adds v_i·v_j to K_ij for every feature it shares with a row j ≤ i, so the
// work is Σ_f df_f²/2 (df_f the number of rows holding feature f) instead
// of a product per pair. Entries are exact sums of the same products as
// ⟨Φ_i, Φ_j⟩. It checks ctx between rows and returns its error.
func SparseGram(ctx context.Context, phi []SparseVector, progress Progress) (*mat.SymDense, error) {
	n := len(phi)
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	cols := transpose(phi, dims(phi))
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	// Work of row i: Σ over its features of its position in the column.
	prefix := make([]int, n+1)
	for i := range phi {
		w := 1
		for _, p := range cols.pos[i] {
			w += int(p) + 1
		}
		prefix[i+1] = prefix[i] + w
	}
	err := fillRows(ctx, n, prefix, progress, func(i int) {
		// Row i of the lower triangle, K[i][j] for j ≤ i, contiguous; it
		// is mirrored into the upper triangle that SymDense reads below.
		v := phi[i]
		row := raw.Data[i*raw.Stride : i*raw.Stride+i+1]
		for k, f := range v.Idx {
			lo := cols.ptr[f]
			hi := lo + int(cols.pos[i][k]) + 1
			vi := v.Val[k]
			rows, vals := cols.rows[lo:hi], cols.vals[lo:hi:hi]
			for q, j := range rows {
				row[j] += vi * vals[q]
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			raw.Data[j*raw.Stride+i] = raw.Data[i*raw.Stride+j]
		}
	}
	return k, nil
}

// SparseCross returns the len(a)×len(b) matrix of products a_i·b_j and the
// squared norms a_i·a_i, in parallel over the rows of a, through the
// inverted index of b. Coordinates of a that no row of b holds (labels
// unseen at fit time) add nothing to the products.
func SparseCross(ctx context.Context, a, b []SparseVector, progress Progress) (*mat.Dense, []float64, error) {
	m, n := len(a), len(b)
	self := make([]float64, m)
	if m == 0 || n == 0 {
		for i, v := range a {
			self[i] = v.Dot(v)
		}
		return &mat.Dense{}, self, nil
	}
	d := dims(b)
	cols := transpose(b, d)
	out := mat.NewDense(m, n, nil)
	raw := out.RawMatrix()
	prefix := make([]int, m+1)
	for i, v := range a {
		w := 1
		for _, f := range v.Idx {
			if int(f) < d {
				w += cols.ptr[f+1] - cols.ptr[f]
			}
		}
		prefix[i+1] = prefix[i] + w
	}
	err := fillRows(ctx, m, prefix, progress, func(i int) {
		v := a[i]
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for k, f := range v.Idx {
			if int(f) >= d {
				break
			}
			lo, hi := cols.ptr[f], cols.ptr[f+1]
			vi := v.Val[k]
			vals := cols.vals[lo:hi:hi]
			for q, j := range cols.rows[lo:hi] {
				row[j] += vi * vals[q]
			}
		}
		self[i] = v.Dot(v)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, self, nil
}

// fillRows runs row(i) for every i in [0, n) on balanced chunks (work
// prefix as in parallel.Balanced). It checks ctx between rows and reports
// progress in rows.
func fillRows(ctx context.Context, n int, prefix []int, progress Progress, row func(i int)) error {
	var (
		mu    sync.Mutex
		done  int
		first error
	)
	parallel.Balanced(prefix, gramRowWork, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if err := ctx.Err(); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
			row(i)
			if progress != nil {
				mu.Lock()
				done++
				progress(done, n)
				mu.Unlock()
			}
		}
	})
	return first
}
