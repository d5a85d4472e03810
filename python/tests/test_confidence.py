"""Calibrated classifiers from Python (gssl.ConformalClassifier, the
generic binding of Go's confidence.Classifier) against the CLI's
--conformal files and against the definitions of temperature scaling and
split-conformal APS sets."""

import csv
import ctypes
import pickle

import numpy as np
import pytest
import scipy.sparse as sp

import gssl
from gssl import _lib
from conftest import run_cli

ALPHA = 0.1


def read_table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def probs(rows):
    cols = [k for k in rows[0] if k.startswith("p_")]
    return np.array([[float(r[c]) for c in cols] for r in rows])


def sets(rows, names):
    index = {n: i for i, n in enumerate(names)}
    return [[index[c] for c in r["set"].split("|")] if r["set"] else [] for r in rows]


def cora_val_labels():
    """Cora's labels on its Planetoid train and validation nodes (−1
    elsewhere): the base model sees the train labels, the calibration the
    validation ones."""
    cora = gssl.datasets.cora()
    y = cora.train_labels()
    y[cora.val] = cora.labels[cora.val]
    return cora, y


def new_nodes(n_fitted, count=40, seed=11):
    rng = np.random.default_rng(seed)
    new = sp.random_array((count, n_fitted), density=0.002, random_state=rng, format="csr")
    new.data[:] = rng.uniform(0.5, 2, new.nnz)
    keep = np.diff(new.indptr) > 0  # a node with no edge is not in gssl predict's answer
    return new[keep].tocsr()


def write_edges(path, new, ids):
    with open(path, "w") as f:
        f.write("new,old,weight\n")
        for i in range(new.shape[0]):
            lo, hi = new.indptr[i], new.indptr[i + 1]
            for j, w in zip(new.indices[lo:hi], new.data[lo:hi]):
                f.write(f"{ids[i]},{j},{float(w)!r}\n")


def check_against_cli(cli, model, path, tmp_path):
    """model (fitted, or loaded from path) predicts bitwise what gssl
    predict answers from the file at path: probabilities and sets of the
    fitted nodes and of new nodes."""
    names = [str(c) for c in range(7)]
    out = tmp_path / "fitted.csv"
    run_cli(cli, "predict", "--model", str(path), "--out", str(out))
    rows = read_table(out)
    ids = np.array([int(r["id"]) for r in rows])
    # The CSV holds each float's shortest round-trip decimal: equal parses
    # mean equal bits.
    np.testing.assert_array_equal(model.predict_proba()[ids], probs(rows))
    mine = model.predict_sets()
    assert [mine[i].tolist() for i in ids] == sets(rows, names)

    new = new_nodes(2708)
    new_ids = [f"n{i}" for i in range(new.shape[0])]
    edges = tmp_path / "new.csv"
    write_edges(edges, new, new_ids)
    out = tmp_path / "new_pred.csv"
    run_cli(cli, "predict", "--model", str(path), "--edges", str(edges), "--out", str(out))
    rows = read_table(out)
    order = [new_ids.index(r["id"]) for r in rows]
    assert sorted(order) == list(range(new.shape[0]))
    np.testing.assert_array_equal(model.predict_proba(new=new)[order], probs(rows))
    mine = model.predict_sets(new=new, ids=new_ids)
    assert [mine[i].tolist() for i in order] == sets(rows, names)
    # a set is drawn with the node's id: other ids draw other uniforms
    # (here, some set changes; the probabilities do not)
    other = model.predict_sets(new=new, ids=[f"m{i}" for i in range(new.shape[0])])
    assert any(a.tolist() != b.tolist() for a, b in zip(mine, other))


def test_cli_conformal_file_predicts_calibrated(gssl_cli, tmp_path):
    path = tmp_path / "cli.gssl"
    run_cli(gssl_cli, "labelprop", "--alpha", "0.9", "--split", "planetoid", "--conformal", str(ALPHA),
            "--save", str(path), "--json")
    model = gssl.load(path)
    assert type(model) is gssl.ConformalClassifier
    assert isinstance(model.base, gssl.LabelSpreading) and model.base.alpha == 0.9
    cal = model.calibration_
    assert cal["alpha"] == ALPHA and cal["nodes"] == 500
    check_against_cli(gssl_cli, model, path, tmp_path)
    # the calibrated probabilities are not the base model's
    base = gssl.load(path).base  # unfitted
    cora = gssl.datasets.cora()
    raw = base.fit(cora.graph, cora.train_labels()).predict_proba()
    assert np.abs(raw - model.predict_proba()).max() > 0.01
    # pickling goes through the same file
    back = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(back.predict_proba(), model.predict_proba())


def test_python_calibration_is_the_clis(gssl_cli, tmp_path):
    """Calibrating label spreading on Cora's validation nodes from Python
    gives the CLI's --conformal model, and its file is read by gssl
    predict."""
    cora, y = cora_val_labels()
    model = gssl.ConformalClassifier(base=gssl.LabelSpreading(alpha=0.9), alpha=ALPHA)
    model.fit(cora.graph, y, held_out=cora.val)
    out = tmp_path / "lp.csv"
    run_cli(gssl_cli, "labelprop", "--alpha", "0.9", "--split", "planetoid", "--conformal", str(ALPHA),
            "--out", str(out), "--json")
    rows = read_table(out)
    ids = np.array([int(r["id"]) for r in rows])
    np.testing.assert_array_equal(model.predict_proba()[ids], probs(rows))
    path = tmp_path / "py.gssl"
    model.save(path)
    check_against_cli(gssl_cli, model, path, tmp_path)
    back = gssl.load(path)
    assert type(back) is gssl.ConformalClassifier and back.alpha == ALPHA
    np.testing.assert_array_equal(back.predict_proba(), model.predict_proba())


def splitmix_uniform(seed, key):
    """confidence.Uniform, written again: SplitMix64's output of seed +
    (key+1)·γ, its top 53 bits as a float in [0, 1)."""
    m = (1 << 64) - 1
    z = (seed + (key + 1) * 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    z ^= z >> 31
    return (z >> 11) / float(1 << 53)


def aps_score(p, y, u):
    """The randomised APS score (Romano, Sesia & Candès 2020): the mass of
    the classes more probable than y, plus u times y's probability."""
    return p[p > p[y]].sum() + u * p[y]


def test_calibration_against_definitions():
    cora, y = cora_val_labels()
    seed = 12345
    model = gssl.ConformalClassifier(base=gssl.LabelSpreading(alpha=0.9), alpha=ALPHA, seed=seed)
    model.fit(cora.graph, y, held_out=cora.val)
    cal = model.calibration_
    p = model.predict_proba()
    # Temperature scaling of the base model fitted without the held-out
    # labels: softmax(log((1 − ε)q + ε/C) / T).
    q = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels()).predict_proba()
    assert not cal["logits"]
    z = np.log((1 - cal["smoothing"]) * q / q.sum(axis=1, keepdims=True) + cal["smoothing"] / q.shape[1]) / cal["temperature"]
    want = np.exp(z - z.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(p, want, rtol=0, atol=1e-12)

    # T minimises the validation nodes' negative log-likelihood.
    def nll(t):
        zt = z * cal["temperature"] / t
        zt = zt - zt.max(axis=1, keepdims=True)
        logp = zt - np.log(np.exp(zt).sum(axis=1, keepdims=True))
        return -logp[cora.val, cora.labels[cora.val]].mean()

    t = cal["temperature"]
    assert nll(t) <= min(nll(t * 1.02), nll(t / 1.02))

    # Each set is {y : s(p, y, u) ≤ q̂} in decreasing probability, u the
    # node's uniform.
    thr = cal["threshold"]
    got = model.predict_sets()
    for i in range(cora.graph.n_nodes):
        u = splitmix_uniform(seed, i)
        order = np.argsort(-p[i], kind="stable")
        want_set = [c for c in order if aps_score(p[i], c, u) <= thr]
        assert got[i].tolist() == want_set, f"node {i}"
    # q̂ is an APS score of a calibration node at its class, at the rank
    # ⌈(n+1)(1 − α)⌉ (its uniform is drawn by the calibration, so the score
    # is checked as one of the possible ones: between u = 0 and u = 1).
    n = cal["nodes"]
    assert n == len(cora.val)
    k = int(np.ceil((n + 1) * (1 - ALPHA)))
    lo = np.sort([aps_score(p[i], cora.labels[i], 0) for i in cora.val])
    hi = np.sort([aps_score(p[i], cora.labels[i], 1) for i in cora.val])
    assert lo[k - 1] <= thr <= hi[k - 1]


def test_coverage_over_random_splits():
    """Split conformal's guarantee: a test node's set holds its class with
    probability ≥ 1 − α over the calibration draw. Over 100 random halvings
    of the non-training nodes into calibration and test, the mean coverage
    must be inside the interval of that guarantee (1 − α up to
    1 − α + 1/(n+1)) widened by 4 standard errors of the mean."""
    cora = gssl.datasets.cora()
    rest = np.setdiff1d(np.arange(cora.graph.n_nodes), np.flatnonzero(cora.train_labels() >= 0))
    rng = np.random.default_rng(3)
    cover = []
    for r in range(100):
        perm = rng.permutation(rest)
        val, test = perm[:500], perm[500:]
        y = cora.train_labels()
        y[val] = cora.labels[val]
        m = gssl.ConformalClassifier(base=gssl.LabelSpreading(alpha=0.9), alpha=ALPHA, seed=r).fit(cora.graph, y, held_out=val)
        s = m.predict_sets()
        cover.append(np.mean([cora.labels[i] in s[i] for i in test]))
    mean, se = np.mean(cover), np.std(cover, ddof=1) / np.sqrt(len(cover))
    assert 1 - ALPHA - 4 * se <= mean <= 1 - ALPHA + 1 / 501 + 4 * se, (mean, se)


def test_fit_draws_its_own_held_out_nodes():
    cora, y = cora_val_labels()
    m = gssl.ConformalClassifier(base=gssl.LabelSpreading(alpha=0.9), holdout=0.5, seed=1).fit(cora.graph, y)
    labelled = int((y >= 0).sum())
    # half of each class's labelled nodes, rounded down
    assert labelled // 2 - 7 <= m.calibration_["nodes"] <= labelled // 2
    assert m.predict_proba().shape == (2708, 7)


def test_errors():
    cora, y = cora_val_labels()
    with pytest.raises(ValueError, match="held-out"):
        gssl.LabelSpreading(alpha=0.9)._fit_labels(cora.graph, y, None, None, np.array([140], dtype=np.int64))
    with pytest.raises(ValueError, match="none of the 1 held-out nodes has a label"):
        gssl.ConformalClassifier(base=gssl.LabelSpreading()).fit(cora.graph, cora.train_labels(), held_out=[2000])
    with pytest.raises(ValueError, match="out of range"):
        gssl.ConformalClassifier(base=gssl.LabelSpreading()).fit(cora.graph, y, held_out=[99999])
    with pytest.raises(ValueError, match="Base is nil"):
        gssl.ConformalClassifier().fit(cora.graph, y, held_out=cora.val)
    with pytest.raises(ValueError, match="krr.Exact"):  # not a node classifier: the valid kinds are named
        gssl.ConformalClassifier(base=gssl.KernelRidgeRegressor()).fit(cora.graph, y, held_out=cora.val)
    m = gssl.ConformalClassifier(base=gssl.LabelSpreading()).fit(cora.graph, y, held_out=cora.val)
    with pytest.raises(ValueError, match="2 ids for 3 new nodes"):
        m.predict_sets(new=new_nodes(2708)[:3], ids=["a", "b"])
    # a model without calibration has no sets (asked through the C ABI)
    plain = gssl.LabelSpreading().fit(cora.graph, y)
    r = _lib.new_handle()
    with pytest.raises(ValueError, match="has no prediction sets"):
        _lib.call(_lib.lib.gssl_model_predict_sets, plain._h, -1, None, None, 8, None, 0, None, None, ctypes.byref(r))
