"""gssl.sklearn's SGC, APPNP and Correct & Smooth classifiers of points
against scikit-learn's estimator checks and the models they wrap."""

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import make_blobs
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import parametrize_with_checks

import gssl
from gssl.sklearn import APPNPClassifier, CorrectAndSmoothClassifier, SGCClassifier


SEMI_SUPERVISED = ("-1 marks an unlabelled point (scikit-learn's semi-supervised convention); the check uses -1 as a "
                   "class label, which scikit-learn exempts for its own semi-supervised estimators only, by name")


@parametrize_with_checks([SGCClassifier(), APPNPClassifier(), CorrectAndSmoothClassifier()],
                         expected_failed_checks=lambda e: {"check_classifiers_classes": SEMI_SUPERVISED})
def test_sklearn_compatible(estimator, check):
    check(estimator)


def semi_blobs(n=300, seed=3):
    X, y = make_blobs(n, centers=3, cluster_std=2.0, random_state=seed)
    rng = np.random.default_rng(seed)
    y_semi = y.copy()
    y_semi[rng.random(n) < 0.8] = -1
    return X, y, y_semi


def test_sgc_classifier_is_sgc_on_the_knn_graph():
    # the estimator is the Go model on Graph.from_knn(X) with X as features:
    # the same model fitted by hand gives the same bits, and SGC's
    # propagated design S̃^K X computed densely gives the same classes
    X, y, y_semi = semi_blobs()
    est = SGCClassifier(n_neighbors=8, k=2, l2=1e-3).fit(X, y_semi)
    g = gssl.Graph.from_knn(X, 8)
    m = gssl.SGC(k=2, l2=1e-3, normalization="none", classes=3).fit(g, y_semi, features=X)
    np.testing.assert_array_equal(est.label_distributions_, m.predict_proba())
    assert (est.transduction_ == y).mean() > 0.9
    # new points: the model's new-node rule on their 8 nearest fitted points
    Xn = X[:40] + 0.05
    W = est._new_edges(Xn)
    np.testing.assert_array_equal(est.predict_proba(Xn), m.predict_proba(new=W, features=Xn))
    assert (est.predict(Xn) == y[:40]).mean() > 0.85


def test_string_classes_and_grid_search():
    X, y, y_semi = semi_blobs()
    names = np.array(["a", "b", "c"])
    # fully labelled string targets in a grid search over K
    gs = GridSearchCV(SGCClassifier(n_neighbors=8), {"k": [1, 2, 3]}, cv=3).fit(X, names[y])
    assert gs.best_estimator_.classes_.tolist() == ["a", "b", "c"]
    assert gs.best_score_ > 0.85
    cs = CorrectAndSmoothClassifier(n_neighbors=8, base={"type": "nodeclass.APPNP", "Alpha": 0.8,
                                                         "Normalization": "none"}).fit(X, y_semi)
    assert (cs.transduction_ == y).mean() > 0.9
    ap = APPNPClassifier(n_neighbors=8, alpha=0.8).fit(X, y_semi)
    assert (ap.transduction_ == y).mean() > 0.9
