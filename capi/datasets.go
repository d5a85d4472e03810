package main

import (
	"github.com/gssl/gssl/datasets"
)

// cora returns the embedded Cora (package datasets, the CLI's copy): the
// graph, each node's label, and each node's part of the Planetoid split
// (0 none, 1 train, 2 val, 3 test).
func cora() (*graphEntry, *result, *result, error) {
	ds, err := datasets.Cora()
	if err != nil {
		return nil, nil, nil, err
	}
	n := ds.Graph.Nodes()
	labels := &result{rows: n, cols: 1, i64: make([]int64, n)}
	for i, c := range ds.Labels {
		labels.i64[i] = int64(c)
	}
	split := &result{rows: n, cols: 1, i64: make([]int64, n)}
	if ds.Split != nil {
		for part, idx := range [][]int{ds.Split.Train, ds.Split.Val, ds.Split.Test} {
			for _, i := range idx {
				split.i64[i] = int64(part + 1)
			}
		}
	}
	ids := ds.IDs
	if ids != nil && ids.IsIdentity() {
		ids = nil
	}
	return newGraphEntry(ds.Graph, ids, nil, nil), labels, split, nil
}

// coraFeatures returns the embedded Cora's sparse bag-of-words features
// (the CLI's copy) as three results: indptr (n+1 int64), indices (int64)
// and data (float64), and the number of columns.
func coraFeatures() (indptr, indices, data *result, cols int, err error) {
	ds, err := datasets.Cora()
	if err != nil {
		return nil, nil, nil, 0, err
	}
	f := ds.Features
	if f == nil {
		return nil, nil, nil, 0, errorf("the embedded Cora has no features")
	}
	indptr = &result{rows: len(f.Indptr), cols: 1, i64: make([]int64, len(f.Indptr))}
	for i, v := range f.Indptr {
		indptr.i64[i] = int64(v)
	}
	indices = &result{rows: len(f.Indices), cols: 1, i64: make([]int64, len(f.Indices))}
	for i, v := range f.Indices {
		indices.i64[i] = int64(v)
	}
	data = &result{rows: len(f.Values), cols: 1, f64: append([]float64{}, f.Values...)}
	return indptr, indices, data, f.Cols, nil
}
