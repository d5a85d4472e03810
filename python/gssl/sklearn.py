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

import ctypes
import inspect
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin
from sklearn.neighbors import NearestNeighbors
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _lib, _models
from ._graph import Graph

__all__ = ["LabelSpreading", "SGCClassifier", "APPNPClassifier", "CorrectAndSmoothClassifier",
           "ImplicitManifoldGPRegressor", "GaussianProcessRegressor", "FalkonRegressor", "FalkonClassifier",
           "WeisfeilerLehman"]


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


#: imgp.DefaultK, the Go library's default number of neighbours.
IMGP_DEFAULT_K = 50

#: The penalty of FalkonRegressor and FalkonClassifier when lambda_ is None.
FALKON_DEFAULT_LAMBDA = 1e-6


def _with_params(kind, cls, extra=None):
    """Gives cls (a scikit-learn estimator on the gssl model ``kind``) the
    model's hyperparameters as keyword-only ``__init__`` parameters, None
    meaning the library's default, after the parameters of ``extra`` (a
    dict of name → default) that the estimator itself uses."""
    extra = dict(extra or {})
    names = list(extra) + [n for n in _models.CLASSES[kind]._go_names if n not in extra]

    def __init__(self, **params):
        for k in params:
            if k not in names:
                raise TypeError(f"{cls.__name__} has no parameter {k!r}; its parameters are {', '.join(names)}")
        for k in names:
            setattr(self, k, params.get(k, extra.get(k)))

    sig = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    sig += [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, default=extra.get(p)) for p in names]
    __init__.__signature__ = inspect.Signature(sig)
    cls.__init__ = __init__
    cls._kind = kind
    cls._extra = tuple(extra)
    return cls


class _NodeFeatureClassifier(ClassifierMixin, BaseEstimator):
    """A gssl node classifier of features and graph (package nodeclass) as
    a semi-supervised scikit-learn classifier of points: ``fit(X, y)``
    builds the K-nearest-neighbour graph of the rows of X (symmetric, 0/1
    weights, as LabelSpreading(kernel="knn")) and fits the model on that
    graph with X as the node features and y as the labels (−1 for
    unlabelled, scikit-learn's convention); ``transduction_`` and
    ``label_distributions_`` are the fitted points' classes and
    probabilities. ``predict_proba(X)`` treats each row as a new node whose
    edges go to its ``n_neighbors`` nearest fitted points (weight 1), with
    the row as its features: the model's own rule for new nodes.
    ``n_iter_`` is the base solver's iteration count (L-BFGS of the
    logistic regression).
    ``normalization`` None means "none" here (the features as given, as
    scikit-learn's estimators take X); "row-sum" is the library's default
    for bag-of-words features. The other parameters are the Go model's
    (None: its default)."""

    def __sklearn_is_fitted__(self):
        return hasattr(self, "model_")

    def _model_params(self):
        p = {k: v for k, v in self.get_params().items() if k not in self._extra}
        if "normalization" in p and p["normalization"] is None:
            p["normalization"] = "none"
        if "base" in p and p["base"] is None:
            p["base"] = {"type": "nodeclass.SGC", "Normalization": "none"}
        return p

    def fit(self, X, y):
        X, y = validate_data(self, X, y, ensure_min_samples=2, dtype=np.float64, order="C")
        check_classification_targets(y)
        if not (isinstance(self.n_neighbors, Integral) and self.n_neighbors >= 1):
            raise ValueError(f"n_neighbors={self.n_neighbors!r} is invalid: it must be an integer ≥ 1")
        y = np.asarray(y)
        unlabelled = (y == -1) if y.dtype.kind in "iuf" else np.zeros(y.shape, dtype=bool)
        self.classes_ = np.unique(y[~unlabelled])
        if self.classes_.size < 2:
            raise ValueError(f"{type(self).__name__} needs labelled points of at least 2 classes, got {self.classes_.size} class")
        codes = np.full(y.shape[0], -1, dtype=np.int64)
        codes[~unlabelled] = np.searchsorted(self.classes_, y[~unlabelled])
        self.X_ = X
        graph = Graph.from_knn(X, min(self.n_neighbors, X.shape[0] - 1))
        model = _models.CLASSES[self._kind](**self._model_params())
        if "classes" in model._go_names:
            model.classes = len(self.classes_)
        self.model_ = model.fit(graph, codes, features=X)
        self.label_distributions_ = self.model_.predict_proba()
        self.transduction_ = self.classes_[np.argmax(self.label_distributions_, axis=1)]
        self.n_iter_ = self.model_.info_["info"]["Iterations"]
        return self

    def _new_edges(self, X):
        n = self.X_.shape[0]
        k = min(self.n_neighbors, n)
        idx = NearestNeighbors(n_neighbors=k).fit(self.X_).kneighbors(X, return_distance=False)
        rows = np.repeat(np.arange(X.shape[0]), k)
        return sp.csr_array((np.ones(rows.size), (rows, idx.ravel())), shape=(X.shape[0], n))

    def predict_proba(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, order="C")
        return self.model_.predict_proba(new=self._new_edges(X), features=X)

    def predict(self, X):
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


@lambda c: _with_params("nodeclass.SGC", c, {"n_neighbors": 10})
class SGCClassifier(_NodeFeatureClassifier):
    """SGC (Wu et al. 2019): logistic regression on S̃^K X, the features
    propagated K steps over the K-nearest-neighbour graph of X. See
    _NodeFeatureClassifier for fit and predict."""

    __doc__ += _NodeFeatureClassifier.__doc__


@lambda c: _with_params("nodeclass.APPNP", c, {"n_neighbors": 10})
class APPNPClassifier(_NodeFeatureClassifier):
    """APPNP with a linear base (Klicpera et al. 2019): logistic regression
    on the personalised-PageRank propagation (1−a)(I − aS̃)⁻¹X over the
    K-nearest-neighbour graph of X."""

    __doc__ += _NodeFeatureClassifier.__doc__


@lambda c: _with_params("nodeclass.CorrectSmooth", c, {"n_neighbors": 10})
class CorrectAndSmoothClassifier(_NodeFeatureClassifier):
    """Correct & Smooth (Huang et al. 2021) on a base model (``base``:
    {"type": "nodeclass.SGC", "K": 2, …} or {"type": "nodeclass.APPNP",
    …}; None: SGC with the library's defaults and "Normalization":
    "none"), over the K-nearest-neighbour graph of X."""

    __doc__ += _NodeFeatureClassifier.__doc__


class _PointRegressor(RegressorMixin, BaseEstimator):
    """A gssl point regressor as a scikit-learn regressor: ``fit(X, y)``,
    ``predict(X, return_std=False)``."""

    _kind = None

    def __sklearn_is_fitted__(self):
        return hasattr(self, "model_")

    def _params(self, X):
        """The gssl model's hyperparameters for a fit on X."""
        return self.get_params()

    def fit(self, X, y):
        X, y = validate_data(self, X, y, y_numeric=True, ensure_min_samples=2, dtype=np.float64)
        self.model_ = _models.CLASSES[self._kind](**self._params(X)).fit(X, y)
        return self

    def predict(self, X, return_std=False):
        """The predictive mean at the rows of X, and with ``return_std``
        the predictive standard deviation too."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self.model_.predict(X, return_std=return_std)


@lambda c: _with_params("imgp.Regressor", c)
class ImplicitManifoldGPRegressor(_PointRegressor):
    """The implicit manifold Gaussian process (Fichera et al. 2023; gssl's
    imgp): a GP whose covariance is the Matérn kernel of the K-nearest-
    neighbour graph Laplacian of the training points, with its
    hyperparameters learned by the marginal likelihood. ``predict(X,
    return_std=True)`` gives the posterior mean and standard deviation.
    ``k`` None means the library's default K capped at n − 1 for n
    training points."""

    def _params(self, X):
        p = self.get_params()
        if p["k"] is None:
            p["k"] = min(IMGP_DEFAULT_K, X.shape[0] - 1)
        return p


@lambda c: _with_params("gp.Regressor", c)
class GaussianProcessRegressor(_PointRegressor):
    """Exact Gaussian process regression (gssl's gp) with its
    hyperparameters learned by the log marginal likelihood."""


@lambda c: _with_params("krr.Falkon", c)
class FalkonRegressor(_PointRegressor):
    """FALKON kernel ridge regression (Rudi et al. 2017): Nyström centres
    and preconditioned conjugate gradients (gssl's krr.Falkon). ``kernel``
    None means the Gaussian kernel of width 1, {"type": "kernel.Gaussian",
    "Sigma": 1}; ``lambda_`` (the ridge parameter λ, which the Go model
    requires) None means FALKON_DEFAULT_LAMBDA."""

    def _params(self, X):
        return _falkon_params(self)


def _falkon_params(est):
    p = est.get_params()
    if p["kernel"] is None:
        p["kernel"] = {"type": "kernel.Gaussian", "Sigma": 1.0}
    if p["lambda_"] is None:
        p["lambda_"] = FALKON_DEFAULT_LAMBDA
    return p


@lambda c: _with_params("krr.Falkon", c)
class FalkonClassifier(ClassifierMixin, BaseEstimator):
    """FALKON kernel ridge classification: the ±1 coding of each class
    (one class against the others) regressed by FALKON with the same
    hyperparameters; ``decision_function`` gives the C scores, ``predict``
    the class of the largest (for two classes, one score and its sign)."""

    def __sklearn_is_fitted__(self):
        return hasattr(self, "models_")

    def fit(self, X, y):
        X, y = validate_data(self, X, y, ensure_min_samples=2, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"FalkonClassifier needs at least 2 classes, got {self.classes_.size}")
        targets = [codes == 1] if self.classes_.size == 2 else [codes == c for c in range(self.classes_.size)]
        params = _falkon_params(self)
        self.models_ = [_models.CLASSES["krr.Falkon"](**params).fit(X, np.where(t, 1.0, -1.0)) for t in targets]
        return self

    def decision_function(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        scores = np.column_stack([m.predict(X) for m in self.models_])
        return scores[:, 0] if len(self.models_) == 1 else scores

    def predict(self, X):
        d = self.decision_function(X)
        if d.ndim == 1:
            return self.classes_[(d > 0).astype(int)]
        return self.classes_[np.argmax(d, axis=1)]


def _as_graph(g, label):
    """A graph input as (gssl.Graph, node labels): a networkx graph with
    node attribute ``label`` (nodes in the graph's order), or an (edges,
    labels) tuple: edges an (m, 2) array of node numbers 0..n−1, labels n
    integers (n = len(labels))."""
    if isinstance(g, tuple) and len(g) == 2:
        edges, labels = g
        labels = np.asarray(labels)
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        if labels.ndim != 1 or labels.dtype.kind not in "iu":
            raise ValueError(f"node labels must be a 1-D integer array, got dtype {labels.dtype} and shape {labels.shape}")
        graph = Graph.from_edges(edges[:, 0], edges[:, 1], n=labels.size, duplicates="max")
        return graph, labels.astype(np.int64)
    if hasattr(g, "nodes") and hasattr(g, "edges"):
        nodes = list(g.nodes)
        index = {v: i for i, v in enumerate(nodes)}
        try:
            labels = np.array([g.nodes[v][label] for v in nodes], dtype=np.int64)
        except KeyError:
            missing = next(v for v in nodes if label not in g.nodes[v])
            raise ValueError(f"node {missing!r} has no {label!r} attribute (the node label the kernel uses)") from None
        e = np.array([(index[u], index[v]) for u, v in g.edges], dtype=np.int64).reshape(-1, 2)
        graph = Graph.from_edges(e[:, 0], e[:, 1], n=len(nodes), duplicates="max")
        return graph, labels
    raise TypeError(f"a graph is a networkx graph or an (edges, node_labels) tuple, got {type(g).__name__}")


class WeisfeilerLehman(TransformerMixin, BaseEstimator):
    """The Weisfeiler–Lehman subtree kernel (Shervashidze et al. 2011) as a
    transformer of graphs, GraKeL's convention: ``fit_transform(graphs)``
    is the Gram matrix of the training graphs and ``transform(graphs)``
    their kernel values against the training graphs (one row per graph),
    for ``SVC(kernel="precomputed")``. A graph is a networkx graph whose
    nodes carry an integer attribute ``node_label``, or an (edges,
    node_labels) tuple.

    Parameters
    ----------
    h : int, default=5
        Relabelling rounds (0: the vertex label histogram), in [0, 64].
    normalize : bool, default=False
        The cosine-normalised kernel k(a, b)/√(k(a, a)k(b, b)).
    node_label : str, default="label"
        The networkx node attribute holding the label.
    """

    _parameter_constraints = {
        "h": [Interval(Integral, 0, 64, closed="both")],
        "normalize": ["boolean"],
        "node_label": [str],
    }

    def __init__(self, h=5, normalize=False, node_label="label"):
        self.h = h
        self.normalize = normalize
        self.node_label = node_label

    def _graphs(self, graphs):
        pairs = [_as_graph(g, self.node_label) for g in graphs]
        gs = [p[0] for p in pairs]
        hs = np.array([g._handle() for g in gs], dtype=np.int64)
        nl = np.ascontiguousarray(np.concatenate([p[1] for p in pairs]) if pairs else np.zeros(0), dtype=np.int64)
        return gs, hs, nl

    def _kernel(self, query):
        gs, hs, nl = self._train
        qn, qh, qnl = -1, None, None
        if query is not None:
            qgs, qh, qnl = query
            qn = len(qgs)
        r = _lib.new_handle()
        _lib.call(_lib.lib.gssl_wl_kernel, int(self.h), int(bool(self.normalize)), _lib.ptr(hs), len(gs), _lib.ptr(nl),
                  _lib.ptr(qh), qn, _lib.ptr(qnl), ctypes.byref(r), cancellable=True)
        return _lib.take_result(r.value)

    def fit(self, X, y=None):
        """Keeps the training graphs X."""
        self._validate_params()
        self._train = self._graphs(X)
        if not self._train[0]:
            raise ValueError("WeisfeilerLehman needs at least one graph to fit")
        self.n_graphs_fit_ = len(self._train[0])
        return self

    def fit_transform(self, X, y=None):
        """The Gram matrix of the graphs X."""
        return self.fit(X)._kernel(None)

    def transform(self, X):
        """The kernel values of the graphs X against the training graphs."""
        check_is_fitted(self)
        return self._kernel(self._graphs(X))
