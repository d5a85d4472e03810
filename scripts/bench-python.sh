#!/usr/bin/env bash
# The Python package's overheads (issue #30), each timed under the bench lock:
#  * predict_proba on 1000 new nodes of Cora from Python against the same
#    Predict in Go (capi's BenchmarkPredictNew), ROUNDS interleaved rounds
#    (Go, then Python) under one hold of the lock; the
#    summary gives each round's Python/Go ratio of means and of medians and
#    the median of each over the rounds;
#  * Ctrl-C latency during a long fit (python/bench/cancel.py; CANCEL=0
#    leaves it out).
# Needs .venv with gssl installed (scripts/pyenv.sh).
#   bash scripts/bench-python.sh       # ROUNDS=5 by default
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-5}
py=.venv/bin/python
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/capi.test" ./capi
log=$bin/rounds.txt
# One hold of the lock for all the rounds (about 10 s a round), so that no
# other timed run comes between the two sides of a round.
export bin py log rounds
flock /tmp/gssl-bench.lock bash -c '
	for r in $(seq "$rounds"); do
		"$bin/capi.test" -test.run "^\$" -test.bench BenchmarkPredictNew -test.benchtime 2000x | grep BenchmarkPredictNew | tee -a "$log"
		"$py" python/bench/overhead.py | tee -a "$log"
	done'
"$py" - "$log" <<'PYEOF'
import re, statistics, sys
keys = ("ns/op", "median-ns/op", "cpu-median-ns/op")
go, py = [], []
for line in open(sys.argv[1]):
    v = [float(re.search(r"([\d.]+) " + re.escape(k), line).group(1)) for k in keys]
    (go if line.startswith("Benchmark") else py).append(v)
ratios = [[p[k] / g[k] for k in range(3)] for g, p in zip(go, py)]
for i, (g, p) in enumerate(zip(go, py)):
    print(f"round {i + 1}: Go {g[0] / 1e3:.0f} µs mean, {g[1] / 1e3:.0f} µs median, {g[2] / 1e3:.0f} µs CPU median; "
          f"Python {p[0] / 1e3:.0f} / {p[1] / 1e3:.0f} / {p[2] / 1e3:.0f} µs; "
          f"ratio {ratios[i][0]:.3f} (means), {ratios[i][1]:.3f} (medians), {ratios[i][2]:.3f} (CPU medians)")
med = [statistics.median(r[k] for r in ratios) for k in range(3)]
print(f"Python/Go, median over {len(go)} rounds: {med[0]:.3f} (means), {med[1]:.3f} (medians), "
      f"{med[2]:.3f} (CPU medians); target ≤ 1.2")
PYEOF
if [ "${CANCEL:-1}" != 0 ]; then
	flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 50000
	flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 200000
fi
