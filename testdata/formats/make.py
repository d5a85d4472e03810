#!/usr/bin/python3
"""Regenerates the fixtures of loaders' NumPy, SciPy, svmlight and IDX tests.

Run from this folder with Debian's python3 (numpy, scipy, scikit-learn):

    cd testdata/formats && /usr/bin/python3 make.py

Every file is written by the library that owns the format (numpy.save,
numpy.savez, scipy.sparse.save_npz, scipy.io.mmwrite, sklearn's dump_svmlight_file); the IDX
files follow the MNIST page's layout byte by byte. expected.json holds the
values the Go tests compare against. The output is deterministic (fixed
seeds, gzip without time stamps).
"""
import gzip
import io
import json
import struct

import numpy as np
import scipy.io
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

rng = np.random.default_rng(15)
expected = {}


def save(name, arr):
    np.save(name, arr)
    a = np.asarray(arr)
    expected[name] = {"shape": list(a.shape), "values": np.where(np.isnan(a.astype(np.float64)), None, a.astype(np.float64)).ravel(order="C").tolist()}


# Dense .npy arrays of every element type the Go reader accepts.
x = np.round(rng.normal(size=(3, 4)), 3)
save("f64_2d.npy", x)
save("f32_2d.npy", x.astype(np.float32))
save("i64_2d.npy", np.arange(12, dtype=np.int64).reshape(3, 4) - 5)
save("i16_2d.npy", np.arange(6, dtype=np.int16).reshape(2, 3) * -300)
save("u8_3d.npy", np.arange(24, dtype=np.uint8).reshape(2, 3, 4))
save("bool_2d.npy", np.array([[True, False], [False, True]]))
save("fortran_2d.npy", np.asfortranarray(x))
save("fortran_3d.npy", np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4)))
save("big_endian_2d.npy", x.astype(">f8"))
save("big_endian_i4.npy", np.array([1, -2, 70000], dtype=">i4"))
save("labels_i64.npy", np.array([0, 2, 1, -1, 2], dtype=np.int64))
save("labels_f64_nan.npy", np.array([1.0, np.nan, 0.0, 3.0]))
save("targets_f64.npy", np.array([0.5, -1.25, np.nan, 3.0]))
save("column_f32.npy", np.array([[1.5], [2.5], [-3.0]], dtype=np.float32))
save("scalar.npy", np.float64(3.0))
save("empty_2d.npy", np.zeros((0, 3)))
np.save("complex.npy", np.array([1 + 2j, 3j]))
np.save("f16.npy", np.array([1.0, 2.0], dtype=np.float16))
np.save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")]))

# Archives of several arrays, plain and compressed.
np.savez("arrays.npz", x=x, y=np.array([1, 0, 1], dtype=np.int32))
np.savez_compressed("arrays_compressed.npz", x=x, y=np.array([1, 0, 1], dtype=np.int32))
np.savez("single.npz", x)
expected["arrays.npz"] = {"x": x.ravel().tolist(), "y": [1, 0, 1]}

# SciPy sparse matrices as save_npz writes them.
feat = sp.random(5, 7, density=0.4, random_state=np.random.RandomState(15), format="csr")
feat.data = np.round(feat.data * 10, 2)
sp.save_npz("features_csr.npz", feat)
sp.save_npz("features_csc.npz", feat.tocsc())
sp.save_npz("features_coo.npz", feat.tocoo())
sp.save_npz("features_csr_uncompressed.npz", feat, compressed=False)
sp.save_npz("features_bsr.npz", feat.tobsr())
sp.save_npz("features_int_csr.npz", sp.csr_matrix(np.array([[0, 3, 0], [1, 0, 2]], dtype=np.int64)))
expected["features"] = {"shape": list(feat.shape), "dense": feat.toarray().ravel().tolist()}

# A CSR matrix with unsorted column indices and a repeated entry: scipy sums
# repeats when it converts (to dense, or sum_duplicates).
uns = sp.csr_matrix((np.array([1.0, 2.0, 3.0, 4.0]), np.array([2, 0, 2, 1]), np.array([0, 3, 4])), shape=(2, 3))
sp.save_npz("unsorted_csr.npz", uns)
expected["unsorted_csr.npz"] = {"shape": [2, 3], "dense": uns.toarray().ravel().tolist()}

# Adjacency matrices: a weighted undirected graph (both triangles, as
# networkx.to_scipy_sparse_array writes it) and a directed one.
und = np.zeros((6, 6))
for u, v, w in [(0, 1, 1.0), (1, 2, 0.5), (2, 0, 2.0), (3, 4, 1.0), (4, 5, 1.5), (2, 3, 1.0)]:
    und[u, v] = und[v, u] = w
sp.save_npz("graph_sym_csr.npz", sp.csr_matrix(und))
sp.save_npz("graph_sym_coo.npz", sp.coo_matrix(und))
expected["graph_sym"] = {"n": 6, "dense": und.ravel().tolist()}
arcs = np.zeros((5, 5))
for u, v, w in [(0, 1, 1.0), (1, 0, 3.0), (1, 2, 2.0), (3, 2, 1.0), (4, 3, 0.5), (4, 4, 1.0)]:
    arcs[u, v] = w
sp.save_npz("graph_directed_csr.npz", sp.csr_matrix(arcs))
expected["graph_directed"] = {"n": 5, "dense": arcs.ravel().tolist(),
                              "max": np.maximum(arcs, arcs.T).ravel().tolist(),
                              "sum": (arcs + arcs.T).ravel().tolist()}
# The same arcs as a general (non-symmetric) Matrix Market file.
scipy.io.mmwrite("graph_directed.mtx", sp.coo_matrix(arcs))
sp.save_npz("graph_rect_csr.npz", sp.csr_matrix(np.ones((2, 3))))

# svmlight / libsvm files written by scikit-learn.
sv = sp.csr_matrix(np.array([[0, 1.5, 0, 2], [0, 0, 0, 0], [3.25, 0, 0, 0], [0, 0, -1, 0.5]]))
yc = np.array([1, 0, 2, 1])
yr = np.array([0.5, -1.0, 2.25, 3.0])
dump_svmlight_file(sv, yc, "svm_classes.txt", zero_based=False, comment="written by sklearn")
dump_svmlight_file(sv, yr, "svm_targets_zero_based.txt", zero_based=True)
dump_svmlight_file(sv, yc, "svm_qid.txt", zero_based=False, query_id=np.array([1, 1, 2, 2]))
expected["svm"] = {"shape": list(sv.shape), "dense": sv.toarray().ravel().tolist(),
                   "classes": yc.astype(float).tolist(), "targets": yr.tolist()}


# MNIST IDX files (http://yann.lecun.com/exdb/mnist/): magic 0x00000803 for
# unsigned-byte images, 0x00000801 for labels, big-endian int32 sizes.
def gz(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(data)
    return buf.getvalue()


imgs = rng.integers(0, 256, size=(5, 4, 3), dtype=np.uint8)
labs = np.array([7, 2, 1, 0, 4], dtype=np.uint8)
idx3 = struct.pack(">IIII", 0x803, 5, 4, 3) + imgs.tobytes()
idx1 = struct.pack(">II", 0x801, 5) + labs.tobytes()
for name, data in [("images-idx3-ubyte", idx3), ("labels-idx1-ubyte", idx1)]:
    with open(name, "wb") as f:
        f.write(data)
    with open(name + ".gz", "wb") as f:
        f.write(gz(data))
expected["idx"] = {"count": 5, "rows": 4, "cols": 3, "pixels": imgs.ravel().tolist(), "labels": labs.tolist()}

with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
