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
