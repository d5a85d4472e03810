package main

import (
	"context"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/nodeids"
)

// graphEntry is a graph handle's object. The graph may be a view of the
// caller's arrays or of a mapped file; refs counts the handle and the
// models fitted on it, and the file is unmapped when the last goes.
type graphEntry struct {
	g   *graph.CSR
	ids *nodeids.Map // nil means 0..n−1

	mu    sync.Mutex
	refs  int
	close func() error // unmaps a .gsg file; nil otherwise
	// copied names the input arrays that were copied rather than viewed
	// (gssl_graph_copied; the Python tests check it stays empty for the
	// dtypes read in place).
	copied []string
}

func newGraphEntry(g *graph.CSR, ids *nodeids.Map, close func() error, copied []string) *graphEntry {
	return &graphEntry{g: g, ids: ids, refs: 1, close: close, copied: copied}
}

func (e *graphEntry) acquire() {
	e.mu.Lock()
	e.refs++
	e.mu.Unlock()
}

// release drops one reference and unmaps the file with the last.
func (e *graphEntry) release() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.refs--
	if e.refs == 0 && e.close != nil {
		err := e.close()
		e.close = nil
		return err
	}
	return nil
}

// intSlice views or copies an array of n integers of elemSize bytes (4 or
// 8) at p as []int. It reports whether it copied.
func intSlice(p unsafe.Pointer, n int64, elemSize int32, what string) ([]int, bool, error) {
	if n == 0 {
		return []int{}, false, nil
	}
	if p == nil {
		return nil, false, fmt.Errorf("%s is NULL with %d entries", what, n)
	}
	switch elemSize {
	case 8:
		if unsafe.Sizeof(int(0)) == 8 {
			return unsafe.Slice((*int)(p), n), false, nil
		}
		src := unsafe.Slice((*int64)(p), n)
		out := make([]int, n)
		for i, v := range src {
			if int64(int(v)) != v {
				return nil, true, fmt.Errorf("%s[%d] = %d does not fit this platform's int", what, i, v)
			}
			out[i] = int(v)
		}
		return out, true, nil
	case 4:
		src := unsafe.Slice((*int32)(p), n)
		out := make([]int, n)
		for i, v := range src {
			out[i] = int(v)
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("%s: element size %d is invalid: want 4 (int32) or 8 (int64)", what, elemSize)
}

// int32Slice views (int32) or copies (int64) column indices at p.
func int32Slice(p unsafe.Pointer, n int64, elemSize int32, what string) ([]int32, bool, error) {
	if n == 0 {
		return []int32{}, false, nil
	}
	if p == nil {
		return nil, false, fmt.Errorf("%s is NULL with %d entries", what, n)
	}
	switch elemSize {
	case 4:
		return unsafe.Slice((*int32)(p), n), false, nil
	case 8:
		src := unsafe.Slice((*int64)(p), n)
		out := make([]int32, n)
		for i, v := range src {
			if int64(int32(v)) != v {
				return nil, true, fmt.Errorf("%s[%d] = %d is out of the int32 range of node numbers", what, i, v)
			}
			out[i] = int32(v)
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("%s: element size %d is invalid: want 4 (int32) or 8 (int64)", what, elemSize)
}

// float64Slice views (float64) or copies (float32) n values at p; a NULL p
// gives nil.
func float64Slice(p unsafe.Pointer, n int64, elemSize int32, what string) ([]float64, bool, error) {
	if p == nil {
		return nil, false, nil
	}
	switch elemSize {
	case 8:
		return unsafe.Slice((*float64)(p), n), false, nil
	case 4:
		src := unsafe.Slice((*float32)(p), n)
		out := make([]float64, n)
		for i, v := range src {
			out[i] = float64(v)
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("%s: element size %d is invalid: want 4 (float32) or 8 (float64)", what, elemSize)
}

// graphFromCSR builds a graph over CSR arrays (see gssl_graph_from_csr).
func graphFromCSR(n, nnz int64, indptr unsafe.Pointer, indptrSize int32, indices unsafe.Pointer, indicesSize int32, data unsafe.Pointer, dataSize int32) (*graphEntry, error) {
	if n < 0 || nnz < 0 {
		return nil, fmt.Errorf("graph_from_csr: n = %d and nnz = %d must be ≥ 0", n, nnz)
	}
	var copied []string
	ip, c1, err := intSlice(indptr, n+1, indptrSize, "indptr")
	if err != nil {
		return nil, err
	}
	ix, c2, err := int32Slice(indices, nnz, indicesSize, "indices")
	if err != nil {
		return nil, err
	}
	w, c3, err := float64Slice(data, nnz, dataSize, "data")
	if err != nil {
		return nil, err
	}
	for i, c := range []bool{c1, c2, c3} {
		if c {
			copied = append(copied, []string{"indptr", "indices", "data"}[i])
		}
	}
	g, err := graph.FromCSRArrays(int(n), graph.CSRArrays{Indptr: ip, Indices: ix, Weights: w})
	if err != nil {
		return nil, err
	}
	return newGraphEntry(g, nil, nil, copied), nil
}

// graphFromEdges builds a graph from m edges src[k]–dst[k] with optional
// weights (see gssl_graph_from_edges).
func graphFromEdges(n, m int64, src, dst unsafe.Pointer, idSize int32, weight unsafe.Pointer, weightSize int32, symmetrize, duplicates int32) (*graphEntry, error) {
	if n < 0 || m < 0 {
		return nil, fmt.Errorf("graph_from_edges: n = %d and m = %d must be ≥ 0", n, m)
	}
	u, _, err := intSlice(src, m, idSize, "src")
	if err != nil {
		return nil, err
	}
	v, _, err := intSlice(dst, m, idSize, "dst")
	if err != nil {
		return nil, err
	}
	w, _, err := float64Slice(weight, m, weightSize, "weight")
	if err != nil {
		return nil, err
	}
	if symmetrize < 0 || symmetrize > int32(graph.DirectedMutual) {
		return nil, fmt.Errorf("graph_from_edges: symmetrize = %d is invalid: want 0 (undirected), 1 (max), 2 (sum), 3 (mean) or 4 (mutual)", symmetrize)
	}
	if duplicates < 0 || duplicates > int32(graph.DuplicateMax) {
		return nil, fmt.Errorf("graph_from_edges: duplicates = %d is invalid: want 0 (error), 1 (sum) or 2 (max)", duplicates)
	}
	opt := graph.Options{Symmetrize: graph.Symmetrization(symmetrize), Duplicates: graph.DuplicatePolicy(duplicates)}
	g, err := graph.FromCOO(int(n), u, v, w, opt)
	if err != nil {
		return nil, err
	}
	return newGraphEntry(g, nil, nil, nil), nil
}

// graphLoad maps a .gsg file.
func graphLoad(path string) (*graphEntry, error) {
	f, err := graphfile.Open(path)
	if err != nil {
		return nil, err
	}
	ids := f.IDs
	if ids != nil && ids.IsIdentity() {
		ids = nil
	}
	return newGraphEntry(f.Graph, ids, f.Close, nil), nil
}

// setIDs names the nodes of e by strings (blob, with n+1 offsets) or, when
// blob is NULL, by the n int64 ids at ints.
func (e *graphEntry) setIDs(blob unsafe.Pointer, offsets unsafe.Pointer, ints unsafe.Pointer, n int64) error {
	if int(n) != e.g.Nodes() {
		return fmt.Errorf("graph_set_ids: %d ids for a graph of %d nodes", n, e.g.Nodes())
	}
	if n == 0 {
		return nil
	}
	var ids *nodeids.Map
	var err error
	if blob == nil {
		if ints == nil {
			return fmt.Errorf("graph_set_ids: no ids given")
		}
		ids, err = nodeids.FromInts(append([]int64(nil), unsafe.Slice((*int64)(ints), n)...))
	} else {
		off := unsafe.Slice((*int64)(offsets), n+1)
		if off[0] != 0 {
			return fmt.Errorf("graph_set_ids: offsets[0] = %d, want 0", off[0])
		}
		b := unsafe.Slice((*byte)(blob), off[n])
		names := make([]string, n)
		for i := range names {
			if off[i+1] < off[i] {
				return fmt.Errorf("graph_set_ids: offsets decrease at %d", i)
			}
			names[i] = string(b[off[i]:off[i+1]])
		}
		ids, err = nodeids.FromStrings(names)
	}
	if err != nil {
		return err
	}
	e.ids = ids
	return nil
}

// toCSR copies the graph's arrays into caller buffers of n+1, nnz and nnz
// entries (data NULL: skipped).
func (e *graphEntry) toCSR(indptr *int64, indices *int32, data *float64) {
	a := e.g.Arrays()
	n, nnz := e.g.Nodes(), e.g.NNZ()
	ip := unsafe.Slice(indptr, n+1)
	for i, v := range a.Indptr {
		ip[i] = int64(v)
	}
	if nnz == 0 {
		return
	}
	copy(unsafe.Slice(indices, nnz), a.Indices)
	if data != nil {
		d := unsafe.Slice(data, nnz)
		if a.Weights == nil {
			for i := range d {
				d[i] = 1
			}
		} else {
			copy(d, a.Weights)
		}
	}
}

// graphFromKNN builds the K-nearest-neighbour graph of the rows of x
// (exact search, package knngraph): sigma 0 gives the 0/1 adjacency,
// sigma > 0 the Gaussian weights exp(−d²/(2σ²)) with unit self loops, and
// sigma < 0 those weights at the default σ, the median distance to the
// K-th neighbour. mutual keeps only pairs that are among each other's K
// nearest.
func graphFromKNN(ctx context.Context, x *mat.Dense, k int, mutual bool, sigma float64) (*graphEntry, error) {
	if x == nil {
		return nil, fmt.Errorf("graph_from_knn: no points")
	}
	if n, _ := x.Dims(); k < 1 || k >= n {
		return nil, fmt.Errorf("graph_from_knn: k = %d is invalid: it must be in [1, %d) for %d points", k, n, n)
	}
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("graph_from_knn: sigma = %v is invalid: it must be finite (0: unweighted, < 0: the median K-th distance)", sigma)
	}
	nb, err := knngraph.Exact(ctx, x, k, nil)
	if err != nil {
		return nil, err
	}
	rule := knngraph.Or
	if mutual {
		rule = knngraph.Mutual
	}
	kg, err := knngraph.NewGraph(nb, rule)
	if err != nil {
		return nil, err
	}
	var g *graph.CSR
	switch {
	case sigma == 0:
		g, err = kg.Adjacency()
	case sigma < 0:
		g, err = kg.Affinity(kg.DefaultAlpha())
	default:
		g, err = kg.Affinity(knngraph.GaussianAlpha(sigma))
	}
	if err != nil {
		return nil, err
	}
	return newGraphEntry(g, nil, nil, nil), nil
}
