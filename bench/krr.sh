#!/usr/bin/env bash
# Nystroem kernel ridge classification side by side: gssl falkon (float32 kernel blocks) against the falkon
# library's falkon.Falkon (float32, as its MNIST example) and scikit-learn's Nystroem + Ridge (float32 and
# float64), on the same images (pixels/255), the same Gaussian kernel (sigma = 15), lambda = 1e-8, the same M
# centres (the ones scikit-learn's Nystroem(random_state=0) draws, given to gssl as --centres and to falkon as
# a FixedSelector) and 10 CG iterations for both FALKONs. The rounds interleave gssl and the peers; HOLD=case
# (default) takes the benchmark lock once per case and round for all its runs (gssl and the peers one after
# the other in the same hold), HOLD=run once per run. Test error, seconds (fit + test prediction from the
# data in memory) and the peak RSS of each process.
#
#   bench/krr.sh [ROUNDS] [CASE...]     (default 3 rounds; cases mnist:1000 fashion_mnist:1000 fashion_mnist:5000)
#
# A CASE is DATASET:M[:PEERS] with PEERS a comma list of gssl, falkon, sklearn32, sklearn64 (default all four;
# SKLEARN64_MAX_M, default 1000, drops sklearn64 above that M: it is the slowest peer and needs 6 GB at
# M = 5000 on Fashion-MNIST). GSSL_RUNS (default "10 20 nystrom") lists the gssl runs: a number is FALKON with
# that many CG iterations (10 is the peers' setting), nystrom the direct solve of the same Nystroem system
# (--solver nystrom), the solution scikit-learn's Ridge computes.
#
# Output: bench/out/krr.jsonl, the load before and after each case in bench/out/krr-load.txt, then the table
# (bench/table.py) and the peak RSS per entry.
source "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
shift || true
CASES=${*:-mnist:1000 fashion_mnist:1000 fashion_mnist:5000}
SKLEARN64_MAX_M=${SKLEARN64_MAX_M:-1000}
GSSL_RUNS=${GSSL_RUNS:-10 20 nystrom}
HOLD=${HOLD:-case}
exec 9>> "$LOCK"
run_lock() { if [ "$HOLD" = run ]; then flock "$LOCK" "$@"; else "$@"; fi; }
mkdir -p bench/out
OUT=${OUT:-bench/out/krr.jsonl}
: > "$OUT"
LOAD=${OUT%.jsonl}-load.txt
: > "$LOAD"
for r in $(seq "$ROUNDS"); do
	for case in $CASES; do
		IFS=: read -r ds m who <<< "$case"
		who=${who:-gssl,falkon,sklearn32,sklearn64}
		if (( m > SKLEARN64_MAX_M )); then who=${who//sklearn64/}; fi
		centres=$BENCHTMP/centres-$ds-$m.txt
		[ -f "$centres" ] || "$PEERPY" bench/peers.py krr-centres "$DATA/$ds" "$m" "$centres"
		echo "round $r $ds M=$m ($who)" >&2
		if [ "$HOLD" != run ]; then flock 9; fi
		echo "round $r $ds M=$m before: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$LOAD"
		for p in ${who//,/ }; do
			case $p in
			gssl)
				for run in $GSSL_RUNS; do
					if [ "$run" = nystrom ]; then solver=(--solver nystrom); else solver=(--max-iter "$run"); fi
					run_lock "$GSSL" falkon --json --images "$DATA/$ds" --centres "$centres" --sigma 15 --ridge 1e-8 \
						"${solver[@]}" --precision float32 > "$BENCHTMP/g.json"
					"$PEERPY" -c 'import json,sys
o=json.load(open(sys.argv[1]))
who = "--solver nystrom (direct)" if sys.argv[3] == "nystrom" else "(%s CG it.)" % sys.argv[3]
print(json.dumps(dict(area="krr", dataset="%s %d/%d M=%d" % (sys.argv[2], o["n_train"], o["n_test"], o["m"]),
  peer="gssl falkon float32 " + who, gssl=True, seconds=o["seconds"], fit_seconds=o["fit_seconds"],
  test_error=o["test_error"], test_accuracy=1-o["test_error"], peak_rss_mb=o["peak_rss_mb"], products=o.get("products"),
  load_seconds=o["load_seconds"])))' "$BENCHTMP/g.json" "$ds" "$run" >> "$OUT"
				done
				;;
			falkon | sklearn32 | sklearn64)
				run_lock "$PEERPY" bench/peers.py krr "$DATA/$ds" "$centres" "$p" >> "$OUT"
				;;
			*)
				echo "krr.sh: unknown peer $p (gssl, falkon, sklearn32, sklearn64)" >&2
				exit 2
				;;
			esac
		done
		echo "round $r $ds M=$m after:  $(cut -d' ' -f1-3 /proc/loadavg)" >> "$LOAD"
		if [ "$HOLD" != run ]; then flock -u 9; fi
	done
done
"$PEERPY" bench/table.py "$OUT"
"$PEERPY" - "$OUT" <<'PY'
import json, statistics, sys
from collections import defaultdict
rss = defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith("{"):
        o = json.loads(line)
        rss[(o["dataset"], o["peer"])].append(o["peak_rss_mb"])
print("\npeak RSS (MB, median over the rounds)\n")
for (ds, who), v in rss.items():
    print(f"| {ds} | {who} | {statistics.median(v):.0f} |")
PY
