"""Latency of Ctrl-C during a long fit: the time from the interrupt
(_thread.interrupt_main, as a SIGINT handler would) to the
KeyboardInterrupt in the caller, over --runs fits, and the time of one
iteration of the fit (the model checks its context once per iteration;
the binding adds at most its 10 ms poll)."""

import _thread
import argparse
import statistics
import threading
import time

import warnings

import numpy as np

import gssl

p = argparse.ArgumentParser()
p.add_argument("--runs", type=int, default=7)
p.add_argument("--nodes", type=int, default=200_000)
a = p.parse_args()
rng = np.random.default_rng(0)
n = a.nodes
m = 5 * n
u, v = rng.integers(0, n, m), rng.integers(0, n, m)
keep = u != v
g = gssl.Graph.from_edges(u[keep], v[keep], n=n, duplicates="max")
y = np.full(n, -1)
y[:20] = np.arange(20) % 2
warnings.simplefilter("ignore")  # the capped fit does not converge
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
ts = []
gssl.LabelSpreading(alpha=0.999, solver="fixed-point", tol=1e-300, max_iter=30).fit(
    g, y, progress=lambda i, r: ts.append(time.perf_counter()))
it = np.diff(ts)
print(f"one iteration: median {np.median(it) * 1e3:.1f} ms, max {it.max() * 1e3:.1f} ms")
print(f"Ctrl-C to KeyboardInterrupt: median {statistics.median(lat) * 1e3:.1f} ms, max {max(lat) * 1e3:.1f} ms over {len(lat)} fits (n = {n}, fixed-point label spreading)")
