"""Seconds per predict_proba call on 1000 new nodes of Cora from Python
(compare with capi's BenchmarkPredictNew, the same Predict in Go:
scripts/bench-python.sh runs both, interleaved). Prints one line: the
mean over --runs timed calls (the figure go test -bench reports as
ns/op), their median (BenchmarkPredictNew's median-ns/op) and the median
of the calling thread's CPU time per call (cpu-median-ns/op: the Go call
runs on the calling thread; scheduling on a busy machine does not inflate
it)."""

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
ts, cpu = [], []
for _ in range(a.runs):
    t, c = time.perf_counter_ns(), time.thread_time_ns()
    m.predict_proba(new=new)
    cpu.append(time.thread_time_ns() - c)
    ts.append(time.perf_counter_ns() - t)
print(f"python predict_proba, 1000 new nodes: {statistics.fmean(ts):.0f} ns/op mean, "
      f"{statistics.median(ts):.0f} median-ns/op, {statistics.median(cpu):.0f} cpu-median-ns/op over {a.runs} calls")
