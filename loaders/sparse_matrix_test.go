package loaders

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSparseMatrix checks Dims, At and T against the dense copy written by
// DenseRow's scatter.
func TestSparseMatrix(t *testing.T) {
	s := &Sparse{Rows: 3, Cols: 4, Indptr: []int{0, 2, 2, 5}, Indices: []int32{1, 3, 0, 2, 3}, Values: []float64{1.5, -2, 3, 0, 7}}
	d := s.Dense(nil)
	if r, c := s.Dims(); r != 3 || c != 4 {
		t.Fatalf("Dims = %d×%d, want 3×4", r, c)
	}
	if !mat.Equal(s, d) {
		t.Fatalf("At disagrees with Dense:\n%v\n%v", mat.Formatted(s), mat.Formatted(d))
	}
	if !mat.Equal(s.T(), d.T()) {
		t.Fatalf("T disagrees with Dense.T")
	}
	for _, ij := range [][2]int{{-1, 0}, {3, 0}, {0, 4}, {0, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At(%d, %d) did not panic", ij[0], ij[1])
				}
			}()
			s.At(ij[0], ij[1])
		}()
	}
}
