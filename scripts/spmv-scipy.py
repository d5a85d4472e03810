#!/usr/bin/env python3
"""Seconds per sparse product W·X (scipy CSR, X n×c) on a node-classification
graph, loaded exactly as ../shared/bench/peers/common.py's load_graph does.
Prints one JSON line per c: median over ROUNDS rounds of REPS products.

    spmv-scipy.py SHARED DATA_DIR [REPS] [ROUNDS]
"""
import json, os, sys, time

shared, data = sys.argv[1], sys.argv[2]
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
sys.path.insert(0, os.path.join(shared, "bench", "peers"))
import numpy as np
from common import load_graph

W = load_graph(data)
n = W.shape[0]
for c in (1, 3, 7):
    x = np.ones(n) if c == 1 else np.ones((n, c))
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            y = W @ x
        times.append((time.perf_counter() - t) / reps)
    times.sort()
    print(json.dumps({"peer": "scipy-csr", "n": n, "nnz": int(W.nnz), "cols": c,
                      "seconds_per_product": times[len(times) // 2]}))
