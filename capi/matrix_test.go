package main

import (
	"context"
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/nodeclass"
)

// csr calls matrixFromCSR on Go slices (int32 indptr and indices, as SciPy
// gives them below 2³¹ entries).
func csr(rows, cols int, indptr, indices []int32, data []float64) (*matrixEntry, error) {
	p := func(s []int32) unsafe.Pointer {
		if len(s) == 0 {
			return nil
		}
		return unsafe.Pointer(&s[0])
	}
	var d unsafe.Pointer
	if len(data) > 0 {
		d = unsafe.Pointer(&data[0])
	}
	return matrixFromCSR(int64(rows), int64(cols), int64(len(indices)), p(indptr), 4, p(indices), 4, d, 8)
}

// TestMatrixFromCSR: the CSR view reads the entries a dense copy holds,
// viewing the int32 indices and float64 data and copying the int32
// offsets, and bad structure is an error naming the row and column.
func TestMatrixFromCSR(t *testing.T) {
	indptr := []int32{0, 2, 2, 3}
	indices := []int32{0, 3, 1}
	data := []float64{1.5, -2, 4}
	x, err := csr(3, 4, indptr, indices, data)
	require.NoError(t, err)
	require.Equal(t, []string{"indptr"}, x.copied)
	require.Same(t, &data[0], &x.sparse.Values[0])
	require.Same(t, &indices[0], &x.sparse.Indices[0])
	want := mat.NewDense(3, 4, []float64{1.5, 0, 0, -2, 0, 0, 0, 0, 0, 4, 0, 0})
	require.True(t, mat.Equal(want, x.sparse))

	for _, c := range []struct {
		indptr, indices []int32
		data            []float64
		msg             string
	}{
		{[]int32{1, 2, 2, 3}, indices, data, "indptr[0] = 1"},
		{[]int32{0, 2, 2, 2}, indices, data, "indptr[3] = 2: it must equal nnz = 3"},
		{[]int32{0, 2, 1, 3}, indices, data, "indptr decreases at row 1"},
		{indptr, []int32{0, 4, 1}, data, "row 0: column 4 is out of range [0, 4)"},
		{indptr, []int32{3, 0, 1}, data, "row 0: column 0 after column 3"},
		{indptr, []int32{0, 0, 1}, data, "row 0: column 0 after column 0"},
		{indptr, indices, []float64{1, 2, math.NaN()}, "row 2, column 1: value NaN is not finite"},
	} {
		_, err := csr(3, 4, c.indptr, c.indices, c.data)
		require.ErrorContains(t, err, c.msg)
	}
	_, err = csr(0, 4, []int32{0}, nil, nil)
	require.ErrorContains(t, err, "rows = 0")
}

// TestSparseFeaturesFit: SGC fitted through the C ABI's path on a CSR
// matrix predicts what it predicts on the same matrix dense (to rounding:
// the sparse rows of S^K X come from propagate's sparse walks, the dense
// ones from block products), and a point model refuses the sparse matrix.
func TestSparseFeaturesFit(t *testing.T) {
	g, labels, split, err := cora()
	require.NoError(t, err)
	y := make([]int, len(labels.i64))
	for i, c := range labels.i64 {
		y[i] = -1
		if split.i64[i] == 1 {
			y[i] = int(c)
		}
	}
	ip, ix, d, cols, err := coraFeatures()
	require.NoError(t, err)
	sp, err := matrixFromCSR(int64(ip.rows-1), int64(cols), int64(len(d.f64)), unsafe.Pointer(&ip.i64[0]), 8,
		unsafe.Pointer(&ix.i64[0]), 8, unsafe.Pointer(&d.f64[0]), 8)
	require.NoError(t, err)
	require.Equal(t, []string{"indices"}, sp.copied)
	dense := &matrixEntry{dense: sp.sparse.Dense(nil)}
	ctx := context.Background()
	var got [2][]float64
	for k, x := range []*matrixEntry{sp, dense} {
		e, err := newModel(nodeclass.SGCKind, `{"K": 2}`)
		require.NoError(t, err)
		require.NoError(t, e.fit(ctx, fitData{graph: g, features: x, labels: y}))
		r, err := e.predict(ctx, predictQuery{})
		require.NoError(t, err)
		got[k] = r.f64
	}
	require.Len(t, got[1], len(got[0]))
	require.InDeltaSlice(t, got[0], got[1], 1e-9)

	e, err := newModel("krr.Exact", `{"Kernel": {"type": "kernel.Gaussian", "Sigma": 1}, "Lambda": 0.1}`)
	require.NoError(t, err)
	err = e.fit(ctx, fitData{features: sp, targets: make([]float64, sp.rows())})
	require.ErrorContains(t, err, "takes a dense feature matrix")
}

// TestModelBaseComponent: Correct & Smooth's base model is a hyperparameter
// given by the base's own hyperparameters, shown the same way.
func TestModelBaseComponent(t *testing.T) {
	e, err := newModel(nodeclass.CorrectSmoothKind, `{"Base": {"type": "nodeclass.APPNP", "Alpha": 0.8, "Normalization": "none"}}`)
	require.NoError(t, err)
	b, ok := e.m.(*nodeclass.CorrectSmooth).Base.(*nodeclass.APPNP)
	require.True(t, ok)
	require.Equal(t, 0.8, b.Alpha)
	require.Equal(t, nodeclass.NoNormalization, b.Normalization)
	p, err := getParams(e.m)
	require.NoError(t, err)
	require.Contains(t, string(p), `"Base":{"type":"nodeclass.APPNP","Alpha":0.8,`)
	_, err = newModel(nodeclass.CorrectSmoothKind, `{"Base": {"type": "nodeclass.SGC", "Kay": 3}}`)
	require.ErrorContains(t, err, `nodeclass.SGC has no hyperparameter "Kay"`)
}
