"""gssl's models, one Python class per Go model kind, generated from the
kinds the library reports (gssl_kinds) and their estimator role."""

import ctypes
import inspect
import keyword
import json
import re
import warnings

import numpy as np
import scipy.sparse as sp

from . import _lib
from ._graph import Graph
from ._lib import call, lib
from .exceptions import ConvergenceWarning, NotFittedError

# Python names of the kinds; a kind not listed gets its Go name in CamelCase.
NAMES = {
    "labelprop.Spreading": "LabelSpreading",
    "labelprop.Harmonic": "HarmonicFunction",
    "stkr.Regressor": "STKRRegressor",
    "gp.Regressor": "GPRegressor",
    "imgp.Regressor": "ImplicitManifoldGPRegressor",
    "krr.Exact": "KernelRidgeRegressor",
    "krr.Nystrom": "NystromRegressor",
    "krr.Falkon": "FalkonRegressor",
    "krr.RandomFeatures": "RandomFeaturesRegressor",
    "svm.PointSVC": "PointSVC",
    "svm.SVC": "PrecomputedSVC",
    "svm.KernelRidge": "PrecomputedKernelRidgeClassifier",
    "spectral.SpectralClustering": "SpectralClustering",
    "spectral.LaplacianEigenmap": "LaplacianEigenmap",
    "spectral.KernelPCA": "KernelPCA",
    "nodeclass.SGC": "SGC",
    "nodeclass.APPNP": "APPNP",
    "nodeclass.APPNPNet": "APPNPNet",
    "nodeclass.CorrectSmooth": "CorrectAndSmooth",
    "nodeclass.SepGNN": "SepGNN",
    "nodeclass.LINKX": "LINKX",
    "nodeclass.ChannelMLP": "ChannelMLP",
    "linbp.Propagation": "LinBP",
    "graphkernels.WLClassifier": "WLClassifier",
    "confidence.Classifier": "ConformalClassifier",
    "krr.Classifier": "KernelRidgeClassifier",
}


def snake(name):
    """Go field name → Python parameter name: ClassMassNormalization →
    class_mass_normalization, MaxIter → max_iter, RBFGamma → rbf_gamma, Lambda → lambda_ (a
    Python keyword gets a trailing underscore)."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()
    return s + "_" if keyword.iskeyword(s) else s


def _f64(X, what):
    """X as a C-contiguous float64 or float32 array (no copy when it is one)."""
    if sp.issparse(X):
        raise ValueError(f"{what} is a SciPy sparse matrix, and this model takes a dense array: pass {what}.toarray()")
    X = np.asarray(X)
    if X.dtype not in (np.float64, np.float32):
        X = X.astype(np.float64)
    if X.ndim != 2:
        raise ValueError(f"{what} must be 2-D (one row per item), got shape {X.shape}")
    return np.ascontiguousarray(X)


class FeatureMatrix:
    """A feature matrix handed to the library: a dense C-contiguous float64
    or float32 array, or a SciPy sparse matrix in CSR form, read without
    densifying it.

    Read in place (no copy): float64 arrays; CSR ``indices`` of int32 and
    ``data`` of float64, and ``indptr`` of int64. Copied once: float32
    values (to float64), int64 ``indices`` (to int32), an int32 ``indptr``
    (rows + 1 entries, to the platform's int). A CSR matrix that is not in
    canonical form (unsorted or repeated columns in a row) is canonicalised
    on a copy first; another sparse format (COO, CSC, …) is converted to
    CSR; another dtype of a dense array is converted to float64; a dense
    array that is not C-contiguous is copied. The object keeps the arrays
    alive; a model fitted on it keeps a reference too.
    """

    def __init__(self, X, what="features"):
        h = _lib.new_handle()
        if sp.issparse(X):
            if X.ndim != 2:
                raise ValueError(f"{what} must be 2-D (one row per item), got shape {X.shape}")
            if X.format != "csr":
                X = X.tocsr()
            if not X.has_canonical_format:
                X = X.copy()
                X.sum_duplicates()  # sorts the columns of each row too
            data = X.data if X.data.dtype in (np.float64, np.float32) else X.data.astype(np.float64)
            indptr, indices = X.indptr, X.indices
            if indptr.dtype not in (np.int32, np.int64):
                indptr = indptr.astype(np.int64)
            if indices.dtype not in (np.int32, np.int64):
                indices = indices.astype(np.int64)
            data, indptr, indices = (np.ascontiguousarray(a) for a in (data, indptr, indices))
            rows, cols = X.shape
            call(lib.gssl_matrix_from_csr, rows, cols, data.size, _lib.ptr(indptr), indptr.itemsize,
                 _lib.ptr(indices), indices.itemsize, _lib.ptr(data), data.itemsize, ctypes.byref(h))
            self.arrays = (indptr, indices, data)
        else:
            X = _f64(X, what)
            call(lib.gssl_matrix_from_dense, _lib.ptr(X), X.itemsize, X.shape[0], X.shape[1], ctypes.byref(h))
            self.arrays = (X,)
        self.shape = X.shape
        self.sparse = sp.issparse(X)
        self._h = h.value

    def copied(self):
        """The names of the arrays the library copied ("indptr", "indices",
        "data"); empty when it reads every array in place."""
        r = _lib.new_handle()
        call(lib.gssl_matrix_copied, self._h, ctypes.byref(r))
        s = _lib.take_result(r.value).decode()
        return s.split(",") if s else []

    def __del__(self):
        try:
            if getattr(self, "_h", None) is not None and not _lib._forked:
                lib.gssl_free(self._h)
        except Exception:  # interpreter shutdown: the library may be gone
            pass
        self._h = None


def _new_node_arrays(new):
    """The CSR arrays of new nodes given as a sparse matrix (new nodes ×
    fitted nodes) of edge weights: their count, int64 offsets, int32 or
    int64 fitted node numbers and float64 weights (views when they are of
    these types)."""
    if not sp.issparse(new):
        raise TypeError("new nodes are a SciPy sparse matrix (new nodes × fitted nodes) of edge weights")
    new = new.tocsr() if new.format != "csr" else new
    if not new.has_canonical_format:
        new = new.copy()
        new.sum_duplicates()
    off = np.ascontiguousarray(new.indptr, dtype=np.int64)
    nodes = np.ascontiguousarray(new.indices)
    if nodes.dtype not in (np.int32, np.int64):
        nodes = nodes.astype(np.int64)
    return new.shape[0], off, nodes, np.ascontiguousarray(new.data, dtype=np.float64)


def _param_value(v):
    """A hyperparameter as the library shows it, in Python: a model (an
    object {"type": kind, …} of a model kind) becomes an unfitted instance
    of its class; anything else stays as it is."""
    if isinstance(v, dict) and v.get("type") in CLASSES:
        cls = CLASSES[v["type"]]
        py = {go: p for p, go in cls._go_names.items()}
        return cls(**{py[go]: _param_value(x) for go, x in v.items() if go != "type"})
    return v


def _matrix(X, what="features"):
    """X as a FeatureMatrix (None stays None)."""
    if X is None or isinstance(X, FeatureMatrix):
        return X
    return FeatureMatrix(X, what)


class _ForOutput:
    """A classifier's method that exists only for one output, as
    scikit-learn's convention has it: ``predict_proba`` for models whose
    predictions are class probabilities, ``decision_function`` for models
    whose predictions are decision values (scores, votes, regression
    outputs). For the other output the attribute is missing
    (``hasattr`` is False) and reading it raises an AttributeError naming
    the method to use. The output is the fitted model's (gssl_model_info's
    "output"), before fit the kind's (gssl_kinds)."""

    def __init__(self, output, fn):
        self.output, self.fn = output, fn
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        kind_output = getattr(owner, "_output", None)
        output = kind_output if obj is None else obj._declared_output()
        if output != self.output:
            raise AttributeError(self._missing(owner if obj is None else type(obj), output))
        return self.fn if obj is None else self.fn.__get__(obj, owner)

    def _missing(self, cls, output):
        if output == "decision_values":
            return (f"{cls.__name__} has no {self.name}: its predictions ({cls._kind}) are decision values, not "
                    "class probabilities; use decision_function for the scores, predict for the classes")
        if output == "probabilities":
            return (f"{cls.__name__} has no {self.name}: its predictions ({cls._kind}) are class probabilities; "
                    "use predict_proba, or predict for the classes")
        return f"{cls.__name__} has no {self.name}: the library declares no classifier output for {cls._kind}"


def _for_output(output):
    """Decorator: the method exists only when the model's output is
    ``output`` ("probabilities" or "decision_values"); see _ForOutput."""
    return lambda fn: _ForOutput(output, fn)


class Model:
    """Base of every gssl model class: hyperparameters, persistence,
    pickling. Hyperparameters are the Go model's exported fields in
    snake_case; None (the default) means the library's default."""

    _kind = None
    _role = "none"
    _output = None  # a classifier's: "probabilities" or "decision_values" (gssl_kinds)
    _savable = True
    _go_names = {}  # python name → Go field name

    def __init__(self, **params):
        for k in params:
            if k not in self._go_names:
                raise TypeError(f"{type(self).__name__} has no hyperparameter {k!r}; its hyperparameters are {', '.join(self._go_names)}")
        for k in self._go_names:
            setattr(self, k, params.get(k))
        self._h = None

    # scikit-learn's parameter protocol
    def get_params(self, deep=True):
        return {k: getattr(self, k) for k in self._go_names}

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self._go_names:
                raise ValueError(f"{type(self).__name__} has no hyperparameter {k!r}; its hyperparameters are {', '.join(self._go_names)}")
            setattr(self, k, v)
        return self

    def _go_params(self):
        """The hyperparameters set (not None) by Go name; a model given as
        a hyperparameter becomes {"type": its kind, its hyperparameters}."""
        out = {}
        for k, go in self._go_names.items():
            v = getattr(self, k)
            if v is None:
                continue
            if isinstance(v, np.generic):
                v = v.item()
            if isinstance(v, Model):
                v = {"type": v._kind, **v._go_params()}
            out[go] = v
        return out

    def _params_json(self):
        return json.dumps(self._go_params())

    def _new_handle(self):
        h = _lib.new_handle()
        call(lib.gssl_model_new, self._kind.encode(), self._params_json().encode(), ctypes.byref(h))
        self._free()
        self._h = h.value

    def _fitted_handle(self):
        if getattr(self, "_h", None) is None:
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet: call fit first, or gssl.load a saved model")
        return self._h

    def _fit_call(self, graph, features, labels, targets, n, progress=None, held_out=None):
        """Fits; features is None or a FeatureMatrix; held_out is None or
        the int64 node numbers a calibrated model calibrates on."""
        self._new_handle()
        report = _lib.progress_function(progress)  # alive until the call returns
        try:
            call(lib.gssl_model_fit_held_out, self._h, 0 if graph is None else graph._handle(),
                 0 if features is None else features._h,
                 _lib.ptr(labels), _lib.ptr(targets), n, _lib.ptr(held_out), -1 if held_out is None else held_out.size,
                 report, cancellable=True)
        except _lib.NotConverged as e:
            warnings.warn(str(e), ConvergenceWarning, stacklevel=3)
        except BaseException:
            self._free()
            raise

    def _predict_call(self, new=None, features=None):
        """Runs predict; new is a sparse matrix (new nodes × fitted nodes)
        of the new nodes' edge weights, or None."""
        h = self._fitted_handle()
        nnew, off, nodes, w = -1, None, None, None
        if new is not None:
            nnew, off, nodes, w = _new_node_arrays(new)
        features = _matrix(features)
        # The result is written straight into an array of the expected
        # shape: rows from the query (or the last prediction of the fitted
        # items), columns from the last prediction.
        rows = nnew if nnew >= 0 else features.shape[0] if features is not None else self.__dict__.get("_out_rows", 0)
        cols = self.__dict__.get("_out_cols", 1)
        out = _lib.predict_into(h, nnew, _lib.ptr(off), _lib.ptr(nodes), 8 if nodes is None else nodes.itemsize,
                                _lib.ptr(w), 0 if features is None else features._h, rows * cols)
        if nnew < 0 and features is None:
            self._out_rows = out.shape[0]
        self._out_cols = out.shape[1]
        return out

    # ---- description and persistence ----

    @property
    def info_(self):
        """The model as the library describes it: kind, role,
        hyperparameters (Go names), the last fit's iterations, residual and
        products, class names."""
        r = _lib.new_handle()
        call(lib.gssl_model_info, self._fitted_handle(), ctypes.byref(r))
        return _lib.take_json(r.value)

    def save(self, path):
        """Writes the fitted model as a .gssl file, as the CLI's --save does:
        gssl predict, gssl model info and gssl serve read it."""
        call(lib.gssl_model_save, self._fitted_handle(), str(path).encode())

    def to_bytes(self):
        """The bytes of the model's .gssl file."""
        r = _lib.new_handle()
        call(lib.gssl_model_to_bytes, self._fitted_handle(), ctypes.byref(r))
        return _lib.take_result(r.value)

    def _restore_from(self, h):
        self._free()
        self._h = h
        info = self.info_
        py = {go: p for p, go in self._go_names.items()}
        for go, v in info["hyperparameters"].items():
            setattr(self, py.get(go, snake(go)), _param_value(v))
        names = info.get("class_names")
        self._restored(names)

    def _restored(self, class_names):
        pass

    def __getstate__(self):
        if getattr(self, "_h", None) is not None and not self._savable:
            raise TypeError(f"a fitted {type(self).__name__} cannot be pickled: {self._kind} has no model file format "
                            "(pickling goes through the model file); pickle it unfitted and fit it again")
        state = {k: v for k, v in self.__dict__.items() if k not in ("_h", "_graph", "_keep", "_fitted_output")}
        state["_model_file"] = None if getattr(self, "_h", None) is None else self.to_bytes()
        return state

    def __setstate__(self, state):
        b = state.pop("_model_file", None)
        self.__dict__.update(state)
        self._h = None
        if b is not None:
            h = _lib.new_handle()
            call(lib.gssl_model_from_bytes, b, len(b), ctypes.byref(h))
            self._h = h.value

    def _free(self):
        if getattr(self, "_h", None) is not None and not _lib._forked:
            lib.gssl_free(self._h)
        self._h = None
        self.__dict__.pop("_fitted_output", None)

    def _declared_output(self):
        """What the predictions hold: "probabilities" or "decision_values"
        as the fitted model declares it (its hyperparameters may decide),
        or, before fit, as the kind does with its defaults."""
        if getattr(self, "_h", None) is None:
            return self._output
        if "_fitted_output" not in self.__dict__:
            self._fitted_output = self.info_.get("output")
        return self._fitted_output

    def __del__(self):
        try:
            self._free()
        except Exception:  # interpreter shutdown: the library may be gone
            pass

    def __repr__(self):
        set_ = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._go_names if getattr(self, k, None) is not None)
        return f"{type(self).__name__}({set_})"


class NodeClassifier(Model):
    """A model that classifies the nodes of a graph from a few labels."""

    def fit(self, graph, y, features=None, progress=None):
        """Fits on ``graph`` (a :class:`gssl.Graph`) with one label per node
        (integers 0..C−1, −1 for unknown) and, for models of features, one
        feature row per node. ``progress``: a callable(iteration, residual)
        called during the fit (for models that report progress), or True
        for a tqdm bar when tqdm is installed. Returns self."""
        return self._fit_labels(graph, y, features, progress)

    def _fit_labels(self, graph, y, features, progress, held_out=None):
        if not isinstance(graph, Graph):
            raise TypeError(f"fit wants a gssl.Graph, got {type(graph).__name__} (see Graph.from_scipy, from_edges, from_networkx)")
        y = np.asarray(y)
        if y.ndim != 1 or y.dtype.kind not in "iu":
            raise ValueError(f"y must be a 1-D integer array (class 0..C−1, −1 for unknown), got dtype {y.dtype} and shape {y.shape}")
        labels = np.ascontiguousarray(y, dtype=np.int64)
        X = _matrix(features)
        self._fit_call(graph, X, labels, None, labels.size, progress, held_out)
        self._graph, self._keep = graph, X
        self.classes_ = np.arange(int(labels.max(initial=-1)) + 1)
        self.n_nodes_ = graph.n_nodes
        return self

    def _restored(self, class_names):
        p = self._predict_call()
        self.classes_ = np.arange(p.shape[1])
        self.n_nodes_ = p.shape[0]

    @_for_output("probabilities")
    def predict_proba(self, new=None, features=None):
        """Class probabilities, one row per node (each a distribution over
        ``classes_``): the fitted nodes, or the new nodes of ``new``, a
        sparse matrix (new nodes × fitted nodes) of their edge weights, with
        their ``features`` for models of features. Only models whose
        predictions are probabilities have it."""
        return self._predict_call(new, features)

    @_for_output("decision_values")
    def decision_function(self, new=None, features=None):
        """Decision values (scores, not probabilities), one row per node
        and one column per class, of the nodes as in ``predict_proba``; the
        largest gives the class. Only models without probabilities have
        it."""
        return self._predict_call(new, features)

    def predict(self, new=None, features=None):
        """The predicted class of each node (the first of the largest
        probabilities or decision values)."""
        return self.classes_[np.argmax(self._predict_call(new, features), axis=1)]


class CalibratedNodeClassifier(NodeClassifier):
    """A node classifier whose probabilities are calibrated (temperature
    scaling) and which has conformal prediction sets (split conformal with
    the randomised APS score): it fits a clone of ``base`` on the labelled
    nodes it does not hold out, and calibrates on the held-out ones.

    A model file written by ``gssl classify`` or ``gssl labelprop
    --conformal A --save`` opens as this class (``gssl.load``), and one
    saved from here is read by ``gssl predict`` and ``gssl serve``, which
    answer the same probabilities and sets.
    """

    def fit(self, graph, y, features=None, held_out=None, progress=None):
        """Fits on ``graph`` with one label per node (−1 for unknown).
        ``held_out``: the nodes to calibrate on (an array of node numbers,
        e.g. a split's validation nodes, whose labels are in ``y`` and are
        not shown to the base model); None holds out a fraction
        ``holdout`` of each class's labelled nodes, drawn with ``seed``."""
        if held_out is not None:
            h = np.asarray(held_out)
            if h.ndim != 1 or (h.size and h.dtype.kind not in "iu"):
                raise ValueError(f"held_out must be a 1-D array of node numbers, got dtype {h.dtype} and shape {h.shape}")
            held_out = np.ascontiguousarray(h, dtype=np.int64)
        return self._fit_labels(graph, y, features, progress, held_out)

    @property
    def calibration_(self):
        """The fitted calibration: temperature and smoothing of the
        probabilities; alpha, threshold (of the APS score; None for +∞),
        number of calibration nodes and seed of the prediction sets."""
        return self.info_["calibration"]

    def predict_sets(self, new=None, features=None, ids=None):
        """The conformal prediction set of each node (the fitted nodes, or
        the new nodes of ``new`` as in ``predict_proba``): a list of arrays
        of classes, in decreasing probability. Each set holds the node's
        true class with probability at least 1 − alpha. A node's set draws
        its uniform from its key: a fitted node's number, or a new node's
        id, as ``gssl predict`` and ``gssl serve`` do; ``ids`` names the new
        nodes (default: their row numbers "0", "1", …)."""
        h = self._fitted_handle()
        nnew, off, nodes, w = -1, None, None, None
        blob, boff = None, None
        if new is not None:
            nnew, off, nodes, w = _new_node_arrays(new)
            if ids is None:
                ids = range(nnew)
            ids = [str(v).encode("utf-8") for v in ids]
            if len(ids) != nnew:
                raise ValueError(f"{len(ids)} ids for {nnew} new nodes")
            blob = np.frombuffer(b"".join(ids) or b"\0", dtype=np.uint8)
            boff = np.zeros(nnew + 1, dtype=np.int64)
            np.cumsum([len(v) for v in ids], out=boff[1:])
        elif ids is not None:
            raise ValueError("ids name new nodes: give them with new")
        features = _matrix(features)
        r = _lib.new_handle()
        call(lib.gssl_model_predict_sets, h, nnew, _lib.ptr(off), _lib.ptr(nodes), 8 if nodes is None else nodes.itemsize,
             _lib.ptr(w), 0 if features is None else features._h, _lib.ptr(blob), _lib.ptr(boff), ctypes.byref(r))
        sets = _lib.take_result(r.value)
        return [self.classes_[row[row >= 0]] for row in sets]


class NodeRegressor(Model):
    """A model that predicts a real value per node from a few known ones."""

    def fit(self, graph, y, features=None, progress=None):
        """Fits on ``graph`` with one target per node (NaN for unknown)."""
        y = np.ascontiguousarray(y, dtype=np.float64)
        X = _matrix(features)
        self._fit_call(graph, X, None, y, y.size, progress)
        self._graph, self._keep = graph, (X, y)
        return self

    def predict(self, new=None, features=None, return_std=False):
        r = self._predict_call(new, features)
        if return_std:
            if r.shape[1] < 2:
                raise ValueError(f"{type(self).__name__} has no predictive variance")
            return r[:, 0], np.sqrt(r[:, 1])
        return r[:, 0]


class NodeTransformer(Model):
    """A model that maps the nodes of a graph to vectors (an embedding)."""

    def fit(self, graph, features=None, progress=None):
        X = _matrix(features)
        self._fit_call(graph, X, None, None, 0, progress)
        self._graph, self._keep = graph, X
        return self

    def transform(self, new=None, features=None):
        return self._predict_call(new, features)


class NodeClusterer(Model):
    """A model that groups the nodes of a graph."""

    def fit(self, graph, features=None, progress=None):
        X = _matrix(features)
        self._fit_call(graph, X, None, None, 0, progress)
        self._graph, self._keep = graph, X
        return self

    def predict(self, new=None, features=None):
        return self._predict_call(new, features)[:, 0]


class PointClassifier(Model):
    """A model that classifies points (rows of a feature matrix)."""

    def fit(self, X, y, progress=None):
        X = _matrix(_f64(X, "X"), "X")
        labels = np.ascontiguousarray(y, dtype=np.int64)
        self._fit_call(None, X, labels, None, labels.size, progress)
        self._keep = X
        self.classes_ = np.arange(int(labels.max(initial=-1)) + 1)
        return self

    @_for_output("probabilities")
    def predict_proba(self, X=None):
        """Class probabilities of the rows of X (None: the fitted points,
        for transductive models). Only models whose predictions are
        probabilities have it."""
        return self._predict_call(None, X)

    @_for_output("decision_values")
    def decision_function(self, X=None):
        """Decision values (scores, not probabilities) of the rows of X,
        one column per class. Only models without probabilities have
        it."""
        return self._predict_call(None, X)

    def predict(self, X=None):
        """The predicted class of each row of X."""
        return self.classes_[np.argmax(self._predict_call(None, X), axis=1)]


class PointRegressor(Model):
    """A model that predicts a real value per point."""

    def fit(self, X, y, progress=None):
        X = _matrix(_f64(X, "X"), "X")
        y = np.ascontiguousarray(y, dtype=np.float64)
        self._fit_call(None, X, None, y, y.size, progress)
        self._keep = (X, y)
        return self

    def predict(self, X=None, return_std=False):
        r = self._predict_call(None, X)
        if return_std:
            if r.shape[1] < 2:
                raise ValueError(f"{type(self).__name__} has no predictive variance")
            return r[:, 0], np.sqrt(r[:, 1])
        return r[:, 0]


class PointTransformer(Model):
    """A model that maps points to vectors."""

    def fit(self, X, progress=None):
        X = _matrix(_f64(X, "X"), "X")
        self._fit_call(None, X, None, None, 0, progress)
        self._keep = X
        return self

    def transform(self, X=None):
        return self._predict_call(None, X)


def _graph_args(graphs, node_labels):
    graphs = list(graphs)
    for g in graphs:
        if not isinstance(g, Graph):
            raise TypeError(f"graphs must be gssl.Graph objects, got {type(g).__name__}")
    hs = np.array([g._handle() for g in graphs], dtype=np.int64)
    nl = None
    if node_labels is not None:
        node_labels = [np.asarray(a) for a in node_labels]
        if len(node_labels) != len(graphs):
            raise ValueError(f"{len(node_labels)} node label arrays for {len(graphs)} graphs")
        for i, (g, a) in enumerate(zip(graphs, node_labels)):
            if a.shape != (g.n_nodes,) or a.dtype.kind not in "iu":
                raise ValueError(f"node_labels[{i}] must be {g.n_nodes} integers (one per node), got dtype {a.dtype} and shape {a.shape}")
        nl = np.ascontiguousarray(np.concatenate(node_labels) if node_labels else np.zeros(0), dtype=np.int64)
    return graphs, hs, nl


class GraphClassifier(Model):
    """A model that classifies whole graphs (each a :class:`gssl.Graph`
    with an optional integer label per node)."""

    def fit(self, graphs, y, node_labels=None, progress=None):
        graphs, hs, nl = _graph_args(graphs, node_labels)
        labels = np.ascontiguousarray(y, dtype=np.int64)
        if labels.shape != (len(graphs),):
            raise ValueError(f"y must hold one class per graph: {labels.shape} for {len(graphs)} graphs")
        self._new_handle()
        report = _lib.progress_function(progress)
        try:
            call(lib.gssl_model_fit_graphs, self._h, _lib.ptr(hs), len(graphs), _lib.ptr(nl), _lib.ptr(labels), report,
                 cancellable=True)
        except _lib.NotConverged as e:
            warnings.warn(str(e), ConvergenceWarning, stacklevel=2)
        except BaseException:
            self._free()
            raise
        self._keep = (graphs, nl)
        self.classes_ = np.arange(int(labels.max(initial=-1)) + 1)
        return self

    def _restored(self, class_names):
        self.classes_ = None

    @_for_output("probabilities")
    def predict_proba(self, graphs=None, node_labels=None):
        """Class probabilities of ``graphs`` (None: the fitted graphs), one
        row per graph. Only models whose predictions are probabilities have
        it."""
        return self._graph_scores(graphs, node_labels)

    @_for_output("decision_values")
    def decision_function(self, graphs=None, node_labels=None):
        """Decision values (scores, not probabilities) of ``graphs`` (None:
        the fitted graphs), one row per graph and one column per class.
        Only models without probabilities have it."""
        return self._graph_scores(graphs, node_labels)

    def _graph_scores(self, graphs, node_labels):
        h = self._fitted_handle()
        n, hs, nl = -1, None, None
        if graphs is not None:
            graphs, hs, nl = _graph_args(graphs, node_labels)
            n = len(graphs)
        r = _lib.new_handle()
        call(lib.gssl_model_predict_graphs, h, _lib.ptr(hs), n, _lib.ptr(nl), ctypes.byref(r))
        return _lib.take_result(r.value)

    def predict(self, graphs=None, node_labels=None):
        """The predicted class of each graph."""
        p = self._graph_scores(graphs, node_labels)
        return np.argmax(p, axis=1) if self.classes_ is None else self.classes_[np.argmax(p, axis=1)]


class Unconverted(Model):
    """A model kind whose Go package does not implement an estimator role
    yet: it can be made and described, not fitted."""

    def fit(self, *args, **kwargs):
        raise NotImplementedError(f"{self._kind} implements no estimator role in this gssl yet")


_BASES = {
    "node_classifier": NodeClassifier,
    "node_regressor": NodeRegressor,
    "node_transformer": NodeTransformer,
    "node_clusterer": NodeClusterer,
    "point_classifier": PointClassifier,
    "point_regressor": PointRegressor,
    "point_transformer": PointTransformer,
    "graph_classifier": GraphClassifier,
}


# Kinds with methods beyond their role's.
_KIND_BASES = {"confidence.Classifier": CalibratedNodeClassifier}


def _make_class(kind, role, defaults, savable=True, output=None):
    name = NAMES.get(kind) or "".join(p[:1].upper() + p[1:] for p in re.split(r"[._]", kind))
    base = _KIND_BASES.get(kind) or _BASES.get(role, Unconverted)
    go_names = {}
    for go in defaults:
        py = snake(go)
        if hasattr(base, py):  # a method's name (fit, predict, transform…)
            py += "_"
        go_names[py] = go

    def __init__(self, **params):
        Model.__init__(self, **params)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, default=None) for p in go_names]
    __init__.__signature__ = inspect.Signature(params)
    doc = (f"The Go model {kind} (role {role}).\n\nHyperparameters (None: the library's default; "
           f"see the Go package's documentation of each field):\n\n"
           + "\n".join(f"    {p}  (Go field {go}; zero value {defaults[go]!r})" for p, go in go_names.items()))
    if output == "probabilities":
        doc += "\n\nIts predictions are class probabilities: predict_proba gives them, predict the classes."
    elif output == "decision_values":
        doc += ("\n\nIts predictions are decision values, not probabilities: decision_function gives them, "
                "predict the classes; it has no predict_proba.")
    if not savable:
        doc += "\n\nA fitted model of this kind has no model file format: it cannot be saved or pickled."
    return type(name, (base,), {"__init__": __init__, "_kind": kind, "_role": role, "_go_names": go_names,
                                "_savable": savable, "_output": output,
                                "_defaults": dict(defaults),
                                "__doc__": doc, "__module__": "gssl"})


def _kinds():
    r = _lib.new_handle()
    call(lib.gssl_kinds, ctypes.byref(r))
    return _lib.take_json(r.value)


CLASSES = {}
for _k in _kinds():
    CLASSES[_k["kind"]] = _make_class(_k["kind"], _k["role"], _k["hyperparameters"], _k.get("savable", True),
                                     _k.get("output"))


def load(path_or_bytes):
    """Reads a .gssl model file (written by ``save`` or the CLI's --save)
    into an instance of its kind's class."""
    h = _lib.new_handle()
    if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
        b = bytes(path_or_bytes)
        call(lib.gssl_model_from_bytes, b, len(b), ctypes.byref(h))
    else:
        call(lib.gssl_model_load, str(path_or_bytes).encode(), ctypes.byref(h))
    r = _lib.new_handle()
    try:
        call(lib.gssl_model_info, h.value, ctypes.byref(r))
    except BaseException:
        lib.gssl_free(h.value)
        raise
    kind = _lib.take_json(r.value)["kind"]
    m = CLASSES[kind].__new__(CLASSES[kind])
    for k in m._go_names:
        setattr(m, k, None)
    m._h = None
    m._restore_from(h.value)
    return m
