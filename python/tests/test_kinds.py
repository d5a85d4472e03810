"""Every model kind through the one generic binding: whatever its role,
it fits, predicts one row per item, and predicts bitwise the same after a
pickle round trip and after save → gssl.load. A kind whose package does not
implement a role yet must refuse fit."""

import pickle

import numpy as np
import pytest

import gssl
from gssl._models import CLASSES, _kinds

KERNEL = {"type": "kernel.Gaussian", "Sigma": 1.0}
# Hyperparameters a kind needs beyond its defaults (fields with no default).
SETTINGS = {
    "krr.Exact": {"kernel": KERNEL, "lambda_": 1e-3},
    "krr.Falkon": {"kernel": KERNEL, "lambda_": 1e-3},
    "krr.Nystrom": {"kernel": KERNEL, "lambda_": 1e-3},
    "krr.RandomFeatures": {"sigma": 1.0, "lambda_": 1e-3},
    "svm.PointSVC": {"kernel": KERNEL},
    "stkr.Regressor": {"transform": {"type": "stkr.InverseLaplacian", "Eta": 0.9}, "beta": 1.0},
    "stkr.Classifier": {"transform": {"type": "stkr.InverseLaplacian", "Eta": 0.9}, "beta": 1.0},
    "spectral.SpectralClustering": {"clusters": 7},
    # hyperparameters that are models: an unfitted model of a kind that fits
    "krr.Classifier": {"model": CLASSES["krr.Exact"](kernel=KERNEL, lambda_=1e-3)},
    "confidence.Classifier": {"base": CLASSES["labelprop.Spreading"](alpha=0.9)},
}
ROLES = {k["kind"]: k["role"] for k in _kinds()}
SAVABLE = {k["kind"]: k["savable"] for k in _kinds()}
OUTPUTS = {k["kind"]: k.get("output") for k in _kinds()}
# The classifiers whose predictions are decision values, not probabilities,
# stated here from their mathematics (regression outputs on one-hot labels,
# diffused labels, SVM decision values, WL kernel SVM): the library's
# declaration must agree.
DECISION_VALUES = {"stkr.Classifier", "diffusion.HeatClassifier", "krr.Classifier", "svm.PointSVC", "svm.SVC",
                   "svm.KernelRidge", "graphkernels.WLClassifier"}


def data():
    rng = np.random.default_rng(0)
    cora = gssl.datasets.cora()
    X = rng.normal(size=(cora.graph.n_nodes, 16))
    P = rng.normal(size=(200, 3))
    return cora, X, P


def small_graphs():
    """Cycles (class 0) and stars (class 1) of 5 to 12 nodes, labelled by
    degree."""
    graphs, labels, node_labels = [], [], []
    for n in range(5, 13):
        for cls in (0, 1):
            src = np.arange(n) if cls == 0 else np.zeros(n - 1, dtype=np.int64)
            dst = (np.arange(n) + 1) % n if cls == 0 else np.arange(1, n)
            g = gssl.Graph.from_edges(src, dst, n=n)
            graphs.append(g)
            labels.append(cls)
            node_labels.append(np.asarray((g.to_scipy() != 0).sum(axis=1)).ravel().astype(np.int64))
    return graphs, np.array(labels), node_labels


def scores(m, *args):
    """A classifier's predictions: predict_proba for probabilities,
    decision_function for decision values."""
    return (m.predict_proba if OUTPUTS[m._kind] == "probabilities" else m.decision_function)(*args)


def check_output(m):
    """m (a classifier) has predict_proba exactly when it declares
    probabilities, and decision_function exactly when it declares decision
    values; the missing one raises an AttributeError naming the other."""
    output = OUTPUTS[m._kind]
    assert output == ("decision_values" if m._kind in DECISION_VALUES else "probabilities"), m._kind
    assert hasattr(m, "predict_proba") == (output == "probabilities")
    assert hasattr(m, "decision_function") == (output == "decision_values")
    missing, other = ("predict_proba", "decision_function") if output == "decision_values" else ("decision_function", "predict_proba")
    with pytest.raises(AttributeError, match=f"has no {missing}: .* use {other}"):
        getattr(m, missing)


def out(m, role, cora, X, P):
    if role == "node_classifier":
        return scores(m)
    if role in ("node_regressor", "node_clusterer"):
        return m.predict()
    if role == "node_transformer":
        return m.transform()
    if role == "point_classifier":
        return scores(m, P[:20])
    if role == "point_regressor":
        return m.predict(P[:20])
    return m.transform(P[:20])


@pytest.mark.parametrize("kind", sorted(ROLES))
def test_kind(kind, tmp_path):
    role = ROLES[kind]
    cls = CLASSES[kind]
    m = cls(**SETTINGS.get(kind, {}))
    cora, X, P = data()
    y = cora.train_labels()
    if role == "graph_classifier":
        graphs, labels, node_labels = small_graphs()
        m.fit(graphs, labels, node_labels=node_labels)
        got = scores(m, graphs[:10], node_labels[:10])
        assert got.shape[0] == 10 and np.all(np.isfinite(got))
        back = pickle.loads(pickle.dumps(m))
        np.testing.assert_array_equal(scores(back, graphs[:10], node_labels[:10]), got)
        np.testing.assert_array_equal(back.predict(graphs[:10], node_labels[:10]), np.argmax(got, axis=1))
        for model in (cls, m, back):
            check_output(model)
        return
    if role not in ("node_classifier", "node_regressor", "node_transformer", "node_clusterer",
                    "point_classifier", "point_regressor", "point_transformer"):
        with pytest.raises(NotImplementedError, match=kind):
            m.fit(cora.graph, y)
        return
    if role == "node_classifier":
        m.fit(cora.graph, y, features=X)
    elif role == "node_regressor":
        m.fit(cora.graph, np.where(y >= 0, y.astype(float), np.nan), features=X)
    elif role in ("node_transformer", "node_clusterer"):
        m.fit(cora.graph, features=X)
    elif role == "point_classifier":
        m.fit(P, (P[:, 0] > 0).astype(int))
    elif role == "point_regressor":
        m.fit(P, np.sin(P[:, 0]))
    else:
        m.fit(P)
    got = out(m, role, cora, X, P)
    rows = 20 if role.startswith("point") else cora.graph.n_nodes
    assert got.shape[0] == rows and np.all(np.isfinite(got))
    classifier = role.endswith("_classifier")
    if classifier:
        check_output(cls)
        check_output(m)
        if OUTPUTS[kind] == "probabilities":
            assert np.all(got >= 0) and np.allclose(got.sum(axis=1), 1, rtol=0, atol=1e-6), kind
        np.testing.assert_array_equal(m.predict(*([P[:20]] if role.startswith("point") else [])), m.classes_[np.argmax(got, axis=1)])
    else:
        assert OUTPUTS[kind] is None, kind
    if not SAVABLE[kind]:
        # no model file format: saving and pickling a fitted model say so
        with pytest.raises(ValueError, match="cannot be saved"):
            m.save(tmp_path / "m.gssl")
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(m)
        assert pickle.loads(pickle.dumps(cls(**SETTINGS.get(kind, {})))).get_params() == m.get_params()
        return
    np.testing.assert_array_equal(out(pickle.loads(pickle.dumps(m)), role, cora, X, P), got)
    m.save(tmp_path / "m.gssl")
    back = gssl.load(tmp_path / "m.gssl")
    assert type(back) is cls
    np.testing.assert_array_equal(out(back, role, cora, X, P), got)
    if classifier:
        check_output(back)
        check_output(pickle.loads(pickle.dumps(m)))


def test_model_hyperparameter():
    """A hyperparameter that is itself a model (krr.Classifier's Model) is
    given as an unfitted model of a kind with that role, and the fitted
    classifier is that regression of the one-hot labels: its scores are
    K(P, X)(K + nλI)⁻¹Y, computed here with NumPy."""
    rng = np.random.default_rng(5)
    X, P = rng.normal(size=(60, 3)), rng.normal(size=(15, 3))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
    sigma, lam = 1.3, 1e-3
    reg = gssl.KernelRidgeRegressor(kernel={"type": "kernel.Gaussian", "Sigma": sigma}, lambda_=lam)
    m = gssl.KernelRidgeClassifier(model=reg).fit(X, y)

    def gram(a, b):
        return np.exp(-((a[:, None, :] - b[None, :, :]) ** 2).sum(-1) / (2 * sigma**2))

    onehot = np.eye(3)[y]
    want = gram(P, X) @ np.linalg.solve(gram(X, X) + len(X) * lam * np.eye(len(X)), onehot)
    np.testing.assert_allclose(m.decision_function(P), want, rtol=0, atol=1e-9)
    # the model shows the nested model, and a saved one comes back with it
    assert m.info_["hyperparameters"]["Model"] == {"type": "krr.Exact", "Kernel": {"type": "kernel.Gaussian", "Sigma": sigma},
                                                   "Lambda": lam, "Precision": "float64"}
    back = gssl.load(m.to_bytes())
    assert type(back.model) is gssl.KernelRidgeRegressor and back.model.lambda_ == lam
    np.testing.assert_array_equal(back.decision_function(P), m.decision_function(P))
    # the template is not fitted by the classifier's fit
    assert reg._h is None
    # a model of another role, or a kind that is not a model, is refused with the valid kinds
    with pytest.raises(ValueError, match=r'"labelprop.Spreading" is invalid here: want one of .*"krr.Exact"'):
        gssl.KernelRidgeClassifier(model=gssl.LabelSpreading()).fit(X, y)
    with pytest.raises(ValueError, match=r"Model"):
        gssl.KernelRidgeClassifier(model={"type": "krr.Exact", "Lambda": "big"}).fit(X, y)


def test_decision_values_have_no_predict_proba(tmp_path):
    """A classifier of decision values (krr.Classifier: kernel ridge
    regression of the one-hot labels) has decision_function and no
    predict_proba, as scikit-learn's SVC(probability=False): hasattr is
    False on the class, the unfitted and fitted model, and the model read
    back by gssl.load; its scores are not probabilities (some negative, rows
    not summing to 1), and predict is their argmax. Label spreading is the
    other way round, with rows that are distributions."""
    rng = np.random.default_rng(3)
    X, P = rng.normal(size=(60, 3)), rng.normal(size=(15, 3))
    y = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5).astype(int)
    reg = gssl.KernelRidgeRegressor(kernel={"type": "kernel.Gaussian", "Sigma": 1.0}, lambda_=1e-3)
    m = gssl.KernelRidgeClassifier(model=reg)
    assert not hasattr(gssl.KernelRidgeClassifier, "predict_proba") and not hasattr(m, "predict_proba")
    m.fit(X, y)
    assert m.info_["output"] == "decision_values"
    d = m.decision_function(P)
    assert d.min() < 0 and np.abs(d.sum(axis=1) - 1).max() > 1e-3
    np.testing.assert_array_equal(m.predict(P), np.argmax(d, axis=1))
    m.save(tmp_path / "krr.gssl")
    for model in (m, gssl.load(tmp_path / "krr.gssl"), gssl.load(m.to_bytes()), pickle.loads(pickle.dumps(m))):
        assert not hasattr(model, "predict_proba") and hasattr(model, "decision_function")
        with pytest.raises(AttributeError, match="KernelRidgeClassifier has no predict_proba: .* decision values, not class probabilities; use decision_function"):
            model.predict_proba(P)
        np.testing.assert_array_equal(model.decision_function(P), d)

    cora = gssl.datasets.cora()
    s = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
    s.save(tmp_path / "ls.gssl")
    for model in (s, gssl.load(tmp_path / "ls.gssl")):
        assert hasattr(model, "predict_proba") and not hasattr(model, "decision_function")
        with pytest.raises(AttributeError, match="use predict_proba"):
            model.decision_function()
        p = model.predict_proba()
        assert p.min() >= 0 and np.allclose(p.sum(axis=1), 1, rtol=0, atol=1e-9)
