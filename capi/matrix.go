package main

import (
	"fmt"
	"math"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// matrixEntry is a feature matrix handle's object: a dense C-order matrix
// (*mat.Dense) or a CSR matrix (*loaders.Sparse, which the node models of
// features read without densifying), each a view of the caller's arrays
// where the dtype allows it. copied names the arrays that were copied.
type matrixEntry struct {
	dense  *mat.Dense
	sparse *loaders.Sparse
	copied []string
}

// rows returns the matrix's number of rows.
func (x *matrixEntry) rows() int {
	if x.sparse != nil {
		return x.sparse.Rows
	}
	r, _ := x.dense.Dims()
	return r
}

// matrixFromDense views (float64) or copies (float32) a rows×cols C-order
// matrix.
func matrixFromDense(p unsafe.Pointer, elemSize int32, rows, cols int64) (*matrixEntry, error) {
	if p == nil {
		return nil, errorf("matrix_from_dense: the data pointer is NULL")
	}
	d, err := denseView(p, elemSize, rows, cols, "features")
	if err != nil {
		return nil, err
	}
	x := &matrixEntry{dense: d}
	if elemSize != 8 {
		x.copied = []string{"data"}
	}
	return x, nil
}

// matrixFromCSR views or copies a rows×cols CSR matrix: indptr (rows+1
// entries of 4 or 8 bytes; int64 viewed, int32 copied), indices (nnz of 4
// or 8 bytes; int32 viewed, int64 copied), data (nnz float64 viewed or
// float32 copied). It checks the structure as the features reader does:
// indptr from 0, non-decreasing, ending at nnz; columns in [0, cols) and
// strictly ascending in each row; values finite. Errors name the row and
// column.
func matrixFromCSR(rows, cols, nnz int64, indptr unsafe.Pointer, indptrSize int32, indices unsafe.Pointer, indicesSize int32, data unsafe.Pointer, dataSize int32) (*matrixEntry, error) {
	if rows <= 0 || cols <= 0 || nnz < 0 {
		return nil, errorf("matrix_from_csr: rows = %d, cols = %d and nnz = %d: want rows ≥ 1, cols ≥ 1 and nnz ≥ 0", rows, cols, nnz)
	}
	if cols > math.MaxInt32 {
		return nil, errorf("matrix_from_csr: cols = %d is above the int32 range of column indices", cols)
	}
	ip, c1, err := intSlice(indptr, rows+1, indptrSize, "indptr")
	if err != nil {
		return nil, err
	}
	ix, c2, err := int32Slice(indices, nnz, indicesSize, "indices")
	if err != nil {
		return nil, err
	}
	if nnz > 0 && data == nil {
		return nil, errorf("matrix_from_csr: data is NULL with %d entries", nnz)
	}
	v, c3, err := float64Slice(data, nnz, dataSize, "data")
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = []float64{}
	}
	if ip[0] != 0 {
		return nil, errorf("matrix_from_csr: indptr[0] = %d: it must be 0", ip[0])
	}
	if int64(ip[rows]) != nnz {
		return nil, errorf("matrix_from_csr: indptr[%d] = %d: it must equal nnz = %d", rows, ip[rows], nnz)
	}
	for i := range int(rows) {
		lo, hi := ip[i], ip[i+1]
		if hi < lo {
			return nil, errorf("matrix_from_csr: indptr decreases at row %d (%d after %d)", i, hi, lo)
		}
		prev := int32(-1)
		for k := lo; k < hi; k++ {
			c := ix[k]
			if c < 0 || int64(c) >= cols {
				return nil, errorf("matrix_from_csr: row %d: column %d is out of range [0, %d)", i, c, cols)
			}
			if c <= prev {
				return nil, errorf("matrix_from_csr: row %d: column %d after column %d: columns must be strictly ascending (scipy: sum_duplicates() and sort_indices())", i, c, prev)
			}
			if f := v[k]; math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, errorf("matrix_from_csr: row %d, column %d: value %v is not finite", i, c, f)
			}
			prev = c
		}
	}
	x := &matrixEntry{sparse: &loaders.Sparse{Rows: int(rows), Cols: int(cols), Indptr: ip, Indices: ix, Values: v}}
	for i, c := range []bool{c1, c2, c3} {
		if c {
			x.copied = append(x.copied, []string{"indptr", "indices", "data"}[i])
		}
	}
	return x, nil
}

// nodeFeatures returns the matrix as a node model's features, nil for none.
func (x *matrixEntry) nodeFeatures() mat.Matrix {
	switch {
	case x == nil:
		return nil
	case x.sparse != nil:
		return x.sparse
	}
	return x.dense
}

// pointFeatures returns the matrix as a point model's input: point models
// take dense matrices only.
func (x *matrixEntry) pointFeatures(kind string) (*mat.Dense, error) {
	if x == nil {
		return nil, nil
	}
	if x.sparse != nil {
		return nil, fmt.Errorf("%s is a model of points, which takes a dense feature matrix, and a sparse one was given: densify it (X.toarray())", kind)
	}
	return x.dense, nil
}

// denseEntry is matrixFromDense for the feature arguments of gssl_model_fit
// and gssl_model_predict: a NULL pointer gives nil (no features).
func denseEntry(p unsafe.Pointer, elemSize int32, rows, cols int64) (*matrixEntry, error) {
	if p == nil {
		return nil, nil
	}
	return matrixFromDense(p, elemSize, rows, cols)
}

// denseView views (float64) or copies (float32) a rows×cols C-order matrix
// at p; NULL gives nil.
func denseView(p unsafe.Pointer, elemSize int32, rows, cols int64, what string) (*mat.Dense, error) {
	if p == nil {
		return nil, nil
	}
	if rows <= 0 || cols <= 0 {
		return nil, errorf("%s: %d×%d is empty: give at least one row and one column", what, rows, cols)
	}
	v, _, err := float64Slice(p, rows*cols, elemSize, what)
	if err != nil {
		return nil, err
	}
	return mat.NewDense(int(rows), int(cols), v), nil
}
