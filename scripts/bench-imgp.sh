#!/usr/bin/env bash
# Reruns every IMGP number in BENCHMARKS.md (section "imgp") end to end:
#   1. the Euclidean GP and IMGP at 10 % labelled on srmnist, side by side with scikit-learn
#      (shared/bench/peers/gp.py's model on the same subset), interleaved, REPS times, under
#      flock /tmp/gssl-bench.lock;
#   2. the few-label sweep (0.5 %, 1 %, 2 %, 5 %, 10 %, seeds 0-4) of gssl and scikit-learn on the
#      same numpy-drawn subsets;
#   3. the synthetic closed curve in R^10;
#   4. fit time against N = 2500, 5000, 10000, 20000 (rotations of 5-40 MNIST digits).
# Output: JSON lines in $OUT (default /tmp/imgp-bench). Takes about 2 hours on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${SHARED:-$ROOT/../shared}
OUT=${OUT:-/tmp/imgp-bench}
REPS=${REPS:-3}
# The peer environment of bench/peers-env.sh (scikit-learn from PyPI, as in bench/); PYTHON=… chooses another.
PY="env OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 ${PYTHON:-$ROOT/.venv-peers/bin/python}"
LOCK="flock /tmp/gssl-bench.lock"
mkdir -p "$OUT"
go build -o "$OUT/gssl" ./cmd/gssl
GSSL="env GOMAXPROCS=2 $OUT/gssl"
DATA=$SHARED/data/srmnist

# Inputs: numpy subsets (both sides read them) and the rotation folders.
$PY scripts/imgp_subsets.py "$OUT/subsets"
[ -e "$OUT/rot/N20000/train_angles.txt" ] || $PY scripts/imgp_rotations.py "$SHARED/data/mnist" "$OUT/rot"

# 1. 10 % labelled, side by side (peer, Go, peer, Go, ...).
: > "$OUT/side10.jsonl"
for r in $(seq "$REPS"); do
  $LOCK $PY scripts/imgp_sklearn_gp.py "$DATA" "$DATA/train_subset10_seed0.txt" >> "$OUT/side10.jsonl"
  $LOCK $GSSL imgp --images "$DATA" --subset "$DATA/train_subset10_seed0.txt" --json >> "$OUT/side10.jsonl"
done
$GSSL imgp --images "$DATA" --subset "$DATA/train_subset10_seed0.txt" --plot "$OUT/imgp10.png" > "$OUT/imgp10.txt"

# 2. Few-label sweep (quality numbers; 50 Adam steps at learning rate 0.1 per fit).
$PY scripts/imgp_sklearn_gp.py "$DATA" $(for f in 0.5 1 2 5 10; do for s in 0 1 2 3 4; do echo "$OUT/subsets/train_subset${f}_seed$s.txt"; done; done) > "$OUT/sklearn-sweep.jsonl"
$GSSL imgp sweep --images "$DATA" --subsets "$OUT/subsets" --max-iter 50 --learning-rate 0.1 --plot "$OUT/sweep.png" --json > "$OUT/sweep.json"

# 3. Synthetic curve (2000 nodes, K 10, L 50; test = 500 fresh points of the curve).
$GSSL imgp sweep --synthetic 2000 --neighbors 10 --eigenpairs 50 --max-iter 50 --learning-rate 0.1 --plot "$OUT/curve.png" --json > "$OUT/curve.json"

# 4. Scaling: fit time against N (10 % labelled, NN-descent graph, 20 Adam steps, the
#    Euclidean GP not fitted so that its O(n³) does not hide the graph model's cost), and
#    scikit-learn's exact GP on the same 10 % (numpy subsets of each N).
: > "$OUT/scaling.jsonl"
for n in 2500 5000 10000 20000; do
  $PY scripts/imgp_subsets.py "$OUT/rot/N$n/subsets" "$n"
  for r in $(seq "$REPS"); do
    $LOCK $PY scripts/imgp_sklearn_gp.py "$OUT/rot/N$n" "$OUT/rot/N$n/subsets/train_subset10_seed0.txt" >> "$OUT/scaling.jsonl"
    $LOCK $GSSL imgp --images "$OUT/rot/N$n" --subset "$OUT/rot/N$n/subsets/train_subset10_seed0.txt" \
      --approximate --max-iter 20 --euclidean-fixed --json >> "$OUT/scaling.jsonl"
  done
done
/usr/bin/python3 scripts/imgp_tables.py "$OUT"
echo "results in $OUT"
