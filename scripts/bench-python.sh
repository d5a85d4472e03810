#!/usr/bin/env bash
# The Python package's overheads (issue #30), each timed under the bench lock:
#  * predict_proba on 1000 new nodes of Cora from Python against the same
#    Predict in Go (capi's BenchmarkPredictNew), ROUNDS interleaved rounds;
#  * Ctrl-C latency during a long fit (python/bench/cancel.py).
# Needs .venv with gssl installed (scripts/pyenv.sh).
#   bash scripts/bench-python.sh       # ROUNDS=5 by default
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
py=.venv/bin/python
go test -c -o /tmp/gssl-capi.test ./capi
for r in $(seq "$rounds"); do
	flock /tmp/gssl-bench.lock /tmp/gssl-capi.test -test.run '^$' -test.bench BenchmarkPredictNew -test.benchtime 2000x | grep BenchmarkPredictNew
	flock /tmp/gssl-bench.lock "$py" python/bench/overhead.py
done
flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 50000
flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 200000
