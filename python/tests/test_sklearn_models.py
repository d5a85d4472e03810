"""gssl.sklearn's point models and Weisfeiler–Lehman transformer against
scikit-learn's estimator checks, scikit-learn pipelines and independent
references."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from gssl.sklearn import (FalkonClassifier, FalkonRegressor, GaussianProcessRegressor, ImplicitManifoldGPRegressor,
                          WeisfeilerLehman)

from conftest import shared_path

GRAPH_INPUT = "X is a list of graphs, not a numeric array: the check's data cannot be its input"


def wl_expected_failures(estimator):
    # The checks that feed numeric arrays as X (every data check) cannot
    # apply to a transformer of graphs; the API checks (parameters, clone,
    # repr, get/set_params, tags) run.
    from sklearn.utils.estimator_checks import _yield_all_checks
    out = {}
    for check in _yield_all_checks(estimator, legacy=True):
        name = getattr(check, "func", check).__name__
        if name not in ("check_parameters_default_constructible", "check_get_params_invariance",
                        "check_set_params", "check_no_attributes_set_in_init", "check_estimator_repr",
                        "check_estimator_cloneable", "check_estimator_tags_renamed", "check_valid_tag_types",
                        "check_do_not_raise_errors_in_init_or_set_params", "check_mixin_order",
                        "check_estimators_unfitted", "check_transformers_unfitted", "check_transformer_n_iter",
                        ):
            out[name] = GRAPH_INPUT
    return out


@parametrize_with_checks(
    [ImplicitManifoldGPRegressor(), GaussianProcessRegressor(), FalkonRegressor(), FalkonClassifier()],
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@parametrize_with_checks([WeisfeilerLehman()], expected_failed_checks=wl_expected_failures)
def test_wl_sklearn_api(estimator, check):
    check(estimator)


def wl_reference(graphs, h):
    """The WL subtree kernel by its definition: label counts of rounds
    0..h, each round relabelling a node by its label and the sorted labels
    of its neighbours, one dictionary for all graphs; k = Σ dot products."""
    adj = []
    labels = []
    for edges, lab in graphs:
        n = len(lab)
        a = [set() for _ in range(n)]
        for u, v in edges:
            if u != v:
                a[u].add(v)
                a[v].add(u)
        adj.append(a)
        labels.append([("0", int(x)) for x in lab])
    feats = [dict() for _ in graphs]
    for r in range(h + 1):
        for i, lab in enumerate(labels):
            for x in lab:
                feats[i][(r, x)] = feats[i].get((r, x), 0) + 1
        if r < h:
            labels = [[(lab[v], tuple(sorted(lab[u] for u in a[v]))) for v in range(len(lab))]
                      for lab, a in zip(labels, adj)]
    K = np.zeros((len(graphs), len(graphs)))
    for i in range(len(graphs)):
        for j in range(len(graphs)):
            K[i, j] = sum(c * feats[j].get(k, 0) for k, c in feats[i].items())
    return K


def random_graphs(n_graphs, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_graphs):
        n = int(rng.integers(3, 9))
        pairs = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.4]
        out.append((np.array(pairs, dtype=np.int64).reshape(-1, 2), rng.integers(0, 3, n)))
    return out


@pytest.mark.parametrize("h", [0, 1, 3])
def test_wl_gram_equals_the_definition(h):
    graphs = random_graphs(12, h)
    K = WeisfeilerLehman(h=h).fit_transform(graphs)
    np.testing.assert_array_equal(K, wl_reference(graphs, h))
    # transform of new graphs: rows of the kernel of all graphs.
    new = random_graphs(5, 100 + h)
    full = wl_reference(graphs + new, h)
    np.testing.assert_array_equal(WeisfeilerLehman(h=h).fit(graphs).transform(new), full[12:, :12])
    Kn = WeisfeilerLehman(h=h, normalize=True).fit_transform(graphs)
    d = np.sqrt(np.diag(K))
    np.testing.assert_allclose(Kn, K / np.outer(d, d), rtol=1e-14)


def test_wl_networkx_equals_tuples():
    nx = pytest.importorskip("networkx")
    graphs = random_graphs(6, 7)
    nxg = []
    for edges, lab in graphs:
        g = nx.Graph()
        g.add_nodes_from((i, {"label": int(x)}) for i, x in enumerate(lab))
        g.add_edges_from(map(tuple, edges))
        nxg.append(g)
    np.testing.assert_array_equal(WeisfeilerLehman(h=2).fit_transform(nxg), WeisfeilerLehman(h=2).fit_transform(graphs))
    del nxg[0].nodes[1]["label"]
    with pytest.raises(ValueError, match="node 1 has no 'label' attribute"):
        WeisfeilerLehman(h=2).fit_transform(nxg)


def read_mutag():
    d = shared_path("data", "MUTAG")
    A = np.loadtxt(d / "MUTAG_A.txt", delimiter=",", dtype=np.int64) - 1
    ind = np.loadtxt(d / "MUTAG_graph_indicator.txt", dtype=np.int64) - 1
    nl = np.loadtxt(d / "MUTAG_node_labels.txt", dtype=np.int64)
    y = np.loadtxt(d / "MUTAG_graph_labels.txt", dtype=np.int64)
    first = np.searchsorted(ind, np.arange(ind.max() + 1))
    graphs = []
    for g in range(ind.max() + 1):
        nodes = np.flatnonzero(ind == g)
        e = A[ind[A[:, 0]] == g] - first[g]
        graphs.append((e, nl[nodes]))
    return graphs, y


def test_wl_svc_pipeline_grid_search_on_mutag():
    graphs, y = read_mutag()
    assert len(graphs) == 188
    pipe = Pipeline([("wl", WeisfeilerLehman(normalize=True)), ("svc", SVC(kernel="precomputed"))])
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    search = GridSearchCV(pipe, {"wl__h": [1, 3], "svc__C": [1.0, 10.0]}, cv=cv).fit(graphs, y)
    # The same grid on the Gram matrices of the definition, through
    # scikit-learn's precomputed-kernel SVC, gives the same scores.
    for i, params in enumerate(search.cv_results_["params"]):
        K = wl_reference(graphs, params["wl__h"])
        d = np.sqrt(np.diag(K))
        K = K / np.outer(d, d)
        scores = []
        for tr, te in cv.split(np.zeros(len(y)), y):
            svc = SVC(kernel="precomputed", C=params["svc__C"]).fit(K[np.ix_(tr, tr)], y[tr])
            scores.append(svc.score(K[np.ix_(te, tr)], y[te]))
        assert search.cv_results_["mean_test_score"][i] == pytest.approx(np.mean(scores), abs=1e-12)
    assert search.best_score_ > 0.8  # WL on MUTAG: about 0.85 in the literature


def smooth_data(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, (n, 3))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.05 * rng.standard_normal(n)
    return X, y


def test_falkon_with_every_point_a_centre_is_kernel_ridge():
    # M = n centres (the default M is min(n, krr.DefaultM)): FALKON solves
    # exact kernel ridge regression, (K + nλI)α = y, scikit-learn's
    # KernelRidge with alpha = nλ and gamma = 1/(2σ²).
    from sklearn.kernel_ridge import KernelRidge

    X, y = smooth_data(200, 1)
    Xt, _ = smooth_data(50, 2)
    lam, sigma = 1e-3, 1.5
    kern = {"type": "kernel.Gaussian", "Sigma": sigma}
    ours = FalkonRegressor(kernel=kern, lambda_=lam, iterations=200, tol=1e-14).fit(X, y)
    ref = KernelRidge(alpha=200 * lam, kernel="rbf", gamma=1 / (2 * sigma**2)).fit(X, y)
    np.testing.assert_allclose(ours.predict(Xt), ref.predict(Xt), atol=1e-7)
    yc = np.digitize(y, [-0.5, 0.5])  # three classes
    clf = FalkonClassifier(kernel=kern, lambda_=lam, iterations=200, tol=1e-14).fit(X, yc)
    scores = np.column_stack([KernelRidge(alpha=200 * lam, kernel="rbf", gamma=1 / (2 * sigma**2))
                              .fit(X, np.where(yc == c, 1.0, -1.0)).predict(Xt) for c in range(3)])
    np.testing.assert_allclose(clf.decision_function(Xt), scores, atol=1e-7)
    np.testing.assert_array_equal(clf.predict(Xt), np.argmax(scores, axis=1))


@pytest.mark.parametrize("est, kind", [(ImplicitManifoldGPRegressor(k=10, iterations=20), "imgp.Regressor"),
                                       (GaussianProcessRegressor(), "gp.Regressor")])
def test_gp_regressors_are_the_library_models(est, kind):
    import gssl

    X, y = smooth_data(120, 3)
    Xt, _ = smooth_data(30, 4)
    mean, std = est.fit(X, y).predict(Xt, return_std=True)
    core = gssl._models.CLASSES[kind](**est._params(X)).fit(X, y)
    m2, s2 = core.predict(Xt, return_std=True)
    np.testing.assert_array_equal(mean, m2)
    np.testing.assert_array_equal(std, s2)
    np.testing.assert_array_equal(est.predict(Xt), mean)
    assert np.all(std > 0) and np.all(np.isfinite(std))
    # the posterior mean is a good fit of a smooth function
    assert est.score(X, y) > 0.8


def test_wl_bad_input_is_named():
    good = random_graphs(3, 5)
    with pytest.raises(ValueError, match="'h' parameter"):
        WeisfeilerLehman(h=65).fit(good)
    with pytest.raises(ValueError, match="node labels must be a 1-D integer array"):
        WeisfeilerLehman().fit([(np.array([[0, 1]]), np.array([0.5, 1.0]))])
    with pytest.raises(ValueError, match="2"):  # an edge to node 2 of a 2-node graph
        WeisfeilerLehman().fit([(np.array([[0, 2]]), np.array([0, 1]))])
    with pytest.raises(TypeError, match="networkx graph or an"):
        WeisfeilerLehman().fit([np.eye(3)])
    with pytest.raises(ValueError, match="at least one graph"):
        WeisfeilerLehman().fit([])
    from sklearn.exceptions import NotFittedError
    with pytest.raises(NotFittedError):
        WeisfeilerLehman().transform(good)
