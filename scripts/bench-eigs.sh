#!/usr/bin/env bash
# Side-by-side eigensolver benchmark: gssl eigs against scipy's eigsh (ARPACK on
# S = D^-1/2 W D^-1/2, which='LA', tol=0, seeded v0) exactly as
# ../shared/bench/peers/eigs.py calls it, for the K = 10, 50, 100 smallest
# eigenpairs of L_sym on PubMed and on the MNIST KNN graph of eigs.py (first
# 20000 images, k=10, union-symmetrised, Gaussian weights with σ = median
# 10th-neighbour distance, pixels/255, no self loops).
#
# eigs.py itself also runs shift-invert and LOBPCG (minutes on MNIST) and
# rebuilds the KNN graph on every run, so the repeated timings use a driver
# that imports eigs.py's own functions (graph construction, residual check)
# and runs only its eigsh 'LA' call, alternating with the Go binary in the
# same process (peer K=10, Go K=10, peer K=50, …), REPS times, both data
# sets under one hold of the shared benchmark lock. Both sides time the
# solve only (graph in memory).
# The MNIST graph is handed to Go through a Matrix Market file written by
# scipy.io.mmwrite into a temporary folder (nothing is written into shared/).
# Run eigs.py in full once with FULL=1 for its shift-invert/LOBPCG lines.
#
#   scripts/bench-eigs.sh [REPS] [OUT]       (default 3 repetitions, bench/out/eigs.jsonl)
#   TOL=1e-13                                gssl's residual tolerance (default 1e-13)
#   METHOD=auto                              gssl eigs --method: auto, block or single
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-3}
OUT=${2:-bench/out/eigs.jsonl}
mkdir -p "$(dirname "$OUT")"
TOL=${TOL:-1e-13}
METHOD=${METHOD:-auto}
# SHARED=/path/to/shared to override; default: the shared folder next to the
# checkout (../shared), or next to its parent for a worktree (../../shared).
if [[ -z "${SHARED:-}" ]]; then
  SHARED=../shared
  [[ -d $SHARED ]] || SHARED=../../shared
fi
SHARED=$(cd "$SHARED" && pwd)
# The peer's Python: the peer environment of bench/peers-env.sh when it is there (SciPy from the lock file),
# else the system's (which then needs NumPy and SciPy).
PY=${PEERPY:-$([ -x .venv-peers/bin/python ] && echo "$(pwd)/.venv-peers/bin/python" || echo /usr/bin/python3)}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/gssl" ./cmd/gssl
export OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 GOMAXPROCS=2
LOCK="flock /tmp/gssl-bench.lock"

cat > "$WORK/driver.py" <<'PY'
import json, os, subprocess, sys, time
peers, data_dir, reps, tol, gssl, work, method = sys.argv[1:8]
sys.path.insert(0, peers)
import numpy as np
import scipy.io
import scipy.sparse.linalg as sla
from scipy.sparse.csgraph import connected_components
import eigs as E
from common import load_graph, load_labels, load_images, sym_normalise, measure, emit, log

ds = os.path.basename(os.path.normpath(data_dir))
if os.path.exists(os.path.join(data_dir, "edges.txt")):
    W = load_graph(data_dir, n=len(load_labels(data_dir)))
    gdata = data_dir
else:
    X, _, _ = load_images(data_dir)
    X = X[:20000].astype(np.float64) / 255.0
    ds = f"{ds}-knn10-n{len(X)}"
    t = time.perf_counter()
    W, sigma = E.knn_gaussian_graph(X, 10)
    log(f"{ds}: graph built in {time.perf_counter() - t:.1f} s, sigma {sigma:.6g}")
    gdata = os.path.join(work, ds + ".mtx")
    scipy.io.mmwrite(gdata, W, symmetry="symmetric", precision=17)
S, d, isolated = sym_normalise(W)
n = S.shape[0]
L = (E.sp.identity(n, format="csr") - S).tocsr()
ncomp, _ = connected_components(W, directed=False)
base = {"n": n, "nnz": int(W.nnz), "components": int(ncomp)}
v0 = np.random.default_rng(E.SEED).standard_normal(n)
for rep in range(int(reps)):
    for K in (10, 50, 100):
        with measure() as m:
            mu, U = sla.eigsh(S, k=K, which="LA", v0=v0)
        lam = 1.0 - mu
        order = np.argsort(lam)
        lam, U = lam[order], U[:, order]
        res, orth = E.check(L, lam, U)
        emit("eigs", ds, "scipy-eigsh-S-LA", dict(base, K=K, tol=0), "seconds", m.seconds,
             m.seconds, m.peak_rss_mb, max_residual=res, orthogonality=orth,
             lambda_max=float(lam[-1]), n_zero_found=int(np.sum(np.abs(lam) < 1e-8)), rep=rep)
        out = subprocess.run([gssl, "eigs", "--json", "--edges" if gdata.endswith(".mtx") else "--data", gdata, "--eigenpairs", str(K), "--tol", tol, "--method", method],
                             check=True, capture_output=True, text=True).stdout
        g = json.loads(out)
        emit("eigs", ds, "gssl-go", dict(base, K=K, tol=float(tol)), "seconds", g["seconds"],
             g["seconds"], g["peak_rss_mb"], max_residual=g["max_residual"],
             orthogonality=g["orthogonality"], lambda_max=g["eigenvalues"][-1],
             n_zero_found=g["zero_eigenvalues"], matvecs=g["matvecs"], restarts=g["restarts"], rep=rep, method=method,
             max_abs_lambda_diff_vs_scipy=float(np.max(np.abs(np.array(g["eigenvalues"]) - lam))))
PY

# Both data sets under one hold of the lock (file descriptor 9), so that no
# other benchmark runs between them.
exec 9>>/tmp/gssl-bench.lock
flock 9
for ds in pubmed mnist; do
  echo "== $ds $(uptime)" >&2
  "$PY" "$WORK/driver.py" "$SHARED/bench/peers" "$SHARED/data/$ds" "$REPS" "$TOL" "$WORK/gssl" "$WORK" "$METHOD" >> "$OUT"
done
echo "== done $(uptime)" >&2
flock -u 9
exec 9>&-
if [[ "${FULL:-0}" == 1 ]]; then
  $LOCK "$PY" "$SHARED/bench/peers/eigs.py" "$SHARED/data/pubmed" 10 50 100 >> "$OUT"
  $LOCK "$PY" "$SHARED/bench/peers/eigs.py" "$SHARED/data/mnist" 10 50 100 --n 20000 >> "$OUT"
fi

# Summary: medians over repetitions, ratio Go / scipy (below 1: Go faster).
/usr/bin/python3 - "$OUT" <<'PY'
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
by = {}
for r in rows:
    if r.get("task") != "eigs" or r["peer"] not in ("gssl-go", "scipy-eigsh-S-LA") or r["metric"] != "seconds" or "rep" not in r:
        continue
    by.setdefault((r["dataset"], r["params"]["K"], r["peer"]), []).append(r)
print(f"{'dataset':22} {'K':>4} {'scipy s':>9} {'gssl s':>9} {'ratio':>6} {'scipy res':>10} {'gssl res':>10} {'zeros':>6} {'RSS ratio':>9}")
for (ds, K, peer) in sorted(by):
    if peer != "gssl-go":
        continue
    g, p = by[(ds, K, "gssl-go")], by.get((ds, K, "scipy-eigsh-S-LA"), [])
    if not p:
        continue
    gs, ps = st.median(r["seconds"] for r in g), st.median(r["seconds"] for r in p)
    gr, pr = max(r["max_residual"] for r in g), max(r["max_residual"] for r in p)
    rss = st.median(r["peak_rss_mb"] for r in g) / st.median(r["peak_rss_mb"] for r in p)
    print(f"{ds:22} {K:>4} {ps:9.3f} {gs:9.3f} {gs/ps:6.2f} {pr:10.2g} {gr:10.2g} {g[0]['n_zero_found']:>3}/{p[0]['n_zero_found']:<2} {rss:9.2f}")
PY
