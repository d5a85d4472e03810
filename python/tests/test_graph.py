"""Graphs in and out, and what is copied on the way in."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import gssl
from conftest import run_cli


def random_symmetric(n, density, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    A = sp.random_array((n, n), density=density, random_state=rng, format="csr")
    A = sp.triu(A, k=1)
    A = (A + A.T).tocsr().astype(dtype)
    A.sort_indices()
    return A


def test_from_scipy_reads_float64_int32_in_place():
    A = random_symmetric(300, 0.05, 1)
    A.indices = A.indices.astype(np.int32)
    A.indptr = A.indptr.astype(np.int64)
    g = gssl.Graph.from_scipy(A)
    assert g._copied() == []
    assert g._data_address() == A.data.ctypes.data
    B = g.to_scipy()
    assert (B != A).nnz == 0
    np.testing.assert_array_equal(B.data, A.data)


def test_from_scipy_copies_other_dtypes():
    A = random_symmetric(100, 0.1, 2, dtype=np.float32)
    A.indptr = A.indptr.astype(np.int32)
    A.indices = A.indices.astype(np.int64)
    g = gssl.Graph.from_scipy(A)
    assert sorted(g._copied()) == ["data", "indices", "indptr"]
    assert g._data_address() != A.data.ctypes.data
    np.testing.assert_array_equal(g.to_scipy().toarray(), A.toarray().astype(np.float64))


def test_from_scipy_errors():
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    with pytest.raises(ValueError, match="symmetric"):
        gssl.Graph.from_scipy(A)
    with pytest.raises(ValueError, match="square"):
        gssl.Graph.from_scipy(sp.csr_array(np.ones((2, 3))))
    B = sp.csr_array(np.array([[0, -1.0], [-1.0, 0]]))
    with pytest.raises(ValueError, match="negative|≥ 0|non-negative"):
        gssl.Graph.from_scipy(B)


def test_from_networkx_keeps_weights_and_ids():
    G = nx.karate_club_graph()  # weighted
    G = nx.relabel_nodes(G, {v: f"m{v}" for v in G})
    g = gssl.Graph.from_networkx(G)
    want = nx.to_scipy_sparse_array(G, nodelist=list(G.nodes()), weight="weight", format="csr")
    np.testing.assert_array_equal(g.to_scipy().toarray(), want.toarray())
    assert g.ids == [f"m{v}" for v in range(34)]


def test_from_edges_with_string_ids():
    g = gssl.Graph.from_edges(["a", "b", "c"], ["b", "c", "a"], weight=[1.0, 2.0, 3.0])
    assert g.ids == ["a", "b", "c"]
    W = g.to_scipy().toarray()
    np.testing.assert_array_equal(W, [[0, 1, 3], [1, 0, 2], [3, 2, 0]])
    with pytest.raises(ValueError, match="duplicate|repeated|twice"):
        gssl.Graph.from_edges([0, 1], [1, 0])


class FakeData:
    """Stands in for torch_geometric.data.Data (duck typed: edge_index,
    num_nodes, edge_weight)."""

    def __init__(self, edge_index, num_nodes, edge_weight=None):
        self.edge_index, self.num_nodes, self.edge_weight = edge_index, num_nodes, edge_weight


def test_from_pyg():
    ei = np.array([[0, 1, 1, 2], [1, 0, 2, 1]])
    g = gssl.Graph.from_pyg(FakeData(ei, 4))
    assert g.n_nodes == 4
    np.testing.assert_array_equal(g.to_scipy().toarray(), [[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
    g2 = gssl.Graph.from_pyg(ei)
    assert g2.n_nodes == 3


def test_load_gsg_written_by_cli(gssl_cli, tmp_path):
    edges = tmp_path / "e.csv"
    A = random_symmetric(50, 0.2, 3)
    C = sp.triu(A).tocoo()
    with open(edges, "w") as f:
        f.write("u,v,weight\n")
        for u, v, w in zip(C.row, C.col, C.data):
            f.write(f"{u},{v},{float(w)!r}\n")
    gsg = tmp_path / "g.gsg"
    run_cli(gssl_cli, "convert", str(edges), str(gsg), "--nodes", "50")
    g = gssl.Graph.load(gsg)
    np.testing.assert_array_equal(g.to_scipy().toarray(), A.toarray())
    with pytest.raises(OSError):
        gssl.Graph.load(tmp_path / "missing.gsg")
    with pytest.raises(ValueError):
        gssl.Graph.load(edges)


def test_from_knn_equals_scikit_learn():
    from sklearn.neighbors import kneighbors_graph

    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4))
    A = kneighbors_graph(X, 7, mode="connectivity", include_self=False)
    W = A.maximum(A.T).toarray()
    g = gssl.Graph.from_knn(X, 7)
    np.testing.assert_array_equal(g.to_scipy().toarray(), W)
    M = A.minimum(A.T).toarray()
    np.testing.assert_array_equal(gssl.Graph.from_knn(X, 7, mutual=True).to_scipy().toarray(), M)
    D = kneighbors_graph(X, 7, mode="distance", include_self=False)
    D = D.maximum(D.T).toarray()
    G = gssl.Graph.from_knn(X, 7, mode="gaussian", sigma=0.8).to_scipy().toarray()
    want = np.where(W > 0, np.exp(-(D**2) / (2 * 0.8**2)), 0) + np.eye(300)
    np.testing.assert_allclose(G, want, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="k = 300 is invalid"):
        gssl.Graph.from_knn(X, 300)


def test_hostile_arrays_are_errors_not_crashes():
    # a column out of range, a NaN weight, a decreasing indptr: each named
    bad_col = sp.csr_array((np.ones(2), np.array([1, 5], dtype=np.int32), np.array([0, 1, 2], dtype=np.int64)), shape=(2, 2))
    bad_col.indices[1] = 5  # scipy checks on construction only
    with pytest.raises(ValueError, match="5"):
        gssl.Graph.from_scipy(bad_col)
    A = sp.csr_array(np.array([[0, 1.0], [1.0, 0]]))
    A.data[0] = np.nan
    with pytest.raises(ValueError, match="NaN|finite"):
        gssl.Graph.from_scipy(A)
    with pytest.raises(ValueError):
        gssl.Graph.from_edges([0, -1], [1, 0])
    with pytest.raises(ValueError, match="weights"):
        gssl.Graph.from_edges([0], [1], weight=[1.0, 2.0])
    cora = gssl.datasets.cora()
    m = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
    far = sp.csr_array((np.ones(1), (np.array([0]), np.array([2708]))), shape=(1, 2709))
    with pytest.raises(ValueError, match="2708"):
        m.predict_proba(new=far)
    neg = sp.csr_array((np.array([-1.0]), (np.array([0]), np.array([3]))), shape=(1, 2708))
    with pytest.raises(ValueError):
        m.predict_proba(new=neg)
