#!/usr/bin/env bash
# Interleaved A/B of the shared solvers (krylov.Chebyshev and block CG
# through labelprop, krylov.Chebyshev through propagate) between a base
# revision and the working tree: the same
# benchmarks (this tree's labelprop/chebbench_test.go and
# propagate/bench_test.go, copied into the base) built from both, then
# ROUNDS rounds, each holding flock /tmp/gssl-bench.lock for one run of each
# side, base first on odd rounds and second on even ones. Prints the median
# wall and CPU time per line and the ratios new/base (below 1: faster).
#
#   scripts/bench-solvers-ab.sh [BASE] [ROUNDS]     (defaults main, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-main}
ROUNDS=${2:-5}
OUT=out/bench-solvers-ab
rm -rf "$OUT" && mkdir -p "$OUT/base"
git archive "$BASE" | tar -x -C "$OUT/base"
cp labelprop/chebbench_test.go "$OUT/base/labelprop/"
cp propagate/bench_test.go "$OUT/base/propagate/"
cp internal/sharedtest/cputime_*.go "$OUT/base/internal/sharedtest/"
for pkg in labelprop propagate; do
  go test -c -o "$OUT/$pkg-new.test" ./$pkg
  (cd "$OUT/base" && go test -c -o "../$pkg-base.test" ./$pkg)
done
side() { # side NAME: one run of each benchmark of side NAME
  (cd labelprop && GOMAXPROCS=2 "../$OUT/labelprop-$1.test" -test.run '^$' \
    -test.bench '^BenchmarkPeer$/^(cora|pubmed)$/^(spreading-(cheb|cg)(-solve)?|harmonic)$/^(a=0.9|plain-cg|jacobi-cg)$|^BenchmarkChebyshevFit$' \
    -test.benchtime 5x) | awk -v s="$1" '/^Benchmark/ {c = "NA"; for (i = 4; i <= NF; i++) if ($i == "cpu-s/op") c = $(i-1); print s, $1, $3, c}' >>"$OUT/raw.txt"
  GOMAXPROCS=2 "$OUT/propagate-$1.test" -test.run '^$' -test.bench '^BenchmarkPPR$' -test.benchtime 3x \
    | awk -v s="$1" '/^Benchmark/ {c = "NA"; for (i = 4; i <= NF; i++) if ($i == "cpu-s/op") c = $(i-1); print s, $1, $3, c}' >>"$OUT/raw.txt"
}
export -f side
export OUT
for r in $(seq "$ROUNDS"); do
  order="base new"; [ $((r % 2)) -eq 0 ] && order="new base"
  for s in $order; do flock /tmp/gssl-bench.lock bash -c "side $s"; done
done
python3 - "$OUT/raw.txt" "$BASE" "$ROUNDS" <<'PY'
import statistics, sys
raw, base, rounds = sys.argv[1:]
t = {}
for line in open(raw):
    side, name, ns, cpu = line.split()
    t.setdefault(name, {}).setdefault(side, []).append((float(ns), None if cpu == "NA" else float(cpu)))
print(f"medians of {rounds} interleaved rounds: {base} (base) vs working tree (new); wall ms/op, CPU ms/op where reported")
print(f"{'benchmark':64} {'base wall':>9} {'new wall':>9} {'new/base':>8} {'base cpu':>9} {'new cpu':>9} {'new/base':>8}")
for name, v in t.items():
    bw, nw = (statistics.median(x[0] for x in v[k]) / 1e6 for k in ("base", "new"))
    row = f"{name:64} {bw:9.2f} {nw:9.2f} {nw/bw:8.3f}"
    if v["base"][0][1] is not None:
        bc, nc = (statistics.median(x[1] for x in v[k]) * 1e3 for k in ("base", "new"))
        row += f" {bc:9.2f} {nc:9.2f} {nc/bc:8.3f}"
    print(row)
PY
