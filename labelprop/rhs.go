package labelprop

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// sparseRHS is an n×c right-hand side B by its nonzero rows: rows in
// increasing order and their c values each (vals[p·c + j] = B_{rows[p], j}).
// Label spreading's B = (1 − a)Y has one nonzero per labelled node, so it
// needs no n×c block.
type sparseRHS struct {
	c    int
	rows []int
	vals []float64
	// reached, when not nil, marks the nodes with a path to a nonzero row
	// (the CG's deflation computes it from the graph otherwise).
	reached []bool
}

// denseRHS returns the nonzero rows of b.
func denseRHS(b *mat.Dense) sparseRHS {
	n, c := b.Dims()
	r := sparseRHS{c: c}
	for i := 0; i < n; i++ {
		row := b.RawRowView(i)[:c]
		for _, v := range row {
			if v != 0 {
				r.rows = append(r.rows, i)
				r.vals = append(r.vals, row...)
				break
			}
		}
	}
	return r
}

// seedRHS returns B = w·Y for the labelled nodes of s (Y one-hot).
func seedRHS(s *seeds, w float64) sparseRHS {
	r := sparseRHS{c: s.classes, rows: append([]int(nil), s.nodes...)}
	sort.Ints(r.rows)
	r.vals = make([]float64, len(r.rows)*s.classes)
	for p, v := range r.rows {
		r.vals[p*s.classes+int(s.class[v])] = w
	}
	return r
}

// norms returns ‖B_j‖₂ per column.
func (r sparseRHS) norms() []float64 {
	out := make([]float64, r.c)
	for p := range r.rows {
		for j, v := range r.vals[p*r.c : p*r.c+r.c] {
			out[j] += v * v
		}
	}
	for j := range out {
		out[j] = math.Sqrt(out[j])
	}
	return out
}

// chunks returns, for every chunk of spreadRowChunk rows of n, the index in
// rows of its first nonzero row (len(rows) when none follows).
func (r sparseRHS) chunks(n int) []int {
	var out []int
	for lo := 0; lo < n; lo += spreadRowChunk {
		out = append(out, sort.SearchInts(r.rows, lo))
	}
	return out
}
