package nodeclass

import (
	"math"
	"slices"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
)

// A training pass needs the class probabilities of the training nodes
// only, and an evaluation pass those of the validation nodes. The layers
// that act on each row alone (every layer of LINKX but its adjacency
// product, which reads the node's own row of A; SepGNN's last layer and
// output) are computed on those rows only, and their gradients summed
// over them. Each row's numbers are those of the pass over every node:
// the products are row by row the same kernel calls (gemm.MulRows64), and
// a gradient summed over the training rows in ascending order is the sum
// over every row, whose other terms are exact zeros (gemm.MulTRows64).
// A nil row list means every row.

// eachRow calls f on the rows idx of an n-row block, or on every row when
// idx is nil.
func eachRow(n int, idx []int, f func(i int)) {
	if idx == nil {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	for _, i := range idx {
		f(i)
	}
}

// mulRows sets the rows idx of dst to those of a·op(b).
func mulRows(dst, a *mat.Dense, idx []int, b *mat.Dense, tb bool) {
	if idx == nil {
		mulInto(dst, a, false, b, tb)
		return
	}
	gemm.MulRows64(dst.RawMatrix(), a.RawMatrix(), idx, b.RawMatrix(), tb)
}

// mulTRows sets dst = a[idx]ᵀ·b[idx] (idx ascending; nil: every row).
func mulTRows(dst, a, b *mat.Dense, idx []int) {
	if idx == nil {
		mulInto(dst, a, true, b, false)
		return
	}
	gemm.MulTRows64(dst.RawMatrix(), a.RawMatrix(), b.RawMatrix(), idx)
}

// zeroOutside zeroes the rows of m that are not in idx (ascending; nil:
// none).
func zeroOutside(m *mat.Dense, idx []int) {
	if idx == nil {
		return
	}
	r := m.RawMatrix().Rows
	next := 0
	for i := 0; i < r; i++ {
		if next < len(idx) && idx[next] == i {
			next++
			continue
		}
		clear(m.RawRowView(i))
	}
}

// addRows adds the rows idx of a to those of dst.
func addRows(dst, a *mat.Dense, idx []int) {
	if idx == nil {
		dst.Add(dst, a)
		return
	}
	for _, i := range idx {
		vec.Add(dst.RawRowView(i), a.RawRowView(i))
	}
}

// addRowVecRows adds b to the rows idx of m.
func addRowVecRows(m *mat.Dense, b []float64, idx []int) {
	eachRow(m.RawMatrix().Rows, idx, func(i int) { vec.Add(m.RawRowView(i), b) })
}

// colSumsRows writes the sum of the rows idx of m (in their order) into
// dst.
func colSumsRows(dst []float64, m *mat.Dense, idx []int) {
	clear(dst)
	eachRow(m.RawMatrix().Rows, idx, func(i int) { vec.Add(dst, m.RawRowView(i)) })
}

// softmaxRowsOf replaces the rows idx of m by their softmax.
func softmaxRowsOf(m *mat.Dense, idx []int) {
	eachRow(m.RawMatrix().Rows, idx, func(i int) {
		row := m.RawRowView(i)
		top := vec.Max(row)
		s := 0.0
		for j, v := range row {
			row[j] = math.Exp(v - top)
			s += row[j]
		}
		vec.Scale(1/s, row)
	})
}

// reluMaskedRows writes max(a, 0) ⊙ m into the rows idx of dst (m nil: no
// mask).
func reluMaskedRows(dst, a, m *mat.Dense, idx []int) {
	if idx == nil {
		reluMasked(dst, a, m)
		return
	}
	for _, i := range idx {
		dd, ad := dst.RawRowView(i), a.RawRowView(i)
		var md []float64
		if m != nil {
			md = m.RawRowView(i)
		}
		for j, v := range ad {
			r := max(v, 0)
			if md != nil {
				r *= md[j]
			}
			dd[j] = r
		}
	}
}

// reluMaskedBackRows replaces the rows idx of d by d ⊙ m ⊙ [a > 0].
func reluMaskedBackRows(d, a, m *mat.Dense, idx []int) {
	if idx == nil {
		reluMaskedBack(d, a, m)
		return
	}
	for _, i := range idx {
		dd, ad := d.RawRowView(i), a.RawRowView(i)
		var md []float64
		if m != nil {
			md = m.RawRowView(i)
		}
		for j, v := range ad {
			switch {
			case v <= 0:
				dd[j] = 0
			case md != nil:
				dd[j] *= md[j]
			}
		}
	}
}

// sortedRows returns idx when it is ascending, else a sorted copy.
func sortedRows(idx []int) []int {
	if idx == nil || slices.IsSorted(idx) {
		return idx
	}
	return slices.Sorted(slices.Values(idx))
}

// crossEntropyGrad returns dst, grown to the shape of prob, holding the
// gradient of the mean cross-entropy of the rows idx (classes y) with
// respect to the logits: (P − Y)/|idx| on those rows, 0 elsewhere.
func crossEntropyGrad(dst, prob *mat.Dense, idx, y []int) *mat.Dense {
	n, c := prob.Dims()
	dst = grow(dst, n, c)
	dst.Zero()
	inv := 1 / float64(len(idx))
	for k, i := range idx {
		row := dst.RawRowView(i)
		for j, v := range prob.RawRowView(i) {
			row[j] = v * inv
		}
		row[y[k]] -= inv
	}
	return dst
}
