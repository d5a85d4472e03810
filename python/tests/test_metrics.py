"""gssl.metrics (the Go package eval's confidence tools) against
scikit-learn's roc_auc_score, a direct NumPy/SciPy computation of
calibration, and a brute-force count of conformal coverage."""

import doctest

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp
from scipy.stats import binom
from sklearn.metrics import roc_auc_score as sk_auc

import gssl
from gssl import metrics


def test_doctest():
    r = doctest.testmod(metrics, verbose=False)
    assert r.attempted > 0 and r.failed == 0


def test_binary_auc_equals_scikit_learn():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 500)
    s = np.round(y * 0.5 + rng.normal(size=500), 1)  # rounding makes ties
    assert metrics.roc_auc_score(y, s) == pytest.approx(sk_auc(y, s), abs=1e-12)
    # unknown labels are skipped
    yu = y.copy()
    yu[::7] = -1
    keep = yu >= 0
    assert metrics.roc_auc_score(yu, s) == pytest.approx(sk_auc(y[keep], s[keep]), abs=1e-12)


def test_macro_auc_equals_scikit_learn():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, 600)
    logits = rng.normal(size=(600, 4)) + 1.5 * np.eye(4)[y]
    P = metrics.softmax(logits)
    want = sk_auc(y, P, multi_class="ovr", average="macro")
    assert metrics.roc_auc_score(y, P) == pytest.approx(want, abs=1e-12)
    # two columns: the AUC of column 1
    y2 = rng.integers(0, 2, 300)
    P2 = metrics.softmax(rng.normal(size=(300, 2)) + np.eye(2)[y2])
    assert metrics.roc_auc_score(y2, P2) == pytest.approx(sk_auc(y2, P2[:, 1]), abs=1e-12)


def test_auc_errors():
    with pytest.raises(ValueError, match="NaN"):
        metrics.roc_auc_score([0, 1], [0.2, np.nan])
    with pytest.raises(ValueError, match="3 integer labels"):
        metrics.roc_auc_score([0.0, 1.0, 1.0], [0.1, 0.2, 0.3])


def test_temperature_minimises_the_nll():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 5, 800)
    # over-confident logits: the right temperature is above 1
    z = 4 * (rng.normal(size=(800, 5)) + 1.2 * np.eye(5)[y])

    def nll(t):
        zt = z / t
        return np.sum(logsumexp(zt, axis=1) - zt[np.arange(800), y])

    ref = minimize_scalar(nll, bounds=(1e-3, 1e3), method="bounded", options={"xatol": 1e-10}).x
    t = metrics.fit_temperature(z, y)
    assert t > 1
    assert t == pytest.approx(ref, rel=1e-6)
    assert nll(t) <= nll(ref) + 1e-8


def test_reliability_and_ece_by_hand():
    rng = np.random.default_rng(3)
    P = metrics.softmax(rng.normal(size=(1000, 3)) * 2)
    y = np.array([rng.choice(3, p=p) for p in P])
    y[:50] = -1
    r = metrics.reliability(P, y, n_bins=10)
    keep = y >= 0
    conf, pred = P[keep].max(axis=1), P[keep].argmax(axis=1)
    b = np.clip(np.ceil(conf * 10).astype(int) - 1, 0, 9)
    count = np.bincount(b, minlength=10)
    np.testing.assert_array_equal(r.count, count)
    ece = 0.0
    for k in range(10):
        if count[k]:
            m = b == k
            np.testing.assert_allclose(r.confidence[k], conf[m].mean(), rtol=1e-12)
            np.testing.assert_allclose(r.accuracy[k], (pred[m] == y[keep][m]).mean(), rtol=1e-12)
            ece += count[k] / keep.sum() * abs((pred[m] == y[keep][m]).mean() - conf[m].mean())
    assert r.ece == pytest.approx(ece, abs=1e-12)
    assert metrics.expected_calibration_error(P, y, 10) == r.ece
    # probabilities drawn from themselves are calibrated: a small ECE
    assert r.ece < 0.05


def aps_bounds(P, y):
    """The APS score of class y lies in [mass of the more probable classes,
    that + p_y] whatever the uniform."""
    above = np.array([P[i][P[i] > P[i, y[i]]].sum() for i in range(len(y))])
    return above, above + P[np.arange(len(y)), y]


def test_conformal_threshold_and_sets_by_brute_force():
    rng = np.random.default_rng(4)
    n, c, alpha = 400, 5, 0.1
    P = rng.dirichlet(np.ones(c) * 0.7, size=n)
    y = np.array([rng.choice(c, p=p) for p in P])
    sc = metrics.SplitConformal(alpha=alpha, seed=9).calibrate(P, y)
    assert sc.n_calibration_ == n
    # q̂ is the ⌈(n+1)(1−α)⌉-th smallest score: at least that many scores'
    # lower bounds are ≤ q̂ and fewer than that many upper bounds are < q̂
    k = int(np.ceil((n + 1) * (1 - alpha)))
    lo, hi = aps_bounds(P, y)
    assert np.sum(lo <= sc.threshold_) >= k
    assert np.sum(hi < sc.threshold_) < k
    # each set holds every class whose score is ≤ q̂ for any uniform and no
    # class whose score is > q̂ for every uniform, in decreasing probability
    Q = rng.dirichlet(np.ones(c) * 0.7, size=200)
    sets = sc.predict_sets(Q)
    for i, s in enumerate(sets):
        for cls in range(c):
            above = Q[i][Q[i] > Q[i, cls]].sum()
            if above + Q[i, cls] <= sc.threshold_:
                assert cls in s
            if above > sc.threshold_:
                assert cls not in s
        assert np.all(np.diff(Q[i][s]) <= 0)


def test_conformal_coverage_over_random_splits():
    # Exchangeable data whose probabilities are those of a fixed model:
    # over many random calibration/test splits the coverage of the sets,
    # counted item by item, lies within its binomial interval around 1 − α
    # (at most 1 − α + 1/(n+1) above it).
    rng = np.random.default_rng(5)
    c, alpha, n_cal, n_test, splits = 6, 0.1, 300, 300, 100
    hits = total = 0
    for s in range(splits):
        P = rng.dirichlet(np.ones(c), size=n_cal + n_test)
        y = np.array([rng.choice(c, p=p) for p in P])
        sc = metrics.SplitConformal(alpha=alpha, seed=s).calibrate(P[:n_cal], y[:n_cal])
        sets = sc.predict_sets(P[n_cal:])
        hits += sum(int(y[n_cal + i] in st) for i, st in enumerate(sets))
        total += n_test
    cov = hits / total
    # the per-split coverage varies with the calibration draw too (a Beta of
    # variance α(1−α)/(n_cal+2)): the interval is binomial with that added
    sd = np.sqrt(alpha * (1 - alpha) / total + alpha * (1 - alpha) / (n_cal + 2) / splits)
    lo, hi = binom.ppf(0.0005, total, 1 - alpha) / total - 3.3 * sd, 1 - alpha + 1 / (n_cal + 1) + 3.3 * sd
    assert lo <= cov <= hi, f"coverage {cov:.4f} outside [{lo:.4f}, {hi:.4f}]"


def test_conformal_on_a_model():
    # the sets of label spreading on Cora's test nodes, calibrated on its
    # validation nodes, cover about 1 − α of them
    cora = gssl.datasets.cora()
    m = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
    P = m.predict_proba()
    P = P / P.sum(axis=1, keepdims=True)
    sc = metrics.SplitConformal(alpha=0.1).calibrate(P[cora.val], cora.labels[cora.val])
    sets = sc.predict_sets(P[cora.test])
    cov = np.mean([cora.labels[i] in s for i, s in zip(cora.test, sets)])
    # 1000 test nodes: the binomial interval of 0.9 at level 1e-3 is about ±0.03
    assert 0.86 <= cov <= 0.94
    with pytest.raises(gssl.NotFittedError):
        metrics.SplitConformal().predict_sets(P)
    with pytest.raises(ValueError, match="alpha=1.5 is invalid"):
        metrics.SplitConformal(alpha=1.5).calibrate(P[cora.val], cora.labels[cora.val])
