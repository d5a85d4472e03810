"""CPU and wall time of lp.py's own solver functions, for scripts/bench-lp.sh.

lp.py reports wall time only; on a loaded machine CPU time (user + system of
all threads, time.process_time) is a steadier measure of the work done. This
script imports lp.py and times the same calls on the same inputs:

  /usr/bin/python3 lp-peer-cpu.py PEERS_DIR DATA_DIR [REPS]

One JSON line per task: {"dataset", "task", "alpha", "cpu_s", "wall_s", "iterations"} with medians
over REPS runs (default 7). Tasks: spreading-cg and spreading-fixed-point at every a of the grid,
harmonic (plain CG, as lp.py).
"""
import json, os, statistics, sys, time

peers, data = sys.argv[1], sys.argv[2]
reps = int(sys.argv[3]) if len(sys.argv) > 3 else 7
sys.path.insert(0, peers)
import lp  # noqa: E402
from common import load_graph, load_labels, load_split, sym_normalise, dataset_name  # noqa: E402

labels = load_labels(data)
W = load_graph(data, n=len(labels))
split = load_split(data)
S, _, _ = sym_normalise(W)
C = int(labels.max()) + 1
Y = lp.one_hot_train(labels, split["train"], C)
ds = dataset_name(data)


def timed(fn):
    cpu, wall, it = [], [], None
    for _ in range(reps):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn()
        out[0].argmax(axis=1)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        it = out[1]
    return statistics.median(cpu), statistics.median(wall), max(it) if isinstance(it, list) else it


for a in lp.ALPHAS:
    for task, fn in (("spreading-cg", lambda: lp.spread_cg(S, Y, a)),
                     ("spreading-fixed-point", lambda: lp.spread_fixed_point(S, Y, a))):
        c, w, it = timed(fn)
        print(json.dumps({"dataset": ds, "task": task, "alpha": a, "cpu_s": c, "wall_s": w, "iterations": it}), flush=True)
c, w, it = timed(lambda: lp.harmonic_cg(W, labels, split["train"], C))
print(json.dumps({"dataset": ds, "task": "harmonic", "alpha": None, "cpu_s": c, "wall_s": w, "iterations": it}), flush=True)
