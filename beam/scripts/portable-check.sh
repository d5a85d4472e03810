#!/usr/bin/env bash
# gssl-beam outside its own process: Beam's portable job service (the one in
# the apache-beam Python package, pinned in portable-requirements.lock)
# started as a separate process on loopback, the pipelines submitted to it
# with the Go SDK's universal runner, the SDK workers in LOOPBACK (served by
# the submitting process) or PROCESS mode.
#
#   beam/scripts/portable-check.sh EDGES LABELS
#
# It makes the virtual environment once under $GSSL_BEAM_VENV (default
# $HOME/.cache/gssl/beam-venv), starts the job service on $GSSL_BEAM_PORT
# (default 8099), then
#   1. runs the beam module's tests that compare with labelprop at the same K
#      (Cora, PubMed when shared/data has it, the run split into jobs,
#      propagate) and TestSpreadFiles on EDGES and LABELS, all submitted to
#      the service (GSSL_BEAM_ENDPOINT);
#   2. runs `gssl-beam labelprop` on EDGES and LABELS once through the
#      service and once on Prism, and requires the same bytes;
# stops the service and exits non-zero on any failure or difference, or
# when the service or a worker is still running afterwards.
#
# Why not Flink or Spark: the registry serves no Beam job server or runner
# module for them (beam/README.md, "Flink and Spark here"); this job
# service speaks the same job API, so the same submission reaches a Flink or
# Spark job server unchanged.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 EDGES LABELS" >&2; exit 2; }
edges=$(realpath "$1") labels=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
beam_dir=$(dirname "$here")
venv=${GSSL_BEAM_VENV:-$HOME/.cache/gssl/beam-venv}
port=${GSSL_BEAM_PORT:-8099}
work=$(mktemp -d)
svc=""

stop() {
	if [ -n "$svc" ] && kill -0 "$svc" 2>/dev/null; then
		kill "$svc"
		for _ in $(seq 50); do kill -0 "$svc" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$svc" 2>/dev/null && kill -KILL "$svc"
	fi
	svc=""
}
trap 'stop; rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/python" ] || ! cmp -s "$here/portable-requirements.lock" "$venv/requirements.lock"; then
	echo "portable-check: making $venv from portable-requirements.lock" >&2
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --no-deps -r "$here/portable-requirements.lock"
	cp "$here/portable-requirements.lock" "$venv/requirements.lock"
fi

if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "portable-check: port $port is in use; set GSSL_BEAM_PORT" >&2
	exit 1
fi
"$venv/bin/python" -m apache_beam.runners.portability.local_job_service_main --port "$port" > "$work/service.log" 2>&1 &
svc=$!
for _ in $(seq 150); do
	grep -q "Listening for beam jobs" "$work/service.log" && break
	kill -0 "$svc" 2>/dev/null || { cat "$work/service.log" >&2; echo "portable-check: the job service did not start" >&2; exit 1; }
	sleep 0.2
done
echo "portable-check: job service pid $svc on localhost:$port" >&2

fail=0
(cd "$beam_dir" && GSSL_BEAM_ENDPOINT="localhost:$port" GSSL_BEAM_EDGES="$edges" GSSL_BEAM_LABELS="$labels" \
	go test ./pipeline/ -count=1 -timeout 30m -run 'TestSpreadCora|TestSpreadPubMed|TestSpreadFiles|TestJobsCora|TestPropagate' -v 2>&1 |
	grep -E "^(--- |ok|FAIL|panic)") || fail=1

(cd "$beam_dir" && go build -o "$work/gssl-beam" ./cmd/gssl-beam)
"$work/gssl-beam" labelprop --edges "$edges" --labels "$labels" --out "$work/service.csv" \
	--runner universal --endpoint "localhost:$port" --environment_type LOOPBACK 2> "$work/service.err" || { tail -20 "$work/service.err" >&2; fail=1; }
"$work/gssl-beam" labelprop --edges "$edges" --labels "$labels" --out "$work/prism.csv" --runner prism 2> "$work/prism.err" || { tail -20 "$work/prism.err" >&2; fail=1; }
if cmp -s "$work/service.csv" "$work/prism.csv"; then
	echo "portable-check: gssl-beam labelprop through the job service wrote the same $(($(wc -l < "$work/prism.csv") - 1)) rows as on Prism"
else
	echo "portable-check: the job service's predictions differ from Prism's" >&2
	fail=1
fi

jobs_done=$(grep -c "Completed job" "$work/service.log" || true)
stop
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	echo "portable-check: something still listens on port $port" >&2
	fail=1
fi
echo "portable-check: the job service ran $jobs_done jobs and is stopped"
if [ $fail = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
