#!/usr/bin/env bash
# Node classification with features: gssl classify against the PyTorch GCN/SGC
# peer (../shared/bench/peers/gnn.py, CPU, 2 threads), side by side on the
# same Planetoid split, interleaved, each timed run under the benchmark lock.
#
#   scripts/bench-classify.sh [ROUNDS] [DATA]
#
# ROUNDS (default 3) interleaved rounds of: one whole `gssl classify --model
# auto` (the command's "seconds": loading and the selection over every
# candidate included; the peer excludes loading), then gnn.py with 1 torch
# seed (one GCN and one SGC training run).
# Prints the median seconds of each and the ratio gssl / one GCN run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SHARED=${SHARED:-../shared}
DATA=${2:-$SHARED/data/cora}
LOCK=/tmp/gssl-bench.lock
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gssl" ./cmd/gssl
: > "$tmp/res.jsonl"
for r in $(seq "$ROUNDS"); do
	echo "round $r" >&2
	flock "$LOCK" "$tmp/gssl" classify --data "$DATA" --model auto --json > "$tmp/g.json"
	/usr/bin/python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps({"who":"gssl","seconds":o["seconds"],"acc":o["test_accuracy"],"model":o["model"]}))' "$tmp/g.json" >> "$tmp/res.jsonl"
	OMP_NUM_THREADS=2 flock "$LOCK" /usr/bin/python3 "$SHARED/bench/peers/gnn.py" "$DATA" 1 2>/dev/null >> "$tmp/res.jsonl"
done
/usr/bin/python3 - "$tmp/res.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
g = [r for r in rows if r.get("who") == "gssl"]
gs = statistics.median(r["seconds"] for r in g)
print(f"gssl classify --model auto: {gs:.3f} s (median of {len(g)}), test accuracy {g[0]['acc']:.4f}, {g[0]['model']}")
for name in ("gcn", "sgc"):
    p = [r for r in rows if r.get("task") == name]
    if p:
        s = statistics.median(r["seconds"] for r in p)
        a = statistics.median(r["value"] for r in p)
        print(f"torch {name}: {s:.3f} s per training run (median of {len(p)}), test accuracy {a:.4f}; gssl / {name} = {gs/s:.3f}")
for r in rows:
    if r.get("who") != "gssl":
        print("peer line:", json.dumps(r)[:300], file=sys.stderr)
PY
