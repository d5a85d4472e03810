"""scikit-learn estimators on gssl's models (needs scikit-learn).

``LabelSpreading`` is a drop-in for
``sklearn.semi_supervised.LabelSpreading``: the same parameters, attributes
and methods, with the graph built from X (K nearest neighbours, or the RBF
kernel on every pair of points as scikit-learn does) and the spreading
F = (1 − α)(I − αS)⁻¹Y solved by gssl's label spreading (Chebyshev
semi-iteration to a relative residual of ``tol``) instead of scikit-learn's
``max_iter`` fixed-point sweeps, so its probabilities are the converged
ones. New points are predicted by scikit-learn's inductive rule (the
fitted distributions averaged over a point's edges to the fitted points).
The knn graph is symmetric (j among the K nearest of i, or i among those of
j; no self loops), where scikit-learn's counts each point as its own
neighbour and is not symmetric, so knn results differ a little from
scikit-learn's; the rbf graph is scikit-learn's.
"""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _models
from ._graph import Graph

__all__ = ["LabelSpreading"]


class LabelSpreading(ClassifierMixin, BaseEstimator):
    """Label spreading (Zhou et al. 2003) on the graph of X, a drop-in for
    ``sklearn.semi_supervised.LabelSpreading``.

    Parameters
    ----------
    kernel : {"knn", "rbf"}, default="rbf"
        "knn": W_ij = 1 when j is among the ``n_neighbors`` nearest points
        of i or i among those of j. "rbf": W_ij = exp(−gamma‖x_i − x_j‖²)
        for every pair i ≠ j (dense: O(n²) memory, as scikit-learn's).
    gamma : float, default=20
    n_neighbors : int, default=7
    alpha : float in (0, 1), default=0.2
    max_iter : int, default=30
        The solver's iteration cap (a ConvergenceWarning when reached).
    tol : float, default=1e-3
        The solver's relative residual.
    n_jobs : None
        Accepted for compatibility; gssl uses every core (GOMAXPROCS).

    Attributes
    ----------
    X_, classes_, label_distributions_, transduction_, n_iter_,
    n_features_in_ : as scikit-learn's.
    """

    _parameter_constraints = {
        "kernel": [StrOptions({"knn", "rbf"})],
        "gamma": [Interval(Real, 0, None, closed="left")],
        "n_neighbors": [Interval(Integral, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "max_iter": [Interval(Integral, 0, None, closed="neither")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "n_jobs": [None, Integral],
    }

    def __init__(self, kernel="rbf", *, gamma=20, n_neighbors=7, alpha=0.2, max_iter=30, tol=1e-3, n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs

    def fit(self, X, y):
        self._validate_params()
        X, y = validate_data(self, X, y, ensure_min_samples=2, reset=True)
        check_classification_targets(y)
        y = np.asarray(y)
        unlabelled = (y == -1) if y.dtype.kind in "iuf" else np.zeros(y.shape, dtype=bool)
        self.classes_ = np.unique(y[~unlabelled])
        codes = np.full(y.shape[0], -1, dtype=np.int64)
        codes[~unlabelled] = np.searchsorted(self.classes_, y[~unlabelled])
        self.X_ = X
        graph = self._graph(X)
        tol = min(self.tol, 0.5)
        self._model_ = _models.CLASSES["labelprop.Spreading"](
            alpha=self.alpha, tol=tol, max_iter=self.max_iter, isolated_seeds="keep", classes=len(self.classes_)
        ).fit(graph, codes)
        self.label_distributions_ = self._model_.predict_proba()
        self.transduction_ = self.classes_[np.argmax(self.label_distributions_, axis=1)]
        self.n_iter_ = self._model_.info_["info"]["Iterations"]
        counts = np.bincount(codes[codes >= 0], minlength=len(self.classes_))
        self._prior = counts / counts.sum()
        return self

    def _graph(self, X):
        n = X.shape[0]
        if self.kernel == "knn":
            return Graph.from_knn(X, min(self.n_neighbors, n - 1))
        W = np.exp(-self.gamma * squareform(pdist(X, "sqeuclidean")))
        np.fill_diagonal(W, 0)
        return Graph.from_scipy(sp.csr_array(W))

    def _new_edges(self, X):
        n = self.X_.shape[0]
        if self.kernel == "knn":
            k = min(self.n_neighbors, n)
            nn = NearestNeighbors(n_neighbors=k).fit(self.X_)
            idx = nn.kneighbors(X, return_distance=False)
            rows = np.repeat(np.arange(X.shape[0]), k)
            return sp.csr_array((np.ones(rows.size), (rows, idx.ravel())), shape=(X.shape[0], n))
        return sp.csr_array(np.exp(-self.gamma * cdist(X, self.X_, "sqeuclidean")))

    def predict_proba(self, X):
        """Class probabilities of new points, by scikit-learn's inductive
        rule: the fitted label distributions averaged with the weights of
        the point's edges to the fitted points (its ``n_neighbors`` nearest,
        or the RBF kernel to every one), normalised. A point whose weights
        all underflow to 0 gets the labelled class frequencies (where
        scikit-learn divides 0 by 0)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        P = np.asarray(self._new_edges(X) @ self.label_distributions_)
        mass = P.sum(axis=1, keepdims=True)
        empty = mass[:, 0] == 0
        P[empty] = self._prior
        mass[empty] = 1
        return P / mass

    def predict(self, X):
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
