"""Label spreading from Python against the CLI on the embedded Cora."""

import csv
import json
import pickle

import numpy as np
import scipy.sparse as sp

import gssl
from conftest import run_cli


def read_table(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows


def probs(rows):
    cols = [k for k in rows[0] if k.startswith("p_")]
    return np.array([[float(r[c]) for c in cols] for r in rows])


def fit_cora():
    cora = gssl.datasets.cora()
    return cora, gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())


def test_cora_matches_cli_bitwise(gssl_cli, tmp_path):
    out = tmp_path / "pred.csv"
    res = json.loads(run_cli(gssl_cli, "labelprop", "--alpha", "0.9", "--split", "planetoid", "--out", str(out), "--json"))
    rows = read_table(out)
    ids = np.array([int(r["id"]) for r in rows])
    cora, model = fit_cora()
    p = model.predict_proba()
    assert p.shape == (2708, 7)
    # The CSV holds each float's shortest round-trip decimal: equal parses
    # mean equal bits.
    np.testing.assert_array_equal(p[ids], probs(rows))
    pred = model.predict()
    assert [int(r["predicted"]) for r in rows] == pred[ids].tolist()
    acc = (pred[cora.test] == cora.labels[cora.test]).mean()
    assert acc == res["test_accuracy"]
    info = model.info_["info"]
    assert info["Iterations"] == res["iterations"]
    assert info["Residual"] == res["residual"]


def test_saved_model_predicts_the_same_in_cli(gssl_cli, tmp_path):
    cora, model = fit_cora()
    path = tmp_path / "m.gssl"
    model.save(path)
    # the fitted nodes
    out = tmp_path / "fitted.csv"
    run_cli(gssl_cli, "predict", "--model", str(path), "--out", str(out))
    rows = read_table(out)
    ids = np.array([int(r["id"]) for r in rows])
    np.testing.assert_array_equal(model.predict_proba()[ids], probs(rows))
    # new nodes from their edges to fitted nodes
    rng = np.random.default_rng(7)
    new = sp.random_array((50, 2708), density=0.002, random_state=rng, format="csr")
    new.data[:] = rng.uniform(0.5, 2, new.nnz)
    edges = tmp_path / "new.csv"
    with open(edges, "w") as f:
        f.write("new,old,weight\n")
        for i in range(new.shape[0]):
            for j, w in zip(new.indices[new.indptr[i]:new.indptr[i + 1]], new.data[new.indptr[i]:new.indptr[i + 1]]):
                f.write(f"{90000 + i},{j},{float(w)!r}\n")
    res = json.loads(run_cli(gssl_cli, "predict", "--model", str(path), "--edges", str(edges), "--json"))
    got = {int(p["id"]) - 90000: p["probabilities"] for p in res["predictions"]}
    mine = model.predict_proba(new=new)
    assert mine.shape == (50, 7)
    assert len(got) == sum(new.indptr[1:] > new.indptr[:-1])
    for i, p in got.items():
        np.testing.assert_array_equal(mine[i], p)


def test_cli_model_loads_in_python(gssl_cli, tmp_path):
    path = tmp_path / "cli.gssl"
    run_cli(gssl_cli, "labelprop", "--alpha", "0.9", "--split", "planetoid", "--save", str(path))
    m = gssl.load(path)
    assert isinstance(m, gssl.LabelSpreading)
    assert m.alpha == 0.9
    _, model = fit_cora()
    np.testing.assert_array_equal(m.predict_proba(), model.predict_proba())


def test_pickle_and_bytes_round_trip():
    _, model = fit_cora()
    back = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(back.predict_proba(), model.predict_proba())
    assert back.get_params() == model.get_params()
    again = gssl.load(model.to_bytes())
    np.testing.assert_array_equal(again.predict_proba(), model.predict_proba())
    unfitted = pickle.loads(pickle.dumps(gssl.LabelSpreading(alpha=0.5)))
    assert unfitted.alpha == 0.5


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_saved_model_is_served_with_identical_answers(gssl_cli, tmp_path):
    import subprocess
    import time
    import urllib.request

    cora, model = fit_cora()
    path = tmp_path / "m.gssl"
    model.save(path)
    port = free_port()
    srv = subprocess.Popen([gssl_cli, "serve", "--model", str(path), "--addr", f"127.0.0.1:{port}"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):  # wait until it listens (at most 20 s)
            try:
                urllib.request.urlopen(url + "/healthz", timeout=1).read()
                break
            except OSError:
                assert srv.poll() is None, srv.stderr.read().decode()
                time.sleep(0.1)
        rng = np.random.default_rng(11)
        new = sp.random_array((40, 2708), density=0.003, random_state=rng, format="csr")
        new.data[:] = rng.uniform(0.5, 2, new.nnz)
        keep = np.flatnonzero(np.diff(new.indptr))  # nodes with at least one edge
        nodes = []
        for i in keep:
            lo, hi = new.indptr[i], new.indptr[i + 1]
            nodes.append({"id": f"n{i}", "edges": [{"to": str(j), "weight": float(w)}
                                                   for j, w in zip(new.indices[lo:hi], new.data[lo:hi])]})
        req = urllib.request.Request(url + "/v1/predict", data=json.dumps({"nodes": nodes}).encode(),
                                     headers={"Content-Type": "application/json"})
        res = json.loads(urllib.request.urlopen(req, timeout=30).read())
        mine = model.predict_proba(new=new)
        assert len(res["predictions"]) == keep.size
        for i, p in zip(keep, res["predictions"]):
            assert p["id"] == f"n{i}"
            np.testing.assert_array_equal(mine[i], p["probabilities"])
    finally:
        srv.terminate()
        srv.wait(30)
