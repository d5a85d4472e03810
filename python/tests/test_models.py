"""Models: hyperparameters, errors, threads, fork, cancellation."""

import multiprocessing as mp
import os
import threading
import _thread

import numpy as np
import pytest
import scipy.sparse as sp

import gssl


def test_hyperparameters_are_the_go_fields():
    m = gssl.LabelSpreading(alpha=0.8, solver="cg", class_mass_normalization=True)
    assert m.get_params()["alpha"] == 0.8
    assert "max_iter" in m.get_params() and "progress" not in m.get_params()
    with pytest.raises(TypeError, match="'alfa'.*alpha"):
        gssl.LabelSpreading(alfa=0.8)
    cora = gssl.datasets.cora()
    m.fit(cora.graph, cora.train_labels())
    assert m.info_["hyperparameters"]["Solver"] == "cg"
    with pytest.raises(ValueError, match=r"Alpha = 1.5 is invalid"):
        gssl.LabelSpreading(alpha=1.5).fit(cora.graph, cora.train_labels())
    with pytest.raises(ValueError, match=r'"newton" is invalid'):
        gssl.LabelSpreading(alpha=0.5, solver="newton").fit(cora.graph, cora.train_labels())


def test_not_fitted():
    m = gssl.LabelSpreading(alpha=0.9)
    with pytest.raises(gssl.NotFittedError):
        m.predict_proba()
    from sklearn.exceptions import NotFittedError

    assert issubclass(gssl.NotFittedError, NotFittedError)


def test_bad_labels():
    cora = gssl.datasets.cora()
    with pytest.raises(ValueError, match="labels"):
        gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels()[:10])
    y = cora.train_labels()
    y[5] = -2
    with pytest.raises(ValueError, match=r"labels\[5\] = -2"):
        gssl.LabelSpreading(alpha=0.9).fit(cora.graph, y)


def test_fits_in_threads_concurrently():
    cora = gssl.datasets.cora()
    alphas = [0.5, 0.7, 0.8, 0.9, 0.95, 0.99]
    want = [gssl.LabelSpreading(alpha=a).fit(cora.graph, cora.train_labels()).predict_proba() for a in alphas]
    got = [None] * len(alphas)
    barrier = threading.Barrier(len(alphas))

    def work(i):
        barrier.wait()
        got[i] = gssl.LabelSpreading(alpha=alphas[i]).fit(cora.graph, cora.train_labels()).predict_proba()

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(alphas))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for w, g in zip(want, got):
        np.testing.assert_array_equal(w, g)


def _child_cora_nodes(q):
    try:
        import gssl as g

        q.put(("ok", g.datasets.cora().graph.n_nodes))
    except Exception as e:  # report it to the parent
        q.put((type(e).__name__, str(e)))


def test_fork_after_import_raises_a_clear_error():
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_child_cora_nodes, args=(q,))
    p.start()
    kind, msg = q.get(timeout=60)
    p.join(60)
    assert kind == "RuntimeError"
    assert msg == gssl.FORK_MESSAGE


def test_spawn_works():
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_child_cora_nodes, args=(q,))
    p.start()
    assert q.get(timeout=120) == ("ok", 2708)
    p.join(60)


def big_graph(n=200_000, degree=10, seed=0):
    rng = np.random.default_rng(seed)
    m = n * degree // 2
    u = rng.integers(0, n, m)
    v = rng.integers(0, n, m)
    keep = u != v
    return gssl.Graph.from_edges(u[keep], v[keep], n=n, duplicates="max")


def test_ctrl_c_cancels_a_long_fit():
    g = big_graph()
    y = np.full(g.n_nodes, -1)
    y[:20] = np.arange(20) % 2
    # The fixed-point iteration to an unreachable tolerance runs until its
    # cap of a million iterations: far longer than this test waits.
    m = gssl.LabelSpreading(alpha=0.999, solver="fixed-point", tol=1e-300, max_iter=1_000_000)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        m.fit(g, y)
    timer.join()
    with pytest.raises(gssl.NotFittedError):
        m.predict_proba()


def test_progress_callback():
    cora = gssl.datasets.cora()
    seen = []
    m = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels(), progress=lambda i, r: seen.append((i, r)))
    its = [i for i, _ in seen]
    assert its == list(range(1, len(its) + 1))
    assert len(its) == m.info_["info"]["Iterations"]
    assert seen[-1][1] == m.info_["info"]["Residual"]
    # the callback is not kept by the model: a second fit without one
    # reports nothing to the first
    before = len(seen)
    gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
    assert len(seen) == before
    with pytest.raises(TypeError, match="progress"):
        gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels(), progress=3)
