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
	var v SparseVector
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

// gramRowWork is the number of sparse products below which a Gram matrix is
// filled on one goroutine.
const gramRowWork = 1 << 14

// SparseGram returns the Gram matrix ΦΦᵀ of the rows Φ_i = phi[i], in
// parallel over rows. Each worker scatters row i into a dense buffer of the
// feature dimension and gathers the rows j ≤ i from it, so a product costs
// the non-zeros of row j. It checks ctx between rows and returns its error.
func SparseGram(ctx context.Context, phi []SparseVector, progress Progress) (*mat.SymDense, error) {
	n := len(phi)
	if n == 0 {
		return &mat.SymDense{}, nil
	}
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	// Work of row i: the non-zeros of rows 0..i.
	prefix := make([]int, n+1)
	cum := 0
	for i, v := range phi {
		cum += len(v.Idx)
		prefix[i+1] = prefix[i] + cum
	}
	err := fillRows(ctx, n, prefix, dims(phi), progress, func(buf []float64, i int) {
		scatter(buf, phi[i])
		row := raw.Data[i*raw.Stride:]
		for j := 0; j <= i; j++ {
			row[j] = gather(buf, phi[j])
		}
		unscatter(buf, phi[i])
	})
	if err != nil {
		return nil, err
	}
	// Mirror the lower triangle into the upper one that SymDense reads.
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			raw.Data[j*raw.Stride+i] = raw.Data[i*raw.Stride+j]
		}
	}
	return k, nil
}

// SparseCross returns the len(a)×len(b) matrix of products a_i·b_j and the
// squared norms a_i·a_i, in parallel over the rows of a.
func SparseCross(ctx context.Context, a, b []SparseVector, progress Progress) (*mat.Dense, []float64, error) {
	m, n := len(a), len(b)
	self := make([]float64, m)
	if m == 0 || n == 0 {
		for i, v := range a {
			self[i] = v.Dot(v)
		}
		return &mat.Dense{}, self, nil
	}
	out := mat.NewDense(m, n, nil)
	raw := out.RawMatrix()
	bnnz := 0
	for _, v := range b {
		bnnz += len(v.Idx)
	}
	prefix := make([]int, m+1)
	for i := range a {
		prefix[i+1] = prefix[i] + bnnz
	}
	// Coordinates of a beyond the training dimension (labels unseen at
	// fit time) cannot meet b: scatter only the shared range.
	d := dims(b)
	err := fillRows(ctx, m, prefix, d, progress, func(buf []float64, i int) {
		v := a[i]
		shared := SparseVector{Idx: v.Idx, Val: v.Val}
		cut, _ := slices.BinarySearch(v.Idx, int32(d))
		shared.Idx, shared.Val = v.Idx[:cut], v.Val[:cut]
		scatter(buf, shared)
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := range row {
			row[j] = gather(buf, b[j])
		}
		unscatter(buf, shared)
		self[i] = v.Dot(v)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, self, nil
}

func scatter(buf []float64, v SparseVector) {
	for k, c := range v.Idx {
		buf[c] = v.Val[k]
	}
}

func unscatter(buf []float64, v SparseVector) {
	for _, c := range v.Idx {
		buf[c] = 0
	}
}

func gather(buf []float64, v SparseVector) float64 {
	var s float64
	val := v.Val[:len(v.Idx)]
	for k, c := range v.Idx {
		s += buf[c] * val[k]
	}
	return s
}

// fillRows runs row(buf, i) for every i in [0, n) on balanced chunks (work
// prefix as in parallel.Balanced), each worker with its own zeroed buffer of
// length d that row must leave zeroed. It checks ctx between rows and
// reports progress in rows.
func fillRows(ctx context.Context, n int, prefix []int, d int, progress Progress, row func(buf []float64, i int)) error {
	var (
		mu    sync.Mutex
		done  int
		first error
	)
	parallel.Balanced(prefix, gramRowWork, func(lo, hi int) {
		buf := make([]float64, d)
		for i := lo; i < hi; i++ {
			if err := ctx.Err(); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
				return
			}
			row(buf, i)
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
