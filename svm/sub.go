package svm

import (
	"gonum.org/v1/gonum/mat"
)

// SubGram returns the Gram matrix of the items idx, K[idx, idx], reading
// the upper triangle of k (a symmetric matrix, whatever its type).
func SubGram(k mat.Matrix, idx []int) *mat.SymDense {
	m := len(idx)
	if m == 0 {
		return &mat.SymDense{}
	}
	out := mat.NewSymDense(m, nil)
	for p, i := range idx {
		for q := p; q < m; q++ {
			out.SetSym(p, q, k.At(min(i, idx[q]), max(i, idx[q])))
		}
	}
	return out
}

// SubCross returns K[rows, cols], e.g. test items against training items.
func SubCross(k mat.Matrix, rows, cols []int) *mat.Dense {
	if len(rows) == 0 || len(cols) == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(len(rows), len(cols), nil)
	for p, i := range rows {
		for q, j := range cols {
			out.Set(p, q, k.At(i, j))
		}
	}
	return out
}
