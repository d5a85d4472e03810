#!/usr/bin/python3
"""Regenerates the OGB node-property fixtures of loaders' LoadOGB tests.

Run from this folder with Debian's python3 (numpy, pandas):

    cd testdata/ogb-tiny && /usr/bin/python3 make.py

It writes two data sets in the raw layout of ogb's NodePropPredDataset
(https://ogb.stanford.edu/docs/nodeprop/), each file as the OGB team's
pandas code writes it (DataFrame.to_csv(header=False, index=False,
compression="gzip")):

  tiny/     directed arcs (like ogbn-arxiv), integer labels, split "time"
  tiny-nan/ undirected edges listed once, labels with NaN for unlabelled nodes
            (pandas then writes the labels as floats, "3.0", and NaN as an
            empty line), two splits

expected.json holds what the Go test compares against: the undirected edge
set after PyG's to_undirected (arcs both ways, repeats merged, self loops
dropped), labels (-1 for NaN), features and splits. The gzip members carry
no time stamp, so the output is deterministic.
"""
import json
import os

import numpy as np
import pandas as pd

GZ = {"method": "gzip", "mtime": 0}


def write(path, df):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    df.to_csv(path, header=False, index=False, compression=GZ)


def dataset(name, n, arcs, feat, labels, splits):
    raw = os.path.join(name, "raw")
    write(os.path.join(raw, "edge.csv.gz"), pd.DataFrame(arcs))
    write(os.path.join(raw, "node-feat.csv.gz"), pd.DataFrame(feat))
    write(os.path.join(raw, "node-label.csv.gz"), pd.DataFrame(labels))
    write(os.path.join(raw, "num-node-list.csv.gz"), pd.DataFrame([n]))
    write(os.path.join(raw, "num-edge-list.csv.gz"), pd.DataFrame([len(arcs)]))
    for split, parts in splits.items():
        for part, idx in parts.items():
            write(os.path.join(name, "split", split, part + ".csv.gz"), pd.DataFrame(idx))
    und = set()
    for u, v in arcs:
        if u != v:
            und.add((min(u, v), max(u, v)))
    lab = [(-1 if np.isnan(x) else int(x)) for x in np.asarray(labels, dtype=float).ravel()]
    # The features as the text reads back in float64.
    text = pd.read_csv(os.path.join(raw, "node-feat.csv.gz"), header=None, dtype=np.float64).values
    return {"n": n, "edges": sorted(map(list, und)), "features": text.ravel().tolist(),
            "dims": list(np.asarray(feat).shape), "labels": lab,
            "splits": {s: {p: list(map(int, i)) for p, i in parts.items()} for s, parts in splits.items()}}


rng = np.random.default_rng(15)
expected = {}

# tiny: 40 nodes, 3 classes, directed arcs with a reciprocal pair, a repeated
# arc and a self loop; node 39 has no edge.
n = 40
arcs = [(int(u), int(v)) for u, v in rng.integers(0, 39, size=(90, 2))]
arcs += [(0, 1), (1, 0), (2, 3), (2, 3), (5, 5)]
feat = np.round(rng.normal(size=(n, 4)), 6).astype(np.float32)
labels = rng.integers(0, 3, size=(n, 1))
perm = rng.permutation(n)
expected["tiny"] = dataset("tiny", n, arcs, feat, labels,
                           {"time": {"train": perm[:20], "valid": perm[20:30], "test": perm[30:]}})

# tiny-nan: 30 nodes, undirected edges listed once, 4 classes with class 2
# unused, NaN labels.
n = 30
edges = set()
while len(edges) < 50:
    u, v = rng.integers(0, n, size=2)
    if u != v:
        edges.add((int(min(u, v)), int(max(u, v))))
arcs = sorted(edges)
feat = np.round(rng.normal(size=(n, 3)), 6)
labels = rng.choice([0.0, 1.0, 3.0], size=(n, 1))
labels[[4, 11, 29]] = np.nan
perm = rng.permutation([i for i in range(n) if i not in (4, 11, 29)])
expected["tiny-nan"] = dataset("tiny-nan", n, arcs, feat, labels,
                               {"random": {"train": perm[:10], "valid": perm[10:15], "test": perm[15:]},
                                "other": {"train": perm[:5], "valid": perm[5:10], "test": perm[10:]}})

with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
