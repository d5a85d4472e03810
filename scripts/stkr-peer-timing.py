"""Times stkr.py's own solvers (imported from shared/bench/peers/stkr.py) for one
fit at stkr.py's selected hyperparameters on Cora's Planetoid split, to set
against `go test ./stkr -bench CoraPlanetoid`. Prints one JSON line per
method: median wall seconds and median process CPU seconds (all threads) per
solve over REPS runs.

  OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 scripts/stkr-peer-timing.py SHARED [REPS]
"""
import json
import os
import statistics
import sys
import time

shared = sys.argv[1]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
sys.path.insert(0, os.path.join(shared, "bench", "peers"))
import numpy as np  # noqa: E402
import stkr  # noqa: E402
from common import load_graph, load_labels, load_split, sym_normalise  # noqa: E402

data = os.path.join(shared, "data", "cora")
labels = load_labels(data)
S, _, _ = sym_normalise(load_graph(data, n=len(labels)))
train = load_split(data)["train"]
Y = np.zeros((len(train), labels.max() + 1))
Y[np.arange(len(train)), labels[train]] = 1.0
methods = {
    "SP-Lap/minres": lambda: stkr.sp_lap_minres(S, train, Y, 0.99, 10.0),
    "SP-Lap/gmres": lambda: stkr.sp_lap_gmres(S, train, Y, 0.99, 10.0),
    "SP-Lap/richardson": lambda: stkr.sp_lap_coupled_richardson(S, train, Y, 0.99, 10.0),
    "SP-poly/cg": lambda: stkr.sp_poly_cg(S, train, Y, 1.0),
    "SP-poly/richardson": lambda: stkr.sp_poly_richardson(S, train, Y, 1.0),
}
for name, fn in methods.items():
    walls, cpus = [], []
    for _ in range(reps if "richardson" not in name else max(1, reps // 5)):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    print(json.dumps({"task": "stkr-timing", "dataset": "cora", "peer": "python-scipy", "method": name,
                      "wall_seconds": statistics.median(walls), "cpu_seconds": statistics.median(cpus),
                      "runs": len(walls)}), flush=True)
