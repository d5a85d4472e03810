#!/bin/sh
# A bounded load test of the prediction server on loopback: 20 000 requests
# from 32 clients with a 60 s cap (override with GSSL_LOAD_REQUESTS,
# GSSL_LOAD_CLIENTS, GSSL_LOAD_SECONDS), then the same with a graceful
# shutdown halfway through. It prints throughput and p50/p99 latency and
# fails on any wrong or lost answer. It stops by itself.
#
#   scripts/load-serve.sh            # the test model
#   scripts/load-serve.sh m.gssl     # a saved model (--save); GSSL_LOAD_BODY sets the request
#                                    # (default: one new node joined to the model's example ids)
set -eu
cd "$(dirname "$0")/.."
export GSSL_LOAD_TEST=1
if [ $# -ge 1 ]; then
	export GSSL_LOAD_MODEL="$1"
fi
for shutdown in 0 1; do
	GSSL_LOAD_SHUTDOWN=$shutdown go test -count=1 -run 'TestLoadTest' -v ./serve/ 2>&1 | grep -E 'load:|^--- |^ok|^FAIL|Error'
done
