#!/usr/bin/env bash
# Node classification with features: gssl classify against PyTorch Geometric's
# GCNConv, SGConv, APPNP and CorrectAndSmooth (bench/peers.py gnn, CPU, 2 threads,
# the peer environment of bench/peers-env.sh), side by side on the same split
# (Planetoid's, else split_0), interleaved, each timed run under the benchmark lock.
#
#   scripts/bench-classify.sh [ROUNDS] [DATA]
#
# ROUNDS (default 3) interleaved rounds of: one whole `gssl classify --classifier
# auto` (the command's "seconds": loading and the selection over every
# candidate included; the peer excludes loading), then one training run of each PyG model.
# Prints the median seconds of each and the ratio gssl / one GCN run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SHARED=${SHARED:-../shared}
DATA=${2:-$SHARED/data/cora}
LOCK=/tmp/gssl-bench.lock
SPLIT=$DATA/split_planetoid.txt
[ -f "$SPLIT" ] || SPLIT=$DATA/split_0.txt
[ -x .venv-peers/bin/python ] || { echo "no peer environment: run bench/peers-env.sh first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gssl" ./cmd/gssl
: > "$tmp/res.jsonl"
for r in $(seq "$ROUNDS"); do
	echo "round $r" >&2
	flock "$LOCK" "$tmp/gssl" classify --data "$DATA" --split "$SPLIT" --classifier auto --json > "$tmp/g.json"
	/usr/bin/python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps({"who":"gssl","seconds":o["seconds"],"acc":o["test_accuracy"],"model":o["model"]}))' "$tmp/g.json" >> "$tmp/res.jsonl"
	OMP_NUM_THREADS=2 PEER_THREADS=2 flock "$LOCK" .venv-peers/bin/python bench/peers.py gnn "$DATA" "$SPLIT" 2>/dev/null >> "$tmp/res.jsonl"
done
/usr/bin/python3 - "$tmp/res.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
g = [r for r in rows if r.get("who") == "gssl"]
gs = statistics.median(r["seconds"] for r in g)
print(f"gssl classify --classifier auto: {gs:.3f} s (median of {len(g)}), test accuracy {g[0]['acc']:.4f}, {g[0]['model']}")
for name in sorted({r["peer"] for r in rows if r.get("area") == "gnn"}):
    p = [r for r in rows if r.get("peer") == name]
    s = statistics.median(r["seconds"] for r in p)
    a = statistics.median(r["test_accuracy"] for r in p)
    print(f"{name}: {s:.3f} s per training run (median of {len(p)}), test accuracy {a:.4f}; gssl / it = {gs/s:.3f}")
for r in rows:
    if r.get("who") != "gssl":
        print("peer line:", json.dumps(r)[:300], file=sys.stderr)
PY
