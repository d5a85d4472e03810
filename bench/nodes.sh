#!/usr/bin/env bash
# Node classification side by side: gssl labelprop against scikit-learn LabelSpreading and PyG
# LabelPropagation; gssl classify (sgc, appnp, auto) against PyG's GCNConv, SGConv, APPNP and CorrectAndSmooth.
# Same files, same split (Planetoid's for Cora, split_0 for the heterophilous sets), interleaved rounds, each
# run holding the benchmark lock on its own.
#
#   bench/nodes.sh [ROUNDS] [DATASET...]     (default 3 rounds; cora chameleon_filtered squirrel_filtered actor)
#
# Environment: MODELS, the gssl classify models (default "sgc appnp auto"), and sgc1: ONE SGC model (K = 2, the L2
# of sgc1_l2) by gssl fit --split, the counterpart of one SGConv run; PEERS, the PyG models (default all: gcn sgc
# appnp cs); LP=0 leaves out label spreading; BEFORE=BINARY also times another gssl build (e.g. main's) the same
# way, interleaved, in rows "gssl(before) classify --classifier M" (not sgc1, which main's gssl fit cannot run);
# PEER_TIMEOUT=S stops a peer run after S seconds (it then leaves no row, and the load log says "timeout"), to keep
# each hold of the lock short.
#
# Output: bench/out/nodes.jsonl (one line per run), then the table (bench/table.py); each gssl classify report
# as bench/out/nodes-DATASET-MODEL-ROUND.json; the load average around each run in bench/out/nodes-load.txt.
source "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
shift || true
SETS=${*:-cora chameleon_filtered squirrel_filtered actor}
ALPHA=${ALPHA:-0.9}
MODELS=${MODELS:-sgc appnp auto}
PEERS=${PEERS:-all}
LP=${LP:-1}
BEFORE=${BEFORE:-}
PEERRUN=()
[ -n "${PEER_TIMEOUT:-}" ] && PEERRUN=(timeout "$PEER_TIMEOUT")
mkdir -p bench/out
OUT=${OUT:-bench/out/nodes.jsonl}
: > "$OUT"
LOADLOG=${OUT%.jsonl}-load.txt
: > "$LOADLOG"
# locked CMD...: CMD under the benchmark lock; the 1-minute load average when the lock is taken and when CMD ends
# goes to $LOADLOG.
locked() {
	flock "$LOCK" bash -c 'l0=$(cut -d" " -f1 /proc/loadavg); "$@"; rc=$?; a=""; for x in "$@"; do a+=" ${x##*/}"; done
[ $rc = 124 ] && a+=" (timeout)"
echo "$(date -u +%T) load $l0 -> $(cut -d" " -f1 /proc/loadavg):$a" >> "'"$LOADLOG"'"; [ $rc = 124 ] && rc=0; exit $rc' _ "$@"
}
# sgc1_l2 DATASET: the L2 of the sgc1 model: the penalty that classify --classifier sgc's selection scores best
# among its K = 2 candidates on the split nodes.sh uses (Planetoid's for Cora, split_0), DefaultL2 elsewhere.
sgc1_l2() {
	case $1 in
	cora) echo 0.001 ;;
	squirrel_filtered) echo 0.001 ;;
	actor) echo 0.001 ;;
	*) echo 0.001 ;;
	esac
}
# gssl_fit_row DATASET DIR SPLIT: one sgc1 run (gssl fit: the fit and the prediction of every node, loading excluded
# as the peers exclude it; total_seconds with it).
gssl_fit_row() {
	local l2
	l2=$(sgc1_l2 "$1")
	locked "$GSSL" fit --kind nodeclass.SGC --set K=2 --set L2="$l2" --data "$2" --split "$3" --json > "$BENCHTMP/g.json"
	gssl_row gnn "$1" "gssl fit nodeclass.SGC (K=2, L2=$l2)" "$BENCHTMP/g.json" >> "$OUT"
}
for r in $(seq "$ROUNDS"); do
	for ds in $SETS; do
		d=$DATA/$ds
		s=$(split_of "$d")
		echo "round $r $ds" >&2
		if [ "$LP" != 0 ]; then
			locked "$GSSL" labelprop --data "$d" --split "$s" --alpha "$ALPHA" --json > "$BENCHTMP/g.json"
			gssl_row lp "$ds" "gssl labelprop (fit)" "$BENCHTMP/g.json" >> "$OUT"
			locked "$PEERPY" bench/peers.py lp "$d" "$s" "$ALPHA" >> "$OUT"
		fi
		for m in $MODELS; do
			if [ "$m" = sgc1 ]; then
				gssl_fit_row "$ds" "$d" "$s"
				continue
			fi
			locked "$GSSL" classify --data "$d" --split "$s" --classifier "$m" --json > "$BENCHTMP/g.json"
			gssl_row gnn "$ds" "gssl classify --classifier $m" "$BENCHTMP/g.json" >> "$OUT"
			cp "$BENCHTMP/g.json" "bench/out/nodes-$ds-$m-$r.json" # the whole report (ROC AUC, the model chosen)
			if [ -n "$BEFORE" ]; then
				locked "$BEFORE" classify --data "$d" --split "$s" --classifier "$m" --json > "$BENCHTMP/g.json"
				gssl_row gnn "$ds" "gssl(before) classify --classifier $m" "$BENCHTMP/g.json" >> "$OUT"
			fi
		done
		if [ "$PEERS" = all ]; then
			locked "${PEERRUN[@]}" "$PEERPY" bench/peers.py gnn "$d" "$s" >> "$OUT"
		else
			for p in $PEERS; do
				locked "${PEERRUN[@]}" "$PEERPY" bench/peers.py gnn "$d" "$s" "$p" >> "$OUT"
			done
		fi
	done
done
"$PEERPY" bench/table.py "$OUT"
