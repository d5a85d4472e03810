#!/usr/bin/env bash
# Interleaved A/B of the PubMed spreading solves against lp.py's spread_cg at
# one a: each round holds flock /tmp/gssl-bench.lock and runs, back to back,
# lp.py's spread_cg + argmax (REPS times, wall and CPU medians, S and Y built
# before the timer as in lp.py) and the Go solve-only lines of BenchmarkPeer
# (block CG, Chebyshev on two goroutines, Chebyshev on one); medians over
# rounds. Both sides use 2 threads.
#
#   scripts/bench-lp-ab.sh [A] [ROUNDS] [DATASET]   (defaults 0.9, 8, pubmed)
set -euo pipefail
cd "$(dirname "$0")/.."
A=${1:-0.9}
ROUNDS=${2:-8}
DS=${3:-pubmed}
SHARED=${SHARED:-../shared}
[ -d "$SHARED/data/pubmed" ] || SHARED=../../shared   # a worktree under wt/
SHARED=$(cd "$SHARED" && pwd)
OUT=out/bench-lp-ab
mkdir -p "$OUT"
go test -c -o "$OUT/labelprop.test" ./labelprop
RAW="$OUT/raw-$DS-$A.txt"
: >"$RAW"
for r in $(seq "$ROUNDS"); do
  flock /tmp/gssl-bench.lock bash -c "
    uptime >&2
    OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3 - '$SHARED' '$DS' '$A' <<'PY' >>'$RAW'
import statistics, sys, time
shared, ds, a = sys.argv[1], sys.argv[2], float(sys.argv[3])
sys.path.insert(0, shared + '/bench/peers')
import lp
from common import load_graph, load_labels, load_split, sym_normalise
data = shared + '/data/' + ds
labels = load_labels(data); W = load_graph(data, n=len(labels)); split = load_split(data)
S, _, _ = sym_normalise(W)
Y = lp.one_hot_train(labels, split['train'], int(labels.max()) + 1)
wall, cpu = [], []
for _ in range(10):
    c0, w0 = time.process_time(), time.perf_counter()
    F, it = lp.spread_cg(S, Y, a)
    F.argmax(axis=1)
    wall.append(time.perf_counter() - w0); cpu.append(time.process_time() - c0)
print('peer', statistics.median(wall), statistics.median(cpu), max(it))
PY
    cd labelprop && GOMAXPROCS=2 ../$OUT/labelprop.test -test.run '^\$' \
      -test.bench '^BenchmarkPeer\$/^$DS\$/^(spreading-cg-solve|spreading-cheb-solve|spreading-cheb-solve-serial)\$/^a=$A\$' \
      -test.benchtime 10x | awk '/^Benchmark/ {split(\$1, p, \"/\"); print p[3], \$3 * 1e-9, \$5, \$7}' >>'../$RAW'
  "
done
/usr/bin/python3 - "$RAW" "$DS" "$A" "$ROUNDS" <<'PY'
import statistics, sys
raw, ds, a, rounds = sys.argv[1:]
rows = {}
for line in open(raw):
    name, wall, cpu, it = line.split()
    rows.setdefault(name, []).append((float(wall), float(cpu), float(it)))
peer = statistics.median(w for w, _, _ in rows["peer"])
peer_cpu = statistics.median(c for _, c, _ in rows["peer"])
print(f"{ds} a={a}: medians of {rounds} interleaved rounds (lp.py: 10 solves per round; Go: 10 per line)")
print(f"{'line':28} {'wall s':>8} {'/lp.py':>6} {'cpu s':>8} {'/lp.py':>6} {'iter':>4}")
for name in ["peer", "spreading-cg-solve", "spreading-cheb-solve", "spreading-cheb-solve-serial"]:
    w = statistics.median(x[0] for x in rows[name]); c = statistics.median(x[1] for x in rows[name])
    print(f"{name:28} {w:8.5f} {w / peer:6.2f} {c:8.5f} {c / peer_cpu:6.2f} {rows[name][-1][2]:4.0f}")
PY
