#!/usr/bin/env bash
# Reruns the numbers of BENCHMARKS.md, section "imgp: log marginal likelihood":
# the value of the GMRF log marginal likelihood that `gssl imgp` reports at the fitted
# hyperparameters, on srmnist at 10 % (1001 labels) and 1 % (100 labels) labelled,
#   - by the exact determinant lemma (--likelihood-exact-labels above n),
#   - by stochastic Lanczos quadrature with 30 probes × 50 steps (the default), 30 × 100 and 300 × 50,
# and its cost against the fit (seconds_likelihood / seconds_fit). There is no Python peer for this
# quantity (scikit-learn's GP is the Euclidean model); each line is one fit, under
# flock /tmp/gssl-bench.lock. Output: JSON lines in $OUT (default /tmp/imgp-likelihood-bench),
# then a table. About 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${SHARED:-$ROOT/../shared}
OUT=${OUT:-/tmp/imgp-likelihood-bench}
LOCK="flock /tmp/gssl-bench.lock"
mkdir -p "$OUT"
go build -o "$OUT/gssl" ./cmd/gssl
GSSL="env GOMAXPROCS=2 $OUT/gssl"
DATA=$SHARED/data/srmnist
: > "$OUT/runs.jsonl"
run() { # label, subset, flags...
  local label=$1 subset=$2
  shift 2
  $LOCK $GSSL imgp --images "$DATA" --subset "$DATA/$subset" --json "$@" |
    /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); d["run"]=sys.argv[1]; print(json.dumps(d))' "$label" >> "$OUT/runs.jsonl"
}
for pct in 10 1; do
  S=train_subset${pct}_seed0.txt
  run "${pct}% exact" "$S" --likelihood-exact-labels 100000
  run "${pct}% SLQ 30x50" "$S" --likelihood-exact-labels -1
  run "${pct}% SLQ 30x100" "$S" --likelihood-exact-labels -1 --likelihood-steps 100
  run "${pct}% SLQ 300x50" "$S" --likelihood-exact-labels -1 --likelihood-probes 300
done
/usr/bin/python3 - "$OUT/runs.jsonl" <<'PY'
import json, sys
print("| run | log p(y) | std. error | likelihood s | fit s | ratio |")
print("|---|---:|---:|---:|---:|---:|")
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(f"| {d['run']} | {d['log_marginal_likelihood']:.2f} | {d['log_marginal_likelihood_stderr']:.2f} | "
          f"{d['seconds_likelihood']:.2f} | {d['seconds_fit']:.1f} | {d['seconds_likelihood']/d['seconds_fit']:.3f} |")
PY
