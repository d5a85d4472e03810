"""Seconds per predict_proba call on 1000 new nodes of Cora from Python,
the median of --runs timed calls (compare with capi's BenchmarkPredictNew,
the same work in Go: scripts/bench-python.sh runs both)."""

import argparse
import statistics
import time

import gssl
from newnodes import new_nodes

p = argparse.ArgumentParser()
p.add_argument("--runs", type=int, default=2000)
a = p.parse_args()
cora = gssl.datasets.cora()
m = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
new = new_nodes(1000, cora.graph.n_nodes)
new.indptr = new.indptr.astype("int64")
new.indices = new.indices.astype("int32")
for _ in range(50):
    m.predict_proba(new=new)
ts = []
for _ in range(a.runs):
    t = time.perf_counter()
    m.predict_proba(new=new)
    ts.append(time.perf_counter() - t)
print(f"python predict_proba, 1000 new nodes: mean {statistics.fmean(ts) * 1e6:.1f} µs (the figure go test -bench reports), "
      f"median {statistics.median(ts) * 1e6:.1f} µs over {a.runs} calls")
