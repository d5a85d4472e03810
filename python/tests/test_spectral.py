"""The spectral models (Go package spectral) from Python against
scikit-learn's SpectralEmbedding and SpectralClustering and dense
eigendecompositions (NumPy) on the same graph."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.cluster import SpectralClustering as SkSpectralClustering
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score

import gssl

# The eigensolver's residual tolerance leaves eigenvalues within about
# 1e-10 of the dense ones and unit vectors within about 1e-6 (the error of
# a vector scales with residual / gap); these bounds are loose by two orders.
EIG_TOL = 1e-8
VEC_TOL = 1e-5


def sbm(n=360, blocks=3, p_in=0.08, p_out=0.004, seed=0):
    """A weighted stochastic block model graph, connected, as a symmetric
    CSR matrix with zero diagonal, and each node's block."""
    rng = np.random.default_rng(seed)
    z = np.repeat(np.arange(blocks), n // blocks)
    P = np.where(z[:, None] == z[None, :], p_in, p_out)
    A = np.triu(rng.random((n, n)) < P, 1)
    W = np.where(A, rng.uniform(0.5, 1.5, (n, n)), 0.0)
    W = W + W.T
    assert sp.csgraph.connected_components(W)[0] == 1
    return sp.csr_array(W), z


def sign_fixed(V):
    """Columns with the sign making each column's entry of largest
    magnitude positive (scikit-learn's and gssl's convention)."""
    i = np.argmax(np.abs(V), axis=0)
    return V * np.sign(V[i, np.arange(V.shape[1])])


def dense_sym(W):
    W = W.toarray()
    d = W.sum(axis=1)
    S = W / np.sqrt(np.outer(d, d))
    return S, d


def test_laplacian_eigenmap_equals_spectral_embedding():
    W, _ = sbm()
    g = gssl.Graph.from_scipy(W)
    ours = gssl.LaplacianEigenmap(dim=4).fit(g)
    Y = ours.transform()
    sk = SpectralEmbedding(n_components=4, affinity="precomputed", eigen_solver="arpack", random_state=0).fit_transform(W)
    assert Y.shape == sk.shape == (360, 4)
    # equal up to the sign of each column (both fix it the same way; the
    # comparison allows either)
    for j in range(4):
        s = np.sign(Y[:, j] @ sk[:, j])
        np.testing.assert_allclose(Y[:, j], s * sk[:, j], atol=VEC_TOL, err_msg=f"column {j}")
    np.testing.assert_allclose(Y, sign_fixed(sk), atol=VEC_TOL)
    # the eigenvalues of L_rw (= those of L_sym = I − S), second to fifth
    S, _ = dense_sym(W)
    lam = np.sort(1 - np.linalg.eigvalsh(S))
    np.testing.assert_allclose(ours.info_["eigenvalues"], lam[1:5], atol=EIG_TOL)


def test_kernel_pca_is_the_top_of_s():
    W, _ = sbm(seed=1)
    ours = gssl.KernelPCA(dim=3).fit(gssl.Graph.from_scipy(W))
    S, _ = dense_sym(W)
    mu, U = np.linalg.eigh(S)
    mu, U = mu[::-1][:3], U[:, ::-1][:, :3]
    np.testing.assert_allclose(ours.info_["eigenvalues"], mu, atol=EIG_TOL)
    np.testing.assert_allclose(ours.transform(), sign_fixed(U), atol=VEC_TOL)
    # a fitted node given as a new node (its own row of W) maps to its own
    # features (the Nyström extension is exact there)
    rows = np.arange(0, 360, 37)
    np.testing.assert_allclose(ours.transform(new=W[rows]), ours.transform()[rows], atol=1e-10)


def test_spectral_clustering_agrees_with_scikit_learn():
    W, z = sbm(seed=2)
    g = gssl.Graph.from_scipy(W)
    ours = gssl.SpectralClustering(clusters=3).fit(g)
    labels = ours.predict()
    sk = SkSpectralClustering(n_clusters=3, affinity="precomputed", random_state=0).fit(W.toarray())
    assert adjusted_rand_score(labels, sk.labels_) == pytest.approx(1.0)
    assert adjusted_rand_score(labels, z) > 0.95
    # the eigenvalues are the 3 smallest of L_sym
    S, _ = dense_sym(W)
    lam = np.sort(1 - np.linalg.eigvalsh(S))
    np.testing.assert_allclose(ours.info_["eigenvalues"], lam[:3], atol=EIG_TOL)
    # saved like the CLI's models: the loaded model predicts the same
    back = gssl.load(ours.to_bytes())
    np.testing.assert_array_equal(back.predict(), labels)


def test_spectral_clustering_of_new_nodes():
    W, z = sbm(seed=3)
    g = gssl.Graph.from_scipy(W)
    m = gssl.SpectralClustering(clusters=3).fit(g)
    rows = np.arange(0, 360, 11)
    # fitted nodes given by their own edges go to their own clusters
    np.testing.assert_array_equal(m.predict(new=W[rows]), m.predict()[rows])


def test_spectral_errors():
    W, _ = sbm(n=30, blocks=3, p_in=0.5, p_out=0.05)
    g = gssl.Graph.from_scipy(W)
    with pytest.raises(ValueError, match="Dim = 30 is invalid"):
        gssl.LaplacianEigenmap(dim=30).fit(g)
    with pytest.raises(ValueError, match="Clusters = 31 is invalid"):
        gssl.SpectralClustering(clusters=31).fit(g)
    with pytest.raises(gssl.NotFittedError):
        gssl.KernelPCA().transform()
