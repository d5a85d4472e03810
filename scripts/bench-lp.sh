#!/usr/bin/env bash
# Side-by-side timing of label propagation: the peer script lp.py (numpy/scipy)
# against gssl's labelprop package (go test -bench Peer), on the Planetoid
# splits of Cora and PubMed, with the same graph, split, a and tolerance.
#
#   scripts/bench-lp.sh [ROUNDS]        (default 3 rounds; ~1 min per round)
#
# Each round runs lp.py on both data sets, then the Go benchmark, each under
# flock /tmp/gssl-bench.lock (one benchmark on the machine at a time), peer and
# Go interleaved; the summary gives medians over rounds and the ratio
# Go seconds / peer seconds (below 1: Go faster). Both sides use 2 threads.
# Raw output goes to out/bench-lp/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SHARED=${SHARED:-../shared}
[ -d "$SHARED/data/pubmed" ] || SHARED=../../shared   # a worktree under wt/
PEER="$SHARED/bench/peers/lp.py"
OUT=out/bench-lp
mkdir -p "$OUT"
rm -f "$OUT"/peer.jsonl "$OUT"/go.txt
go test -c -o "$OUT/labelprop.test" ./labelprop
for r in $(seq "$ROUNDS"); do
  echo "round $r/$ROUNDS" >&2
  for ds in cora pubmed; do
    flock /tmp/gssl-bench.lock env OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 \
      /usr/bin/python3 "$PEER" "$SHARED/data/$ds" >>"$OUT/peer.jsonl" 2>>"$OUT/peer.err"
  done
  (cd labelprop && flock /tmp/gssl-bench.lock env GOMAXPROCS=2 "../$OUT/labelprop.test" \
      -test.run '^$' -test.bench Peer -test.benchtime 10x) >>"$OUT/go.txt"
done
/usr/bin/python3 - "$OUT/peer.jsonl" "$OUT/go.txt" <<'PY'
import json, re, statistics, sys
peer, go = {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["metric"] not in ("test_accuracy", "seconds_per_spmv") or r["task"].endswith("selected"):
        continue
    p, ds = r["params"], r["dataset"]
    if r["task"] == "lp-zhou":
        key = (ds, "spreading-cg" if r["peer"] == "scipy-cg" else "spreading-fixed-point", p["alpha"])
    elif r["task"] == "lp-harmonic":
        key = (ds, "harmonic", None)
    elif r["task"] == "spmv":
        key = (ds, "spmv-7cols", None)
        r["seconds"] = r["value"]
    else:
        continue
    it = p.get("iterations")
    it = max(it) if isinstance(it, list) else it
    peer.setdefault(key, []).append((r["seconds"], r["value"], it))
pat = re.compile(r"BenchmarkPeer/(\w+)/([\w-]+)(?:/(a=[\d.]+|[\w-]+))?-\d+\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) iterations\s+([\d.]+) test_accuracy)?")
for line in open(sys.argv[2]):
    m = pat.match(line)
    if not m:
        continue
    ds, task, sub, ns, it, acc = m.groups()
    alpha = float(sub[2:]) if sub and sub.startswith("a=") else None
    key = (ds, task, alpha) if alpha is not None else (ds, task, None)
    if task == "harmonic":
        key = (ds, "harmonic/" + sub, None)
    go.setdefault(key, []).append((float(ns) * 1e-9, float(acc) if acc else None, float(it) if it else None))
med = lambda xs: statistics.median(xs)
print(f"{'data':7} {'task':24} {'a':>5} {'peer s':>9} {'go s':>9} {'go/peer':>7} {'peer it':>7} {'go it':>6} {'peer acc':>8} {'go acc':>7}")
for key in sorted(go, key=lambda k: (k[0], k[1], k[2] or 0)):
    ds, task, a = key
    pk = (ds, "harmonic", None) if task.startswith("harmonic") else key
    g = go[key]
    gs, gacc, git = med([x[0] for x in g]), g[-1][1], g[-1][2]
    if pk in peer:
        p = peer[pk]
        ps, pacc, pit = med([x[0] for x in p]), p[-1][1], p[-1][2]
        ratio = f"{gs / ps:7.2f}"
    else:
        ps = pacc = pit = None
        ratio = "      -"
    f = lambda v, spec: format(v, spec) if v is not None else "-"
    print(f"{ds:7} {task:24} {f(a, '5g'):>5} {f(ps, '9.5f'):>9} {gs:9.5f} {ratio} {f(pit, '7.0f'):>7} {f(git, '6.0f'):>6} {f(pacc if task != 'spmv-7cols' else None, '8.3f'):>8} {f(gacc, '7.3f'):>7}")
print(f"\n{len(next(iter(go.values())))} Go runs and {len(next(iter(peer.values())))} peer runs per line; medians. "
      "spmv-7cols: seconds per product S·X, X n×7.")
PY
