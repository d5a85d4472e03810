#!/usr/bin/env bash
# The Python package's overheads (issue #30), each timed under the bench lock:
#  * predict_proba on 1000 new nodes of Cora from Python against the same
#    Predict in Go (capi's BenchmarkPredictNew), ROUNDS interleaved rounds
#    (Go, then Python, each under its own short hold of the lock); the
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
for r in $(seq "$rounds"); do
	flock /tmp/gssl-bench.lock "$bin/capi.test" -test.run '^$' -test.bench BenchmarkPredictNew -test.benchtime 2000x | grep BenchmarkPredictNew | tee -a "$log"
	flock /tmp/gssl-bench.lock "$py" python/bench/overhead.py | tee -a "$log"
done
"$py" - "$log" <<'PYEOF'
import re, statistics, sys
go, py = [], []
for line in open(sys.argv[1]):
    mean = float(re.search(r"([\d.]+) ns/op", line).group(1))
    med = float(re.search(r"([\d.]+) median-ns/op", line).group(1))
    (go if line.startswith("Benchmark") else py).append((mean, med))
means = [p[0] / g[0] for g, p in zip(go, py)]
meds = [p[1] / g[1] for g, p in zip(go, py)]
for i, (g, p) in enumerate(zip(go, py)):
    print(f"round {i + 1}: Go {g[0] / 1e3:.0f} µs mean, {g[1] / 1e3:.0f} µs median; Python {p[0] / 1e3:.0f} µs mean, "
          f"{p[1] / 1e3:.0f} µs median; ratio {means[i]:.3f} (means), {meds[i]:.3f} (medians)")
print(f"Python/Go over {len(go)} rounds: median ratio of means {statistics.median(means):.3f}, "
      f"median ratio of medians {statistics.median(meds):.3f} (target ≤ 1.2)")
PYEOF
if [ "${CANCEL:-1}" != 0 ]; then
	flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 50000
	flock /tmp/gssl-bench.lock "$py" python/bench/cancel.py --nodes 200000
fi
