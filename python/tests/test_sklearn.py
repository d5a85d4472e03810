"""gssl.sklearn against scikit-learn's own estimator checks and its
LabelSpreading."""

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.neighbors import kneighbors_graph
from sklearn.semi_supervised import LabelSpreading as SkLabelSpreading
from sklearn.utils.estimator_checks import parametrize_with_checks

from gssl.sklearn import LabelSpreading


@parametrize_with_checks([LabelSpreading(), LabelSpreading(kernel="knn")])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def semi_blobs():
    X, y = make_blobs(400, centers=4, cluster_std=2.5, random_state=3)
    rng = np.random.default_rng(3)
    y_semi = y.copy()
    y_semi[rng.random(400) < 0.9] = -1
    return X, y_semi


def test_rbf_agrees_with_scikit_learn_converged():
    X, y = semi_blobs()
    # scikit-learn's fixed point run to convergence is the same F.
    sk = SkLabelSpreading(kernel="rbf", gamma=0.5, alpha=0.5, max_iter=10_000, tol=1e-14).fit(X, y)
    ours = LabelSpreading(kernel="rbf", gamma=0.5, alpha=0.5, tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, sk.classes_)
    np.testing.assert_allclose(ours.label_distributions_, sk.label_distributions_, atol=1e-9)
    np.testing.assert_array_equal(ours.transduction_, sk.transduction_)
    np.testing.assert_allclose(ours.predict_proba(X[:50] + 0.1), sk.predict_proba(X[:50] + 0.1), atol=1e-9)


def test_knn_equals_a_dense_solve():
    # scikit-learn's knn graph counts each point as its own neighbour and is
    # not symmetric; gssl's is the symmetric "or" graph without loops, so
    # the reference is the closed form on that graph, solved densely.
    X, y = semi_blobs()
    ours = LabelSpreading(kernel="knn", n_neighbors=7, alpha=0.5, tol=1e-12, max_iter=10_000).fit(X, y)
    A = kneighbors_graph(X, 7, include_self=False)
    W = A.maximum(A.T).toarray()
    d = W.sum(axis=1)
    S = W / np.sqrt(np.outer(d, d))
    Y = np.zeros((400, 4))
    Y[y >= 0, y[y >= 0]] = 1
    F = 0.5 * np.linalg.solve(np.eye(400) - 0.5 * S, Y)
    P = F / F.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(ours.label_distributions_, P, atol=1e-9)
