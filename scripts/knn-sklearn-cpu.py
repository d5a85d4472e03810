"""CPU time of scikit-learn's brute-force KNN graph, for a contention-robust comparison.

shared/bench/peers/knn.py reports wall seconds and peak RSS; on a shared machine wall time mostly
measures the share of the cores a process got. This runs exactly the same measured block
(NearestNeighbors(n_neighbors=k, algorithm='brute', n_jobs=2).fit(X).kneighbors_graph(mode='distance'),
X = first N images as float64 / 255) and prints wall seconds and the process CPU seconds
(user + system, resource.getrusage) spent in it, one JSON line per N. OpenBLAS threads that spin
while waiting count as CPU time too.

Run:  OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 scripts/knn-sklearn-cpu.py IMAGE_DIR N [N ...]
"""
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared")), "bench", "peers"))
from common import load_images  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.neighbors import NearestNeighbors  # noqa: E402


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    img_dir, ns = sys.argv[1], [int(a) for a in sys.argv[2:]]
    X_all, _, _ = load_images(img_dir)
    for n in ns:
        X = X_all[:n].astype(np.float64) / 255.0
        c0, t0 = cpu(), time.perf_counter()
        G = NearestNeighbors(n_neighbors=10, algorithm="brute", n_jobs=2).fit(X).kneighbors_graph(mode="distance")
        t, c = time.perf_counter() - t0, cpu() - c0
        print(json.dumps({"task": "knn", "dataset": os.path.basename(os.path.normpath(img_dir)), "peer": "sklearn-brute",
                          "params": {"N": n, "k": 10}, "seconds": round(t, 4), "cpu_seconds": round(c, 4),
                          "graph_nnz": int(G.nnz)}), flush=True)


if __name__ == "__main__":
    main()
