package main

/*
#include <stdint.h>
#include <stddef.h>

// gssl_progress receives a long call's progress: the iteration and the
// residual (or objective) the model reports.
typedef void (*gssl_progress)(int64_t iteration, double value);

static void gssl_call_progress(gssl_progress f, int64_t iteration, double value) { f(iteration, value); }
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/savedmodel"
)

// abiVersion is the version of the C functions below: it changes whenever
// a signature or the meaning of a code changes.
const abiVersion = 2

func main() {}

//export gssl_abi_version
func gssl_abi_version() C.int32_t { return abiVersion }

//export gssl_call_new
func gssl_call_new() C.int64_t { return C.int64_t(handles.put(newCall())) }

//export gssl_call_cancel
func gssl_call_cancel(ch C.int64_t) {
	if c, err := lookup[*call](int64(ch), "call"); err == nil {
		c.cancel()
	}
}

// gssl_call_error copies the last error's message (UTF-8, no terminating
// zero) into buf, at most cap bytes, and returns its full length; −1 for a
// stale handle.
//
//export gssl_call_error
func gssl_call_error(ch C.int64_t, buf *C.char, capacity C.int64_t) C.int64_t {
	c, err := lookup[*call](int64(ch), "call")
	if err != nil {
		return -1
	}
	c.mu.Lock()
	msg := c.msg
	c.mu.Unlock()
	if buf != nil && capacity > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(capacity)), msg)
	}
	return C.int64_t(len(msg))
}

// gssl_free releases any handle; it returns a status code (a graph file
// that fails to unmap is GSSL_EIO; its message goes to call ch when ch is
// a live call).
//
//export gssl_free
func gssl_free(h C.int64_t) C.int32_t {
	v, ok := handles.remove(int64(h))
	if !ok {
		return codeHandle
	}
	var err error
	switch x := v.(type) {
	case *graphEntry:
		err = x.release()
	case *modelEntry:
		err = x.release()
	case *call:
		x.cancel()
	}
	return C.int32_t(codeOf(err))
}

//export gssl_live_handles
func gssl_live_handles() C.int64_t { return C.int64_t(handles.len()) }

// gssl_result_info reports a result's dtype (1 float64, 2 int64, 3 bytes),
// its shape and its size in bytes.
//
//export gssl_result_info
func gssl_result_info(ch, h C.int64_t, dtype *C.int32_t, rows, cols, nbytes *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		r, err := lookup[*result](int64(h), "result")
		if err != nil {
			return err
		}
		*dtype, *rows, *cols, *nbytes = C.int32_t(r.dtype()), C.int64_t(r.rows), C.int64_t(r.cols), C.int64_t(r.nbytes())
		return nil
	})
}

// gssl_result_copy copies a result's data into dst, which holds nbytes
// bytes (gssl_result_info's size).
//
//export gssl_result_copy
func gssl_result_copy(ch, h C.int64_t, dst unsafe.Pointer, nbytes C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		r, err := lookup[*result](int64(h), "result")
		if err != nil {
			return err
		}
		if int(nbytes) != r.nbytes() {
			return errorf("result_copy: the buffer has %d bytes for a result of %d", nbytes, r.nbytes())
		}
		if nbytes == 0 {
			return nil
		}
		out := unsafe.Slice((*byte)(dst), int(nbytes))
		switch r.dtype() {
		case dtypeFloat64:
			copy(out, unsafe.Slice((*byte)(unsafe.Pointer(&r.f64[0])), nbytes))
		case dtypeInt64:
			copy(out, unsafe.Slice((*byte)(unsafe.Pointer(&r.i64[0])), nbytes))
		default:
			copy(out, r.bytes)
		}
		return nil
	})
}

// ---- graphs ----

// gssl_graph_from_csr builds a graph on n nodes from CSR arrays: indptr
// (n+1 entries of 4 or 8 bytes), indices (nnz entries of 4 or 8 bytes),
// data (nnz float64 or float32 weights; NULL: every weight 1). int64
// indptr, int32 indices and float64 data are views: keep them alive and
// unmodified until the handle is freed; the others are copied. W must be
// symmetric with ascending columns in each row.
//
//export gssl_graph_from_csr
func gssl_graph_from_csr(ch, n, nnz C.int64_t, indptr unsafe.Pointer, indptrSize C.int32_t, indices unsafe.Pointer, indicesSize C.int32_t, data unsafe.Pointer, dataSize C.int32_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := graphFromCSR(int64(n), int64(nnz), indptr, int32(indptrSize), indices, int32(indicesSize), data, int32(dataSize))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_graph_from_edges builds a graph on n nodes from m edges src[k]–dst[k]
// (node numbers of 4 or 8 bytes), with weights (float64 or float32; NULL:
// 1). symmetrize: 0 undirected edges, 1 max, 2 sum, 3 mean, 4 mutual of
// arcs; duplicates: 0 error, 1 sum, 2 max. The arrays are read during the
// call only.
//
//export gssl_graph_from_edges
func gssl_graph_from_edges(ch, n, m C.int64_t, src, dst unsafe.Pointer, idSize C.int32_t, weight unsafe.Pointer, weightSize, symmetrize, duplicates C.int32_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := graphFromEdges(int64(n), int64(m), src, dst, int32(idSize), weight, int32(weightSize), int32(symmetrize), int32(duplicates))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_graph_from_knn builds the K-nearest-neighbour graph of the rows of
// a rows×cols C-order matrix (float64 read during the call, float32
// copied), by exact search, under call ch (cancellable): sigma 0 for 0/1
// weights, > 0 for exp(−d²/(2σ²)) with unit self loops, < 0 for that at σ
// the median distance to the K-th neighbour; mutual ≠ 0 keeps only mutual
// neighbours.
//
//export gssl_graph_from_knn
func gssl_graph_from_knn(ch C.int64_t, x unsafe.Pointer, elemSize C.int32_t, rows, cols, k C.int64_t, mutual C.int32_t, sigma C.double, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		m, err := denseView(x, int32(elemSize), int64(rows), int64(cols), "points")
		if err != nil {
			return err
		}
		e, err := graphFromKNN(c.ctx, m, int(k), mutual != 0, float64(sigma))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_graph_set_ids names a graph's nodes: n strings as one UTF-8 blob
// with n+1 int64 offsets, or (blob NULL) n int64 ids. Copied.
//
//export gssl_graph_set_ids
func gssl_graph_set_ids(ch, g C.int64_t, blob, offsets, ints unsafe.Pointer, n C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		return e.setIDs(blob, offsets, ints, int64(n))
	})
}

// gssl_graph_ids returns a result of the node ids as one JSON array of
// strings (an empty array for 0..n−1).
//
//export gssl_graph_ids
func gssl_graph_ids(ch, g C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		b, err := idsJSON(e.ids)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// gssl_graph_load maps a .gsg graph file (package graphfile) after checking
// it; the file stays mapped until the handle and every model fitted on it
// are freed.
//
//export gssl_graph_load
func gssl_graph_load(ch C.int64_t, path *C.char, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := graphLoad(C.GoString(path))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_graph_shape reports the nodes and stored entries of a graph.
//
//export gssl_graph_shape
func gssl_graph_shape(ch, g C.int64_t, n, nnz *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		*n, *nnz = C.int64_t(e.g.Nodes()), C.int64_t(e.g.NNZ())
		return nil
	})
}

// gssl_graph_to_csr copies a graph's CSR arrays into caller buffers of n+1
// int64, nnz int32 and nnz float64 entries (data NULL: skipped).
//
//export gssl_graph_to_csr
func gssl_graph_to_csr(ch, g C.int64_t, indptr *C.int64_t, indices *C.int32_t, data *C.double) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		e.toCSR((*int64)(unsafe.Pointer(indptr)), (*int32)(unsafe.Pointer(indices)), (*float64)(unsafe.Pointer(data)))
		return nil
	})
}

// gssl_graph_copied returns a result holding the names of the input arrays
// the graph copied, comma-separated (empty: every array is a view).
//
//export gssl_graph_copied
func gssl_graph_copied(ch, g C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		b := []byte(joinComma(e.copied))
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// gssl_graph_data_address returns the address of the graph's weight array
// (0 for unit weights): a test compares it with the caller's array to show
// that nothing was copied.
//
//export gssl_graph_data_address
func gssl_graph_data_address(ch, g C.int64_t, addr *C.uintptr_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*graphEntry](int64(g), "graph")
		if err != nil {
			return err
		}
		*addr = 0
		if w := e.g.Arrays().Weights; len(w) > 0 {
			*addr = C.uintptr_t(uintptr(unsafe.Pointer(&w[0])))
		}
		return nil
	})
}

// gssl_dataset_cora returns the embedded Cora: a graph, a result of its
// labels and a result of each node's split part (0 none, 1 train, 2 val,
// 3 test; the Planetoid split).
//
//export gssl_dataset_cora
func gssl_dataset_cora(ch C.int64_t, g, labels, split *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, l, s, err := cora()
		if err != nil {
			return err
		}
		*g, *labels, *split = C.int64_t(handles.put(e)), C.int64_t(handles.put(l)), C.int64_t(handles.put(s))
		return nil
	})
}

// gssl_dataset_cora_features returns the embedded Cora's sparse features
// (the rows of gssl_dataset_cora's nodes) as results of the CSR arrays
// indptr and indices (int64) and data (float64), and the number of
// columns.
//
//export gssl_dataset_cora_features
func gssl_dataset_cora_features(ch C.int64_t, indptr, indices, data, cols *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		p, i, d, c, err := coraFeatures()
		if err != nil {
			return err
		}
		*indptr, *indices, *data, *cols = C.int64_t(handles.put(p)), C.int64_t(handles.put(i)), C.int64_t(handles.put(d)), C.int64_t(c)
		return nil
	})
}

// ---- models ----

// gssl_kinds returns a result of a JSON array describing every model kind:
// its kind, role, default hyperparameters, whether it can be saved, and for
// a classifier "output": "probabilities" or "decision_values", what its
// predictions hold with the default hyperparameters.
//
//export gssl_kinds
func gssl_kinds(ch C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		b, err := kindsJSON()
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// gssl_model_new makes an unfitted model of a kind with the hyperparameters
// of a JSON object (Go field names; NULL or "" for the defaults).
//
//export gssl_model_new
func gssl_model_new(ch C.int64_t, kind, params *C.char, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		p := ""
		if params != nil {
			p = C.GoString(params)
		}
		e, err := newModel(C.GoString(kind), p)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_model_role returns a model's role (0 none, 1 node classifier, 2 node
// regressor, 3 node transformer, 4 node clusterer, 5 point classifier, 6
// point regressor, 7 point transformer, 8 graph classifier), −1 for a bad
// handle.
//
//export gssl_model_role
func gssl_model_role(m C.int64_t) C.int32_t {
	e, err := lookup[*modelEntry](int64(m), "model")
	if err != nil {
		return -1
	}
	return C.int32_t(e.role)
}

// gssl_model_info returns a result of a JSON object describing the model
// (kind, role, a classifier's output as its hyperparameters declare it,
// hyperparameters, the last fit's info, class names, ids).
//
//export gssl_model_info
func gssl_model_info(ch, m C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		b, err := e.info()
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// gssl_model_set_context records the class names and data name (a JSON
// object {"class_names": [...], "data": "..."}) saved with the model.
//
//export gssl_model_set_context
func gssl_model_set_context(ch, m C.int64_t, js *C.char) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		return e.setContext([]byte(C.GoString(js)))
	})
}

// gssl_model_fit fits a model under call ch (cancellable): on graph g
// (node roles; 0 for point roles), with features (rows×cols, C order,
// float64 read in place or float32 copied; NULL for none), and labels
// (int64, −1 unknown; classifiers) or targets (float64, NaN unknown;
// regressors) of ny entries. Arrays read in place must stay alive and
// unmodified until the model is freed or refitted. progress, when not NULL
// and the model reports progress (a Progress field), is called during the
// fit, on the fitting thread, and never after the call returns.
//
//export gssl_model_fit
func gssl_model_fit(ch, m, g C.int64_t, features unsafe.Pointer, featureSize C.int32_t, rows, cols C.int64_t, labels *C.int64_t, targets *C.double, ny C.int64_t, progress C.gssl_progress) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var d fitData
		if g != 0 {
			if d.graph, err = lookup[*graphEntry](int64(g), "graph"); err != nil {
				return err
			}
		}
		if d.features, err = denseEntry(features, int32(featureSize), int64(rows), int64(cols)); err != nil {
			return err
		}
		d.labels, d.targets = fitTargets(labels, targets, int64(ny))
		if progress != nil {
			restore, _ := setProgress(e.m, func(it int64, v float64) { C.gssl_call_progress(progress, C.int64_t(it), C.double(v)) })
			defer restore()
		}
		return e.fit(c.ctx, d)
	})
}

// gssl_model_predict predicts under call ch (cancellable) and returns a
// result. Node roles: the fitted nodes when nnew < 0; else nnew new nodes
// given by their edges to fitted nodes in CSR form (offsets: nnew+1 int64;
// nodes: int32 or int64 of idSize bytes; weights: float64 or NULL for 1),
// with their feature rows (or NULL). Point roles: the points of features
// (NULL: the fitted points).
//
//export gssl_model_predict
func gssl_model_predict(ch, m, nnew C.int64_t, offsets *C.int64_t, nodes unsafe.Pointer, idSize C.int32_t, weights *C.double, features unsafe.Pointer, featureSize C.int32_t, rows, cols C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var q predictQuery
		if q.features, err = denseEntry(features, int32(featureSize), int64(rows), int64(cols)); err != nil {
			return err
		}
		if q.newNodes, err = newNodes(int64(nnew), offsets, nodes, int32(idSize), weights); err != nil {
			return err
		}
		r, err := e.predict(c.ctx, q)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}

// newNodes views the new nodes of a predict call (nil when nnew < 0).
func newNodes(nnew int64, offsets *C.int64_t, nodes unsafe.Pointer, idSize int32, weights *C.double) (*estimator.NewNodes, error) {
	if nnew < 0 {
		return nil, nil
	}
	off, _, err := intSlice(unsafe.Pointer(offsets), nnew+1, 8, "offsets")
	if err != nil {
		return nil, err
	}
	if len(off) == 0 || off[0] != 0 {
		return nil, errorf("predict: offsets must start at 0")
	}
	nnz := int64(off[len(off)-1])
	if nnz < 0 {
		return nil, errorf("predict: offsets end at %d: it must be ≥ 0", nnz)
	}
	nb, _, err := int32Slice(nodes, nnz, idSize, "nodes")
	if err != nil {
		return nil, err
	}
	var w []float64
	if weights != nil {
		w = unsafe.Slice((*float64)(unsafe.Pointer(weights)), nnz)
	}
	return &estimator.NewNodes{Offsets: off, Nodes: nb, Weights: w}, nil
}

// ---- feature matrices ----

// gssl_matrix_from_dense makes a feature matrix handle over a rows×cols
// C-order matrix (float64 viewed, float32 copied). A view must stay alive
// and unmodified until the handle and every model fitted on it are freed.
//
//export gssl_matrix_from_dense
func gssl_matrix_from_dense(ch C.int64_t, data unsafe.Pointer, elemSize C.int32_t, rows, cols C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		x, err := matrixFromDense(data, int32(elemSize), int64(rows), int64(cols))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(x))
		return nil
	})
}

// gssl_matrix_from_csr makes a feature matrix handle over a rows×cols CSR
// matrix: indptr (rows+1 entries of 4 or 8 bytes), indices (nnz of 4 or 8
// bytes, strictly ascending in each row), data (nnz float64 or float32).
// int64 indptr, int32 indices and float64 data are views (keep them alive
// and unmodified until the handle and every model fitted on it are freed);
// the others are copied. The node models of features read it without
// densifying it.
//
//export gssl_matrix_from_csr
func gssl_matrix_from_csr(ch, rows, cols, nnz C.int64_t, indptr unsafe.Pointer, indptrSize C.int32_t, indices unsafe.Pointer, indicesSize C.int32_t, data unsafe.Pointer, dataSize C.int32_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		x, err := matrixFromCSR(int64(rows), int64(cols), int64(nnz), indptr, int32(indptrSize), indices, int32(indicesSize), data, int32(dataSize))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(x))
		return nil
	})
}

// gssl_matrix_copied returns a result holding the names of the input
// arrays the matrix copied, comma-separated (empty: every array is a view).
//
//export gssl_matrix_copied
func gssl_matrix_copied(ch, x C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		m, err := lookup[*matrixEntry](int64(x), "matrix")
		if err != nil {
			return err
		}
		b := []byte(joinComma(m.copied))
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// lookupMatrix returns matrix handle x's object, nil for handle 0.
func lookupMatrix(x C.int64_t) (*matrixEntry, error) {
	if x == 0 {
		return nil, nil
	}
	return lookup[*matrixEntry](int64(x), "matrix")
}

// gssl_model_fit_matrix is gssl_model_fit with the features given as a
// matrix handle x (dense or CSR; 0 for none).
//
//export gssl_model_fit_matrix
func gssl_model_fit_matrix(ch, m, g, x C.int64_t, labels *C.int64_t, targets *C.double, ny C.int64_t, progress C.gssl_progress) C.int32_t {
	return gssl_model_fit_held_out(ch, m, g, x, labels, targets, ny, nil, -1, progress)
}

// gssl_model_fit_held_out is gssl_model_fit_matrix telling a model that
// calibrates itself (confidence.Classifier) which labelled nodes to hold
// out of its fit and calibrate on: nheld node numbers (int64) at heldOut.
// nheld < 0 means none given (the model draws its own); any other model
// refuses held-out nodes.
//
//export gssl_model_fit_held_out
func gssl_model_fit_held_out(ch, m, g, x C.int64_t, labels *C.int64_t, targets *C.double, ny C.int64_t, heldOut *C.int64_t, nheld C.int64_t, progress C.gssl_progress) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var d fitData
		if g != 0 {
			if d.graph, err = lookup[*graphEntry](int64(g), "graph"); err != nil {
				return err
			}
		}
		if d.features, err = lookupMatrix(x); err != nil {
			return err
		}
		d.labels, d.targets = fitTargets(labels, targets, int64(ny))
		if nheld >= 0 {
			if nheld > 0 && heldOut == nil {
				return errorf("fit: %d held-out nodes at a NULL pointer", nheld)
			}
			d.heldOut = make([]int, nheld)
			if nheld > 0 {
				for i, v := range unsafe.Slice((*int64)(unsafe.Pointer(heldOut)), int(nheld)) {
					d.heldOut[i] = int(v)
				}
			}
		}
		if progress != nil {
			restore, _ := setProgress(e.m, func(it int64, v float64) { C.gssl_call_progress(progress, C.int64_t(it), C.double(v)) })
			defer restore()
		}
		return e.fit(c.ctx, d)
	})
}

// gssl_model_predict_matrix is gssl_model_predict with the features given
// as a matrix handle x (dense or CSR; 0 for none).
//
//export gssl_model_predict_matrix
func gssl_model_predict_matrix(ch, m, nnew C.int64_t, offsets *C.int64_t, nodes unsafe.Pointer, idSize C.int32_t, weights *C.double, x C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var q predictQuery
		if q.features, err = lookupMatrix(x); err != nil {
			return err
		}
		if q.newNodes, err = newNodes(int64(nnew), offsets, nodes, int32(idSize), weights); err != nil {
			return err
		}
		r, err := e.predict(c.ctx, q)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}

// gssl_model_predict_into is gssl_model_predict_matrix writing the result
// straight into dst, a buffer of capacity bytes (8-byte aligned), when it
// fits: then *out is 0. A result that does not fit is returned as a result
// handle in *out, as gssl_model_predict_matrix does. Either way *dtype,
// *rows and *cols are the result's (gssl_result_info's). One call thus
// predicts and copies out, with no result handle and no second copy.
//
//export gssl_model_predict_into
func gssl_model_predict_into(ch, m, nnew C.int64_t, offsets *C.int64_t, nodes unsafe.Pointer, idSize C.int32_t, weights *C.double, x C.int64_t,
	dst unsafe.Pointer, capacity C.int64_t, dtype *C.int32_t, rows, cols, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		if dst != nil && uintptr(dst)%8 != 0 {
			return errorf("predict_into: dst %p is not 8-byte aligned", dst)
		}
		var q predictQuery
		if q.features, err = lookupMatrix(x); err != nil {
			return err
		}
		if q.newNodes, err = newNodes(int64(nnew), offsets, nodes, int32(idSize), weights); err != nil {
			return err
		}
		shape, r, err := e.predictInto(c.ctx, q, dst, int(max(capacity, 0)))
		if err != nil {
			return err
		}
		*dtype, *rows, *cols, *out = C.int32_t(shape.dtype), C.int64_t(shape.rows), C.int64_t(shape.cols), 0
		if r != nil {
			*out = C.int64_t(handles.put(r))
		}
		return nil
	})
}

// gssl_model_predict_sets returns the conformal prediction sets of a
// calibrated classifier (confidence.Classifier, or a model file with a
// calibration) as an int64 result, one row per node and one column per
// class: the set's classes in decreasing probability, then −1. The nodes
// are those of gssl_model_predict_matrix; new nodes are named by their ids
// (n UTF-8 strings as one blob with nnew+1 int64 offsets), which draw their
// sets' uniforms as gssl predict and serve do.
//
//export gssl_model_predict_sets
func gssl_model_predict_sets(ch, m, nnew C.int64_t, offsets *C.int64_t, nodes unsafe.Pointer, idSize C.int32_t, weights *C.double, x C.int64_t,
	idBlob unsafe.Pointer, idOffsets *C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var q predictQuery
		if q.features, err = lookupMatrix(x); err != nil {
			return err
		}
		if q.newNodes, err = newNodes(int64(nnew), offsets, nodes, int32(idSize), weights); err != nil {
			return err
		}
		var keys []uint64
		if nnew >= 0 {
			ids, err := stringsAt(idBlob, idOffsets, int64(nnew), "ids")
			if err != nil {
				return err
			}
			keys = make([]uint64, len(ids))
			for i, id := range ids {
				keys[i] = savedmodel.NewNodeKey(id)
			}
		}
		r, err := e.predictSets(c.ctx, q, keys)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}

// stringsAt copies n UTF-8 strings given as one blob with n+1 int64
// offsets.
func stringsAt(blob unsafe.Pointer, offsets *C.int64_t, n int64, what string) ([]string, error) {
	if n == 0 {
		return nil, nil
	}
	if blob == nil || offsets == nil {
		return nil, errorf("%s: %d strings at a NULL pointer", what, n)
	}
	off := unsafe.Slice((*int64)(unsafe.Pointer(offsets)), n+1)
	if off[0] != 0 {
		return nil, errorf("%s: offsets[0] = %d, want 0", what, off[0])
	}
	for i := range n {
		if off[i+1] < off[i] {
			return nil, errorf("%s: offsets decrease at %d", what, i)
		}
	}
	b := unsafe.Slice((*byte)(blob), off[n])
	out := make([]string, n)
	for i := range out {
		out[i] = string(b[off[i]:off[i+1]])
	}
	return out, nil
}

// fitTargets copies a fit's labels (int64 to int) and views its targets.
func fitTargets(labels *C.int64_t, targets *C.double, ny int64) ([]int, []float64) {
	var y []int
	var t []float64
	if labels != nil {
		src := unsafe.Slice((*int64)(unsafe.Pointer(labels)), int(ny))
		y = make([]int, len(src))
		for i, v := range src {
			y[i] = int(v)
		}
	}
	if targets != nil {
		t = unsafe.Slice((*float64)(unsafe.Pointer(targets)), int(ny))
	}
	return y, t
}

// gssl_model_fit_graphs fits a graph classifier under call ch
// (cancellable) on n graphs (handles), with their node labels concatenated
// in order (int64, NULL for none) and one class per graph (labels, int64).
//
//export gssl_model_fit_graphs
func gssl_model_fit_graphs(ch, m C.int64_t, graphs unsafe.Pointer, n C.int64_t, nodeLabels unsafe.Pointer, labels *C.int64_t, progress C.gssl_progress) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		gs, es, err := graphList(graphs, int64(n), nodeLabels)
		if err != nil {
			return err
		}
		if labels == nil {
			return errorf("fit_graphs: no labels")
		}
		src := unsafe.Slice((*int64)(unsafe.Pointer(labels)), int(n))
		y := make([]int, len(src))
		for i, v := range src {
			y[i] = int(v)
		}
		if progress != nil {
			restore, _ := setProgress(e.m, func(it int64, v float64) { C.gssl_call_progress(progress, C.int64_t(it), C.double(v)) })
			defer restore()
		}
		return e.fitGraphs(c.ctx, gs, es, y)
	})
}

// gssl_model_predict_graphs predicts n graphs (handles, with node labels
// as in gssl_model_fit_graphs), or the fitted graphs when n < 0, and
// returns a result of one row of class scores per graph.
//
//export gssl_model_predict_graphs
func gssl_model_predict_graphs(ch, m C.int64_t, graphs unsafe.Pointer, n C.int64_t, nodeLabels unsafe.Pointer, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		var gs []graphkernels.Graph
		if n >= 0 {
			if gs, _, err = graphList(graphs, int64(n), nodeLabels); err != nil {
				return err
			}
		}
		r, err := e.predictGraphs(c.ctx, gs)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}

// gssl_wl_kernel returns a result holding the Weisfeiler–Lehman subtree
// kernel with h relabelling rounds (normalised to the cosine kernel when
// normalize ≠ 0) between nquery graphs and ntrain training graphs (handles,
// node labels as in gssl_model_fit_graphs): one row per query graph, or the
// Gram matrix of the training graphs when nquery < 0.
//
//export gssl_wl_kernel
func gssl_wl_kernel(ch, h C.int64_t, normalize C.int32_t, train unsafe.Pointer, ntrain C.int64_t, trainLabels unsafe.Pointer,
	query unsafe.Pointer, nquery C.int64_t, queryLabels unsafe.Pointer, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(c *call) error {
		tr, _, err := graphList(train, int64(ntrain), trainLabels)
		if err != nil {
			return fmt.Errorf("training %w", err)
		}
		var q []graphkernels.Graph
		if nquery >= 0 {
			if q, _, err = graphList(query, int64(nquery), queryLabels); err != nil {
				return fmt.Errorf("query %w", err)
			}
			if q == nil {
				q = []graphkernels.Graph{}
			}
		}
		r, err := wlKernel(c.ctx, int(h), normalize != 0, tr, q)
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}

// gssl_model_save writes the model file at path (atomically), as the CLI's
// --save does.
//
//export gssl_model_save
func gssl_model_save(ch, m C.int64_t, path *C.char) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		return e.save(C.GoString(path))
	})
}

// gssl_model_load reads a model file.
//
//export gssl_model_load
func gssl_model_load(ch C.int64_t, path *C.char, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := loadModel(C.GoString(path))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// gssl_model_to_bytes returns a result holding the model file's bytes.
//
//export gssl_model_to_bytes
func gssl_model_to_bytes(ch, m C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		e, err := lookup[*modelEntry](int64(m), "model")
		if err != nil {
			return err
		}
		b, err := e.marshal()
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(&result{rows: len(b), cols: 1, bytes: b}))
		return nil
	})
}

// gssl_model_from_bytes decodes a model file's n bytes (copied).
//
//export gssl_model_from_bytes
func gssl_model_from_bytes(ch C.int64_t, b unsafe.Pointer, n C.int64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		if b == nil || n <= 0 {
			return errorf("model_from_bytes: no bytes")
		}
		e, err := unmarshalModel(append([]byte(nil), unsafe.Slice((*byte)(b), int(n))...))
		if err != nil {
			return err
		}
		*out = C.int64_t(handles.put(e))
		return nil
	})
}

// guard runs f, turning a panic into an error, and records f's error on the
// call handle ch. It returns the status code.
func guard(ch int64, f func(c *call) error) (code C.int32_t) {
	c, err := lookup[*call](ch, "call")
	if err != nil {
		return codeHandle
	}
	defer func() {
		if p := recover(); p != nil {
			code = C.int32_t(c.fail(fmt.Errorf("%w: %v", errPanic, p)))
		}
	}()
	if err := f(c); err != nil {
		return C.int32_t(c.fail(err))
	}
	return codeOK
}
