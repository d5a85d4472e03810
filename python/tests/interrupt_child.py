"""Child process of test_interrupt.py: builds a large random graph (or
point set), prints "ready", runs one long call and prints "cancelled" when
Ctrl-C (SIGINT) stopped it — after the Go call has returned, since the
binding waits for it — or "finished" when the call ran to its end."""

import sys
import warnings

import numpy as np

import gssl

warnings.simplefilter("ignore")  # capped fits warn that they did not converge
which, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
if which == "knn":
    X = rng.standard_normal((n, 16))

    def run():
        # exact search: n² distances
        gssl.Graph.from_knn(X, 10)
else:
    m = 5 * n
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = u != v
    g = gssl.Graph.from_edges(u[keep], v[keep], n=n, duplicates="max")
    y = np.full(n, -1)
    y[:20] = np.arange(20) % 2
    if which == "labelspreading":
        def run():
            # fixed-point sweeps to an unreachable tolerance: ten million
            gssl.LabelSpreading(alpha=0.999, solver="fixed-point", tol=1e-300, max_iter=10**7).fit(g, y)
    elif which == "sgc":
        F = rng.standard_normal((n, 8))

        def run():
            # a hundred thousand propagation steps of the features
            gssl.SGC(k=100_000).fit(g, y, features=F)
    elif which == "eigenmap":
        def run():
            # 200 eigenpairs of a random graph's Laplacian by thick-restart Lanczos
            gssl.LaplacianEigenmap(dim=200).fit(g)
    else:
        raise SystemExit(f"unknown call {which}")
print("ready", flush=True)
try:
    run()
except KeyboardInterrupt:
    print("cancelled", flush=True)
    sys.exit(130)
print("finished", flush=True)
