#!/usr/bin/env bash
# Side-by-side FALKON benchmark: gssl falkon against ../shared/bench/peers/krr.py
# (sklearn Nystroem+Ridge, numpy Nyström direct, numpy FALKON) on the same data,
# the same centres (written by krr.py), the same σ, λ, M and 10 CG iterations.
# Runs are interleaved (peer, Go, peer, Go, …) under the shared benchmark lock;
# every line of both sides is appended as JSON to $OUT.
#
#   scripts/bench-falkon.sh [REPS] [OUT]        (default 3 repetitions, bench-falkon.jsonl)
#   FASHION=1 scripts/bench-falkon.sh           also Fashion-MNIST (60k/10k) at M=1000 and 5000, both sides
#   FASHION=1 FASHION_M10K=1 …                  also Fashion-MNIST at M=10000 (long: many minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-3}
OUT=${2:-bench-falkon.jsonl}
SHARED=$(cd "${SHARED:-../shared}" && pwd)  # SHARED=/path/to/shared to override
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# krr.py writes the centre indices under <its folder>/../splits: run a copy so
# that nothing is written into shared/.
cp -r "$SHARED/bench/peers" "$WORK/peers"
go build -o "$WORK/gssl" ./cmd/gssl
PY="env OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 /usr/bin/python3"
LOCK="flock /tmp/gssl-bench.lock"

go_run() { # dataset M centres-file precision
  $LOCK env GOMAXPROCS=2 "$WORK/gssl" falkon --json --images "$SHARED/data/$1" --m "$2" --sigma 15 \
    --ridge 1e-8 --max-iter 10 --centres "$3" --precision "$4" | sed "s/^{/{\"peer\":\"gssl-go\",\"dataset\":\"$1\",/" >> "$OUT"
}

for rep in $(seq "$REPS"); do
  echo "rep $rep: mnist" >&2
  $LOCK $PY "$WORK/peers/krr.py" mnist "$SHARED/data/mnist" --M 1000 >> "$OUT"
  C="$WORK/splits/mnist/nystrom_centres_M1000_seed0.txt"
  go_run mnist 1000 "$C" float32
  go_run mnist 1000 "$C" float64
done

if [[ "${FASHION:-0}" == 1 ]]; then
  for M in 1000 5000 ${FASHION_M10K:+10000}; do
    echo "fashion_mnist M=$M" >&2
    $LOCK $PY "$WORK/peers/krr.py" mnist "$SHARED/data/fashion_mnist" --M "$M" >> "$OUT"
    go_run fashion_mnist "$M" "$WORK/splits/fashion_mnist/nystrom_centres_M${M}_seed0.txt" float32
  done
fi
echo "results in $OUT" >&2
