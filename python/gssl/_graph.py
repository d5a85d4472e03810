"""gssl.Graph: a weighted undirected graph held by the Go library."""

import ctypes
import json

import numpy as np
import scipy.sparse as sp

from . import _lib
from ._lib import call, lib

_SYMMETRIZE = {"undirected": 0, "max": 1, "sum": 2, "mean": 3, "mutual": 4}
_DUPLICATES = {"error": 0, "sum": 1, "max": 2}


class Graph:
    """A weighted undirected graph (CSR, int32 columns, float64 weights).

    Build one with a ``from_*`` class method or :meth:`load`. Arrays that
    can be used as they are, are read in place and kept referenced by the
    Graph (see :meth:`from_scipy`): do not modify them while the graph or a
    model fitted on it is alive.
    """

    def __init__(self, handle, keep=()):
        self._h = handle
        self._keep = keep  # the caller's arrays the Go graph views

    # ---- construction ----

    @classmethod
    def from_scipy(cls, A):
        """The graph of a symmetric sparse matrix (any SciPy sparse format).

        Read in place: a CSR matrix (``csr_array`` or ``csr_matrix``) in
        canonical form (sorted indices, no duplicates) with int64 ``indptr``,
        int32 ``indices`` and float64 ``data``. Copied: int32 ``indptr``
        (as int64), int64 ``indices`` (as int32, checked), float32 ``data``
        (as float64), other formats (converted to CSR) and non-canonical CSR
        (sorted, duplicates summed). Other data dtypes are converted to
        float64. W must be symmetric with finite non-negative weights.
        """
        if not sp.issparse(A):
            raise TypeError(f"from_scipy wants a SciPy sparse matrix, got {type(A).__name__}")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"the adjacency matrix is {A.shape[0]}×{A.shape[1]}: it must be square")
        if A.format != "csr":
            A = A.tocsr()
        if not A.has_canonical_format:
            A = A.copy()
            A.sum_duplicates()
        indptr, indices, data = A.indptr, A.indices, A.data
        if indptr.dtype not in (np.int32, np.int64):
            indptr = indptr.astype(np.int64)
        if indices.dtype not in (np.int32, np.int64):
            indices = indices.astype(np.int32)
        if data.dtype not in (np.float32, np.float64):
            data = data.astype(np.float64)
        indptr, indices, data = (np.ascontiguousarray(a) for a in (indptr, indices, data))
        h = _lib.new_handle()
        call(lib.gssl_graph_from_csr, A.shape[0], indices.size, indptr.ctypes.data, indptr.itemsize,
             _lib.ptr(indices) if indices.size else None, indices.itemsize,
             _lib.ptr(data) if data.size else None, data.itemsize, ctypes.byref(h))
        return cls(h.value, keep=(indptr, indices, data))

    @classmethod
    def from_edges(cls, src, dst, weight=None, n=None, symmetrize="undirected", duplicates="error"):
        """The graph of edges ``src[k]``–``dst[k]`` with optional weights.

        Integer ends are node numbers 0..n−1 (n defaults to the largest end
        plus one); any other ends (strings, objects) are ids, numbered in
        the order of first appearance and kept as the graph's ids.
        ``symmetrize`` says how the edges become W: "undirected" (each edge
        sets W_uv = W_vu; listing both directions is a duplicate), or, for
        arcs, "max", "sum", "mean" or "mutual". ``duplicates``: "error",
        "sum" or "max". The arrays are read during the call only.
        """
        src, dst = np.asarray(src), np.asarray(dst)
        if src.shape != dst.shape or src.ndim != 1:
            raise ValueError(f"src and dst must be 1-D arrays of the same length, got shapes {src.shape} and {dst.shape}")
        ids = None
        if src.dtype.kind not in "iu" or dst.dtype.kind not in "iu":
            both = np.concatenate([src.astype(object), dst.astype(object)])
            index, ids = {}, []
            codes = np.empty(both.size, dtype=np.int64)
            for k, v in enumerate(both):
                j = index.get(v)
                if j is None:
                    j = index[v] = len(ids)
                    ids.append(v)
                codes[k] = j
            src, dst = codes[: src.size], codes[src.size:]
            if n is not None and n != len(ids):
                raise ValueError(f"n = {n}, but the edges name {len(ids)} distinct ids")
            n = len(ids)
        src = np.ascontiguousarray(src, dtype=np.int64 if src.dtype.itemsize > 4 or src.dtype.kind == "u" else np.int32)
        dst = np.ascontiguousarray(dst, dtype=src.dtype)
        if n is None:
            n = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
        if weight is not None:
            weight = np.asarray(weight)
            if weight.dtype not in (np.float32, np.float64):
                weight = weight.astype(np.float64)
            weight = np.ascontiguousarray(weight)
            if weight.shape != src.shape:
                raise ValueError(f"{weight.size} weights for {src.size} edges")
        try:
            s, d = _SYMMETRIZE[symmetrize], _DUPLICATES[duplicates]
        except KeyError as e:
            raise ValueError(f"{e.args[0]!r} is invalid: symmetrize is one of {list(_SYMMETRIZE)}, duplicates one of {list(_DUPLICATES)}") from None
        h = _lib.new_handle()
        call(lib.gssl_graph_from_edges, n, src.size, _lib.ptr(src), _lib.ptr(dst), src.itemsize,
             _lib.ptr(weight), 8 if weight is None else weight.itemsize, s, d, ctypes.byref(h))
        g = cls(h.value)
        if ids is not None:
            g._set_ids(ids)
        return g

    @classmethod
    def from_networkx(cls, G, weight="weight"):
        """The graph of a networkx graph, its edge attribute ``weight``
        (default 1) as weights and its nodes as ids (in G's node order).
        A directed graph becomes W = max(A, Aᵀ)."""
        nodes = list(G.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        m = G.number_of_edges()
        src = np.empty(m, dtype=np.int64)
        dst = np.empty(m, dtype=np.int64)
        w = np.empty(m, dtype=np.float64)
        for k, (u, v, d) in enumerate(G.edges(data=weight, default=1.0)):
            src[k], dst[k], w[k] = index[u], index[v], d
        sym = "max" if G.is_directed() else "undirected"
        dup = "max" if G.is_multigraph() else "error"
        g = cls.from_edges(src, dst, w, n=len(nodes), symmetrize=sym, duplicates=dup)
        g._set_ids(nodes)
        return g

    @classmethod
    def from_pyg(cls, data, num_nodes=None, edge_weight=None):
        """The graph of a PyTorch Geometric ``Data`` object (its
        ``edge_index``, ``edge_weight`` or ``edge_attr`` of one column, and
        ``num_nodes``) or of an ``edge_index`` (2×m). PyG lists both
        directions of an undirected edge: W = max(A, Aᵀ)."""
        if hasattr(data, "edge_index"):
            ei = data.edge_index
            if num_nodes is None:
                num_nodes = getattr(data, "num_nodes", None)
            if edge_weight is None:
                edge_weight = getattr(data, "edge_weight", None)
        else:
            ei = data
        ei = _numpy(ei)
        if ei.ndim != 2 or ei.shape[0] != 2:
            raise ValueError(f"edge_index must be 2×m, got shape {ei.shape}")
        w = None if edge_weight is None else _numpy(edge_weight).reshape(-1)
        return cls.from_edges(ei[0], ei[1], w, n=num_nodes, symmetrize="max", duplicates="max")

    @classmethod
    def from_knn(cls, X, n_neighbors=10, mode="connectivity", sigma=None, mutual=False):
        """The K-nearest-neighbour graph of the rows of X (exact search by
        Euclidean distance, ties to the smaller index): an edge where j is
        among the ``n_neighbors`` nearest of i or i among those of j (both,
        with ``mutual``). ``mode="connectivity"``: weight 1, no self loops
        (scikit-learn's ``kneighbors_graph`` made symmetric by max);
        ``mode="gaussian"``: exp(−d²/(2σ²)) with unit self loops, σ =
        ``sigma`` or, when None, the median distance to the K-th
        neighbour. A float64 C-contiguous X is read in place, float32 is
        copied as float64. Ctrl-C cancels the search."""
        X = np.asarray(X)
        if X.dtype not in (np.float64, np.float32):
            X = X.astype(np.float64)
        X = np.ascontiguousarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (one row per point), got shape {X.shape}")
        if mode == "connectivity":
            if sigma is not None:
                raise ValueError("sigma applies to mode='gaussian' only")
            s = 0.0
        elif mode == "gaussian":
            s = -1.0 if sigma is None else float(sigma)
            if not s > 0 and sigma is not None:
                raise ValueError(f"sigma = {sigma} is invalid: it must be > 0 (None: the median K-th distance)")
        else:
            raise ValueError(f"mode = {mode!r} is invalid: want 'connectivity' or 'gaussian'")
        h = _lib.new_handle()
        call(lib.gssl_graph_from_knn, X.ctypes.data, X.itemsize, X.shape[0], X.shape[1], int(n_neighbors),
             int(bool(mutual)), s, ctypes.byref(h), cancellable=True)
        return cls(h.value)

    @classmethod
    def load(cls, path):
        """Maps a .gsg graph file (``gssl convert``'s output) after checking
        it; the file stays mapped while the graph or a model fitted on it
        is alive."""
        h = _lib.new_handle()
        call(lib.gssl_graph_load, str(path).encode(), ctypes.byref(h))
        return cls(h.value)

    # ---- out ----

    @property
    def n_nodes(self):
        return self._shape()[0]

    @property
    def nnz(self):
        """Stored entries of W (each undirected edge twice, loops once)."""
        return self._shape()[1]

    def _shape(self):
        n, nnz = _lib.i64(), _lib.i64()
        call(lib.gssl_graph_shape, self._handle(), ctypes.byref(n), ctypes.byref(nnz))
        return n.value, nnz.value

    def to_scipy(self):
        """W as a ``scipy.sparse.csr_array`` (copied out)."""
        n, nnz = self._shape()
        indptr = np.empty(n + 1, dtype=np.int64)
        indices = np.empty(nnz, dtype=np.int32)
        data = np.empty(nnz, dtype=np.float64)
        call(lib.gssl_graph_to_csr, self._handle(), indptr.ctypes.data, indices.ctypes.data, data.ctypes.data)
        return sp.csr_array((data, indices, indptr), shape=(n, n))

    @property
    def ids(self):
        """The nodes' ids as strings, or None for 0..n−1."""
        r = _lib.new_handle()
        call(lib.gssl_graph_ids, self._handle(), ctypes.byref(r))
        ids = _lib.take_json(r.value)
        return ids or None

    def _set_ids(self, ids):
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in ids):
            a = np.ascontiguousarray(ids, dtype=np.int64)
            call(lib.gssl_graph_set_ids, self._handle(), None, None, a.ctypes.data, a.size)
            return
        enc = [str(v).encode("utf-8") for v in ids]
        off = np.zeros(len(enc) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in enc], out=off[1:])
        blob = b"".join(enc) or b"\0"
        call(lib.gssl_graph_set_ids, self._handle(), blob, off.ctypes.data, None, len(enc))

    def _copied(self):
        r = _lib.new_handle()
        call(lib.gssl_graph_copied, self._handle(), ctypes.byref(r))
        s = _lib.take_result(r.value).decode()
        return s.split(",") if s else []

    def _data_address(self):
        a = ctypes.c_size_t()
        call(lib.gssl_graph_data_address, self._handle(), ctypes.byref(a))
        return a.value

    def _handle(self):
        if self._h is None:
            raise ValueError("the graph is closed")
        return self._h

    def close(self):
        """Releases the graph (a mapped file is unmapped once no model
        fitted on it is alive either)."""
        if getattr(self, "_h", None) is not None and not _lib._forked:
            lib.gssl_free(self._h)
        self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        if self._h is None:
            return "Graph(closed)"
        n, nnz = self._shape()
        return f"Graph(n_nodes={n}, nnz={nnz})"


def _numpy(x):
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def _json(v):
    return json.dumps(v).encode()
