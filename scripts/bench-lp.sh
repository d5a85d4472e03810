#!/usr/bin/env bash
# Side-by-side timing of label propagation: the peer script lp.py (numpy/scipy)
# against gssl's labelprop package (go test -bench Peer), on the Planetoid
# splits of Cora and PubMed, with the same graph, split, a and tolerance.
#
#   scripts/bench-lp.sh [ROUNDS]        (default 3 rounds; ~2 min per round on 2 idle cores)
#
# Each round holds flock /tmp/gssl-bench.lock (one benchmark on the machine at
# a time) and runs, back to back: lp.py on both data sets, scripts/lp-peer-cpu.py
# (CPU time of lp.py's own solver calls), then the Go benchmark. Both sides use
# 2 threads. The summary gives medians over rounds of wall seconds (lp.py's
# "seconds" and Go's ns/op) and CPU seconds, and the ratios Go / peer (below 1:
# Go faster). Raw output goes to out/bench-lp/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SHARED=${SHARED:-../shared}
[ -d "$SHARED/data/pubmed" ] || SHARED=../../shared   # a worktree under wt/
SHARED=$(cd "$SHARED" && pwd)
OUT=out/bench-lp
mkdir -p "$OUT"
rm -f "$OUT"/peer.jsonl "$OUT"/peer-cpu.jsonl "$OUT"/go.txt "$OUT"/peer.err
go test -c -o "$OUT/labelprop.test" ./labelprop
round() {
  for ds in cora pubmed; do
    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 "$SHARED/bench/peers/lp.py" \
      "$SHARED/data/$ds" >>"$OUT/peer.jsonl" 2>>"$OUT/peer.err"
    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 scripts/lp-peer-cpu.py \
      "$SHARED/bench/peers" "$SHARED/data/$ds" 5 >>"$OUT/peer-cpu.jsonl" 2>>"$OUT/peer.err"
  done
  (cd labelprop && GOMAXPROCS=2 "../$OUT/labelprop.test" -test.run '^$' -test.bench Peer \
      -test.benchtime 10x) >>"$OUT/go.txt"
}
export -f round
export OUT SHARED
for r in $(seq "$ROUNDS"); do
  echo "round $r/$ROUNDS: waiting for the lock" >&2
  flock /tmp/gssl-bench.lock bash -c 'uptime >&2; round'
done
/usr/bin/python3 - "$OUT" <<'PY'
import json, re, statistics, sys
out = sys.argv[1]
peer, pcpu, go = {}, {}, {}
for line in open(f"{out}/peer.jsonl"):
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
for line in open(f"{out}/peer-cpu.jsonl"):
    r = json.loads(line)
    pcpu.setdefault((r["dataset"], r["task"], r["alpha"]), []).append(r["cpu_s"])
pat = re.compile(r"BenchmarkPeer/(\w+)/([\w-]+)(?:/(a=[\d.]+|[\w-]+))?-\d+\s+\d+\s+([\d.]+) ns/op(.*)")
for line in open(f"{out}/go.txt"):
    m = pat.match(line)
    if not m:
        continue
    ds, task, sub, ns, rest = m.groups()
    metrics = {k: float(v) for v, k in re.findall(r"([\d.e+-]+) ([\w/-]+)", rest)}
    alpha = float(sub[2:]) if sub and sub.startswith("a=") else None
    key = (ds, "harmonic/" + sub, None) if task == "harmonic" else (ds, task, alpha)
    go.setdefault(key, []).append((float(ns) * 1e-9, metrics.get("test_accuracy"), metrics.get("iterations"), metrics.get("cpu-s/op")))
med = statistics.median
f = lambda v, spec: format(v, spec) if v is not None else "-"
print("wall seconds (lp.py 'seconds' / Go ns/op) and CPU seconds (all threads), medians over rounds")
print(f"{'data':7} {'task':22} {'a':>5} {'peer s':>8} {'go s':>8} {'go/peer':>7} {'peer cpu':>8} {'go cpu':>8} {'go/peer':>7} {'peer it':>7} {'go it':>5} {'peer acc':>8} {'go acc':>6}")
for key in sorted(go, key=lambda k: (k[0], k[1], k[2] or 0)):
    ds, task, a = key
    # spreading-cg-solve times lp.py's block exactly (solve + argmax from the
    # graph in memory); spreading-cg is a whole Fit. All face lp.py's scipy-cg:
    # the -rcm lines renumber the nodes inside the timer, -rcmpre before it.
    # The Chebyshev lines (spreading-cheb...) face lp.py's scipy-cg too: the
    # same system and residual rule; -serial runs its passes on one goroutine.
    pk = (ds, "harmonic", None) if task.startswith("harmonic") else (ds, re.sub(r"(-solve)?(-serial)?(-rcm|-rcmpre)?$", "", task).replace("spreading-cheb", "spreading-cg"), a)
    g = go[key]
    gs, gacc, git = med([x[0] for x in g]), g[-1][1], g[-1][2]
    gc = med([x[3] for x in g]) if g[-1][3] is not None else None
    ps = pacc = pit = pc = None
    if pk in peer:
        p = peer[pk]
        ps, pacc, pit = med([x[0] for x in p]), p[-1][1], p[-1][2]
    if pk in pcpu:
        pc = med(pcpu[pk])
    r1 = f"{gs / ps:7.2f}" if ps else "      -"
    r2 = f"{gc / pc:7.2f}" if pc and gc is not None and task != "spmv-7cols" else "      -"
    if task == "spmv-7cols":
        gc = pacc = None
    print(f"{ds:7} {task:22} {f(a, '5g'):>5} {f(ps, '8.5f'):>8} {gs:8.5f} {r1} {f(pc, '8.5f'):>8} {f(gc, '8.5f'):>8} {r2} {f(pit, '7.0f'):>7} {f(git, '5.0f'):>5} {f(pacc, '8.3f'):>8} {f(gacc, '6.3f'):>6}")
print(f"\n{len(next(iter(go.values())))} Go and {len(next(iter(peer.values())))} peer runs per line. spmv-7cols: seconds per "
      "product S·X with X n×7 (lp.py's 'spmv' line). harmonic: lp.py runs plain CG; Go runs both.\n"
      "spreading-cg: one whole Fit (validation, solve, components, probabilities); spreading-cg-solve: "
      "lp.py's timed block only (solve + argmax).\n"
      "-rcm: nodes renumbered by reverse Cuthill-McKee inside the timer (Ordering: ReverseCuthillMcKee); "
      "-rcmpre: renumbered before the timer, as lp.py builds S before its own; rcm-renumber: the renumbering alone.\n"
      "spreading-cheb: the Chebyshev semi-iteration (Fit, -solve: lp.py's block, -solve-serial: on one goroutine), against lp.py's scipy-cg.")
PY
