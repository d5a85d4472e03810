#!/usr/bin/env python3
"""Median of 5 timings of wl.py's own numpy WL Gram matrix (h = 5: WL(graphs), 5 steps,
gram(features(5))), the region wl.py reports as gram_seconds.  wl-gram-numpy.py TU_DIR"""
import sys, time, json
import os
sys.path.insert(0, os.path.join(os.environ.get("SHARED", "../shared"), "bench", "peers"))
from common import load_tu
from wl import WL, gram
ds, graphs, y = load_tu(sys.argv[1])
gram(WL(graphs).features(0))
ts=[]
for _ in range(5):
    t=time.perf_counter(); wl=WL(graphs)
    for _ in range(5): wl.step()
    K=gram(wl.features(5)); ts.append(time.perf_counter()-t)
ts.sort(); print(json.dumps({"ds":ds,"numpy_gram_median":ts[2]}))
