#!/usr/bin/env bash
# Side-by-side KNN benchmark, k = 10: `gssl knn` exact and `gssl knn --approximate`
# (NN-descent) against scikit-learn brute force (shared/bench/peers/knn.py, 2 jobs) and
# the libraries of shared/bench/peers/ann.py (FAISS IndexFlatL2 exact, FAISS HNSW,
# hnswlib, pynndescent; 2 threads), on MNIST N = 10000 and 20000 and Fashion-MNIST
# N = 70000. Runs are interleaved (scikit-learn, gssl exact, gssl NN-descent, ann.py)
# ROUNDS times, all under one flock /tmp/gssl-bench.lock so that at most one benchmark
# runs at a time; the summary gives medians and the ratios to scikit-learn and to FAISS
# IndexFlatL2.
#
#   scripts/bench-knn.sh [OUT_DIR]        (ROUNDS=3, CONFIGS="mnist:10000 ...", ANN=all|flat|0)
#
# ANN=all (default) runs the whole of ann.py each round; ANN=flat only its FAISS
# IndexFlatL2 step (the same calls, timed the same way: add + search of k+1, self
# dropped), for a shorter hold of the lock; ANN=0 neither.
#
# Recall of every graph is measured on the 1000 queries of the ground-truth file
# that knn.py writes in the same round (exact integer distances, ties counted).
# The load average at the start of each run is kept in the results ("load").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${SHARED:-$(cd "$ROOT/.." && while [ ! -d shared/data ] && [ "$(pwd)" != / ]; do cd ..; done; pwd)/shared}
OUT=${1:-$(mktemp -d /tmp/bench-knn.XXXXXX)}
ROUNDS=${ROUNDS:-3}
ANN=${ANN:-all}
CONFIGS=${CONFIGS:-"mnist:10000 mnist:20000 fashion_mnist:70000"}
LOCK=${LOCK:-/tmp/gssl-bench.lock}
mkdir -p "$OUT/groundtruth"
RESULTS="$OUT/results.jsonl"
: > "$RESULTS"

go build -o "$OUT/gssl" ./cmd/gssl
# ANN=flat: ann.py's FAISS IndexFlatL2 step alone, with ann.py's own loading and recall
cat > "$OUT/faiss_flat.py" <<PY
import sys, time
sys.path.insert(0, "$SHARED/bench/peers")
import argparse, numpy as np, faiss
from common import emit, load_images, dataset_name
from ann import read_truth, recall
ap = argparse.ArgumentParser(); ap.add_argument("img_dir"); ap.add_argument("n", type=int)
ap.add_argument("--k", type=int, default=10); ap.add_argument("--truth", required=True)
a = ap.parse_args()
Xu8 = load_images(a.img_dir)[0][:a.n]; X = Xu8.astype(np.float32) / 255.0
q, _, td2 = read_truth(a.truth); k = a.k
faiss.omp_set_num_threads(2)
t = time.perf_counter(); idx = faiss.IndexFlatL2(X.shape[1]); idx.add(X); _, I = idx.search(X, k + 1)
emit("knn-graph", dataset_name(a.img_dir), "faiss-flat", {"n": a.n, "k": k}, "recall", recall(I, Xu8, q, td2, k), seconds=time.perf_counter() - t)
PY
echo "results in $RESULTS" >&2

# One round = scikit-learn, gssl exact, gssl approx, then ann.py, back to back; all
# rounds run under one hold of the lock (a busy machine has a long queue).
round() {
  local ds=$1 n=$2 r=$3 dir="$SHARED/data/$1"
  local gt="$OUT/groundtruth/knn_exact_${ds}_N${n}_k10.txt"
  echo "== $ds N=$n round $r: scikit-learn ($(date +%T), load $(cut -d' ' -f1 /proc/loadavg))" >&2
  OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 \
    "$SHARED/bench/peers/knn.py" "$dir" "$n" --k 10 --out "$OUT/groundtruth" \
    | sed "s/^{/{\"round\": $r, /" >> "$RESULTS"
  for mode in exact approx; do
    echo "== $ds N=$n round $r: gssl $mode ($(date +%T), load $(cut -d' ' -f1 /proc/loadavg))" >&2
    local flag=""
    [ "$mode" = approx ] && flag="--approximate"
    GOMAXPROCS=2 "$OUT/gssl" knn --json --images "$dir" --n "$n" --neighbors 10 $flag --groundtruth "$gt" \
      | sed "s/^{/{\"round\": $r, \"peer\": \"gssl-go\", \"mode\": \"$mode\", \"load\": $(cut -d' ' -f1 /proc/loadavg), /" >> "$RESULTS"
  done
  local ann=""
  case "$ANN" in
    all) ann="$SHARED/bench/peers/ann.py" ;;
    flat) ann="$OUT/faiss_flat.py" ;;
  esac
  if [ -n "$ann" ]; then
    echo "== $ds N=$n round $r: $(basename "$ann") ($(date +%T), load $(cut -d' ' -f1 /proc/loadavg))" >&2
    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 NUMBA_NUM_THREADS=2 /usr/bin/python3 \
      "$ann" "$dir" "$n" --k 10 --truth "$gt" \
      | grep '^{' | sed "s/^{/{\"round\": $r, /" >> "$RESULTS"
  fi
}
export -f round
export SHARED OUT RESULTS

all_rounds() {
  for cfg in $CONFIGS; do
    for r in $(seq "$ROUNDS"); do
      round "${cfg%%:*}" "${cfg##*:}" "$r"
    done
  done
}
export -f all_rounds
export CONFIGS ROUNDS ANN
flock "$LOCK" bash -c all_rounds

/usr/bin/python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else float("nan")
def ratio(a, b): return a / b if b == b and b else float("nan")
def size(r): return (r.get("params") or {}).get("N") or (r.get("params") or {}).get("n") or r.get("nodes")
print(f"{'dataset':14} {'N':>6} {'method':24} {'seconds':>9} {'cpu s':>7} {'peak MB':>8} {'recall':>7} {'time/sk':>8} {'time/faiss':>10} {'mem/sk':>7}  rounds")
keys = sorted({(r["dataset"], size(r)) for r in rows if r.get("metric") != "load"})
for ds, n in keys:
    sel = [r for r in rows if r["dataset"] == ds and size(r) == n]
    sk = [r for r in sel if r.get("peer") == "sklearn-brute"]
    sk_t = med([r["seconds"] for r in sk if r["metric"] == "seconds"])
    sk_m = med([r["peak_rss_mb"] for r in sk if r["metric"] == "seconds"])
    sk_r = med([r["value"] for r in sk if r["metric"] == "recall_sklearn_vs_exact"])
    ff_t = med([r["seconds"] for r in sel if r.get("peer") == "faiss-flat"])
    lines = [("sklearn brute (2 jobs)", sk_t, float("nan"), sk_m, sk_r, len(sk) // 2)]
    for mode, name in (("exact", "gssl exact float32"), ("approx", "gssl NN-descent")):
        g = [r for r in sel if r.get("peer") == "gssl-go" and r.get("mode") == mode]
        lines.append((name, med([r["seconds"] for r in g]), med([r["cpu_seconds"] for r in g]),
                      med([r["peak_rss_mb"] for r in g]), med([r["recall"] for r in g]), len(g)))
    for peer, name in (("faiss-flat", "FAISS IndexFlatL2"), ("faiss-hnsw", "FAISS HNSW32"),
                       ("hnswlib", "hnswlib"), ("pynndescent-warm", "pynndescent (warm)")):
        g = [r for r in sel if r.get("peer") == peer]
        if g:
            lines.append((name, med([r["seconds"] for r in g]), float("nan"), float("nan"),
                          med([r["value"] for r in g]), len(g)))
    for name, t, c, m, rc, k in lines:
        print(f"{ds:14} {n:>6} {name:24} {t:9.2f} {c:7.2f} {m:8.0f} {rc:7.4f} {ratio(t, sk_t):8.2f} {ratio(t, ff_t):10.2f} {ratio(m, sk_m):7.2f}  {k}")
loads = [r["load"] for r in rows if "load" in r]
if loads:
    print(f"load average at the gssl runs: {min(loads):.2f}–{max(loads):.2f}")
PY
