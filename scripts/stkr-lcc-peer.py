"""stkr.py's solvers on the partitions of `gssl stkr --lcc` (side by side).

    SHARED=../shared /usr/bin/python3 scripts/stkr-lcc-peer.py LCC_DIR ORIGINAL_DIR [SEEDS] [P_TEST]

LCC_DIR is written by `go run ./scripts/lcc-dataset -out LCC_DIR` (edges.txt, labels.txt,
original_ids.txt, splits/random20_seed<s>.txt and splits/random20_seed<s>_ptest<P>.txt).
stkr.py draws and writes its own splits, so it cannot be pointed at given ones: this script
imports its functions (load_graph, sym_normalise, methods_grid, run_one, accuracy: the same
grids, solvers and tolerances) and runs its per-split selection (best val accuracy, first on
ties) on the saved LCC splits. First it checks LCC_DIR against ORIGINAL_DIR independently of
Go: the node set is scipy's largest connected component (ids in increasing order), edges and
labels are the induced ones, every remapped split is the original split restricted to the
component, and every p_test test set is a subset of the split's test set.

Prints JSON lines: one per seed and method ("stkr-lcc-seed": chosen hyperparameters, val
accuracy, test accuracy on all the split's test nodes and on the p_test draw, seconds of the
chosen fit) and one summary per method ("stkr-lcc": mean and population std over seeds).
"""
import json
import os
import sys

import numpy as np
import scipy.sparse.csgraph as csg

SHARED = os.environ.get("SHARED", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "bench", "peers"))
import stkr as peer  # noqa: E402  (shared/bench/peers/stkr.py)
from common import load_graph, load_labels, sym_normalise, measure  # noqa: E402


def read_split(path):
    idx = {"train": [], "val": [], "test": []}
    with open(path) as f:
        for line in f:
            k, v = line.split()
            idx[k].append(int(v))
    return {k: np.array(v, dtype=np.int64) for k, v in idx.items()}


def check_lcc(lcc_dir, orig_dir, seeds):
    labels0 = load_labels(orig_dir)
    W0 = load_graph(orig_dir, n=len(labels0))
    _, comp = csg.connected_components(W0, directed=False)
    sizes = np.bincount(comp)
    nodes = np.flatnonzero(comp == np.argmax(sizes))  # argmax: smallest id on ties, as Go
    ids = np.loadtxt(os.path.join(lcc_dir, "original_ids.txt"), dtype=np.int64)
    assert np.array_equal(ids, nodes), "original_ids.txt is not the largest component"
    labels = load_labels(lcc_dir)
    assert np.array_equal(labels, labels0[nodes]), "labels differ"
    W = load_graph(lcc_dir, n=len(nodes))
    assert (W != W0[nodes][:, nodes]).nnz == 0, "edges are not the induced subgraph"
    local = -np.ones(len(labels0), dtype=np.int64)
    local[nodes] = np.arange(len(nodes))
    dropped = 0
    for s in range(seeds):
        orig = read_split(os.path.join(SHARED, "bench", "splits", "cora", f"random20_seed{s}.txt"))
        mine = read_split(os.path.join(lcc_dir, "splits", f"random20_seed{s}.txt"))
        for k in ("train", "val", "test"):
            want = local[orig[k]]
            dropped += int(np.sum(want < 0))
            assert np.array_equal(np.sort(want[want >= 0]), np.sort(mine[k])), f"seed {s} {k} differs"
    return W, labels, dropped


def main(lcc_dir, orig_dir, seeds=10, p_test="0.01"):
    W, labels, dropped = check_lcc(lcc_dir, orig_dir, seeds)
    S, _, isolated = sym_normalise(W)
    assert isolated == 0
    C = int(labels.max()) + 1
    print(json.dumps({"task": "stkr-lcc-check", "nodes": S.shape[0], "edges": int(W.nnz // 2),
                      "dropped_split_nodes": dropped, "ok": True}), flush=True)
    rows = {}
    for s in range(seeds):
        sp_all = read_split(os.path.join(lcc_dir, "splits", f"random20_seed{s}.txt"))
        sp_cut = read_split(os.path.join(lcc_dir, "splits", f"random20_seed{s}_ptest{p_test}.txt"))
        assert np.array_equal(sp_all["train"], sp_cut["train"]) and np.array_equal(sp_all["val"], sp_cut["val"])
        assert np.all(np.isin(sp_cut["test"], sp_all["test"]))
        train = sp_all["train"]
        Y = np.zeros((len(train), C))
        Y[np.arange(len(train)), labels[train]] = 1.0
        best = {}
        for method, hp in peer.methods_grid():
            with measure() as m:
                F, _ = peer.run_one(S, train, Y, method, hp)
            va = peer.accuracy(F, labels, sp_all["val"])
            if method not in best or va > best[method]["val"]:
                best[method] = {"val": va, "test_all": peer.accuracy(F, labels, sp_all["test"]),
                                "test_ptest": peer.accuracy(F, labels, sp_cut["test"]),
                                "hp": hp, "seconds": m.seconds}
        for method, b in best.items():
            rows.setdefault(method, []).append(b)
            print(json.dumps(dict(task="stkr-lcc-seed", method=method, seed=s, **b)), flush=True)
    for method, rs in rows.items():
        out = {"task": "stkr-lcc", "method": method, "seeds": seeds, "p_test": float(p_test)}
        for key in ("test_all", "test_ptest", "val", "seconds"):
            v = np.array([r[key] for r in rs])
            out[key + "_mean"], out[key + "_std"] = float(v.mean()), float(v.std())
        out["test_all"] = [r["test_all"] for r in rs]
        out["test_ptest"] = [r["test_ptest"] for r in rs]
        out["chosen"] = [r["hp"] for r in rs]
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4, 5):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], *([int(sys.argv[3])] if len(sys.argv) > 3 else []),
         *(sys.argv[4:5]))
