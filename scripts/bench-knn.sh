#!/usr/bin/env bash
# Side-by-side KNN benchmark: scikit-learn brute force (shared/bench/peers/knn.py,
# 2 jobs) against `gssl knn` exact and `gssl knn --approximate` (NN-descent), k = 10, on
# MNIST N = 10000 and 20000 and Fashion-MNIST N = 70000. Runs are interleaved
# (peer, Go exact, Go approx) ROUNDS times, all under one flock /tmp/gssl-bench.lock
# so that at most one benchmark runs at a time; the summary gives medians and ratios.
#
#   scripts/bench-knn.sh [OUT_DIR]        (ROUNDS=3 and CONFIGS="mnist:10000 ..." may be set)
#
# Recall of the Go graphs is measured on the 1000 queries of the ground-truth file
# that knn.py writes in the same round (exact integer distances, ties counted).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${SHARED:-$(cd "$ROOT/.." && while [ ! -d shared/data ] && [ "$(pwd)" != / ]; do cd ..; done; pwd)/shared}
OUT=${1:-$(mktemp -d /tmp/bench-knn.XXXXXX)}
ROUNDS=${ROUNDS:-3}
CONFIGS=${CONFIGS:-"mnist:10000 mnist:20000 fashion_mnist:70000"}
LOCK=${LOCK:-/tmp/gssl-bench.lock}
mkdir -p "$OUT/groundtruth"
RESULTS="$OUT/results.jsonl"
: > "$RESULTS"

go build -o "$OUT/gssl" ./cmd/gssl
echo "results in $RESULTS" >&2

# One round = the peer, then gssl exact, then gssl approx, back to back; all
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
      | sed "s/^{/{\"round\": $r, \"peer\": \"gssl-go\", \"mode\": \"$mode\", /" >> "$RESULTS"
  done
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
export CONFIGS ROUNDS
flock "$LOCK" bash -c all_rounds

/usr/bin/python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def med(v): return statistics.median(v) if v else float("nan")
print(f"{'dataset':14} {'N':>6} {'method':22} {'seconds':>9} {'cpu s':>7} {'peak MB':>8} {'recall':>7} {'time/sk':>8} {'mem/sk':>7}  rounds")
keys = sorted({(r["dataset"], (r.get("params") or {}).get("N") or r.get("nodes")) for r in rows if r.get("metric") != "load"})
for ds, n in keys:
    sk = [r for r in rows if r.get("peer") == "sklearn-brute" and r["dataset"] == ds and r["params"]["N"] == n]
    sk_t = med([r["seconds"] for r in sk if r["metric"] == "seconds"])
    sk_m = med([r["peak_rss_mb"] for r in sk if r["metric"] == "seconds"])
    sk_r = med([r["value"] for r in sk if r["metric"] == "recall_sklearn_vs_exact"])
    print(f"{ds:14} {n:>6} {'sklearn brute (2 jobs)':22} {sk_t:9.2f} {'':>7} {sk_m:8.0f} {sk_r:7.4f} {1:8.2f} {1:7.2f}  {len(sk) // 2}")
    ex_t = None
    for mode, name in (("exact", "gssl exact float32"), ("approx", "gssl NN-descent")):
        g = [r for r in rows if r.get("peer") == "gssl-go" and r.get("mode") == mode and r["dataset"] == ds and r["nodes"] == n]
        t = med([r["seconds"] for r in g]); m = med([r["peak_rss_mb"] for r in g]); rc = med([r["recall"] for r in g])
        c = med([r["cpu_seconds"] for r in g])
        extra = ""
        if mode == "exact":
            ex_t = t
        elif ex_t:
            extra = f"  ({ex_t / t:.1f}x faster than gssl exact in wall time, {ex_c / c:.1f}x in CPU time)"
        if mode == "exact":
            ex_c = c
        print(f"{ds:14} {n:>6} {name:22} {t:9.2f} {c:7.2f} {m:8.0f} {rc:7.4f} {t / sk_t:8.2f} {m / sk_m:7.2f}  {len(g)}{extra}")
PY
