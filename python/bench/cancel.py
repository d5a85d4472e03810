"""Latency of Ctrl-C during a long fit: the time from the interrupt
(_thread.interrupt_main, as a SIGINT handler would) to the
KeyboardInterrupt in the caller, over --runs fits."""

import _thread
import argparse
import statistics
import threading
import time

import numpy as np

import gssl

p = argparse.ArgumentParser()
p.add_argument("--runs", type=int, default=7)
a = p.parse_args()
rng = np.random.default_rng(0)
n, m = 200_000, 1_000_000
u, v = rng.integers(0, n, m), rng.integers(0, n, m)
keep = u != v
g = gssl.Graph.from_edges(u[keep], v[keep], n=n, duplicates="max")
y = np.full(n, -1)
y[:20] = np.arange(20) % 2
lat = []
for _ in range(a.runs):
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    t = threading.Timer(0.3, interrupt)
    t.start()
    try:
        gssl.LabelSpreading(alpha=0.999, solver="fixed-point", tol=1e-300, max_iter=1_000_000).fit(g, y)
    except KeyboardInterrupt:
        lat.append(time.perf_counter() - sent[0])
    t.join()
print(f"Ctrl-C to KeyboardInterrupt: median {statistics.median(lat) * 1e3:.1f} ms, max {max(lat) * 1e3:.1f} ms over {len(lat)} fits (n = {n}, fixed-point label spreading)")
