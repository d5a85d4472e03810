#!/usr/bin/env bash
# Sparse products W·X on PubMed (19 717 nodes, 88 648 stored entries, 0/1
# weights), X with 1, 3 and 7 columns: scipy CSR (scripts/spmv-scipy.py,
# graph loaded as the peers load it) against graph.CSR's MulVecTo/MulBlockTo
# (go test -bench MulVec ./graph, which also times a copy of the bytes a
# product must touch), on 2 and on 1 thread (GOMAXPROCS). Each under the
# shared benchmark lock, interleaved. On AVX2 CPUs the products run from the
# SELL-4-σ copy (graph/sell.go); go test -bench Sliced ./graph compares its
# kernels with the CSR ones in one binary.
#
#   scripts/bench-spmv.sh [ROUNDS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
SHARED=$(cd "${SHARED:-../shared}" && pwd)
go test -c -o /tmp/gssl-graph.test ./graph
for r in $(seq "$ROUNDS"); do
  flock /tmp/gssl-bench.lock env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 \
    scripts/spmv-scipy.py "$SHARED" "$SHARED/data/pubmed" 2000 1
  (cd graph && flock /tmp/gssl-bench.lock env GOMAXPROCS=2 /tmp/gssl-graph.test -test.run '^$' \
    -test.bench 'MulVec' -test.benchtime 2000x) | grep -E '^Benchmark'
  (cd graph && flock /tmp/gssl-bench.lock env GOMAXPROCS=1 /tmp/gssl-graph.test -test.run '^$' \
    -test.bench 'MulVec/.*/product' -test.benchtime 2000x) | grep -E '^Benchmark' | sed 's/^/1-thread /'
done
