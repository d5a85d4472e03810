#!/usr/bin/env bash
# Graph kernels, eigenpairs and KNN graphs side by side: gssl graphkernel (WL Gram matrix, h = 5, normalised)
# against GraKeL's WeisfeilerLehman; gssl eigs (10 smallest eigenpairs of L_sym) against SciPy eigsh
# (shift-invert) and lobpcg; gssl knn (exact and NN-descent, k = 10) against FAISS flat and HNSW, hnswlib,
# pynndescent and scikit-learn. Interleaved rounds, each run holding the benchmark lock on its own.
#
#   bench/graphs.sh [ROUNDS] [AREA...]      (default 3 rounds; areas wl eigs knn)
#
# Output: bench/out/graphs.jsonl, then the table (bench/table.py).
source "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
shift || true
AREAS=${*:-wl eigs knn}
mkdir -p bench/out
OUT=${OUT:-bench/out/graphs.jsonl}
: > "$OUT"
for r in $(seq "$ROUNDS"); do
	for area in $AREAS; do
		echo "round $r $area" >&2
		case $area in
		wl)
			for ds in MUTAG ENZYMES; do
				flock "$LOCK" "$GSSL" graphkernel --data "$DATA/$ds" --kernel wl --h 5 --select-h=false --seeds 0 --gram-out "$BENCHTMP/gram.txt" --json > "$BENCHTMP/g.json"
				"$PEERPY" -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps(dict(area="wl", dataset=sys.argv[2], peer="gssl graphkernel --kernel wl --h 5", gssl=True, seconds=o["gram_seconds"])))' "$BENCHTMP/g.json" "$ds" >> "$OUT"
				flock "$LOCK" "$PEERPY" bench/peers.py wl "$DATA/$ds" 5 "$BENCHTMP/gram.txt" >> "$OUT"
			done
			;;
		eigs)
			for ds in pubmed coauthor_cs; do
				flock "$LOCK" "$GSSL" eigs --data "$DATA/$ds" --eigenpairs 10 --json > "$BENCHTMP/g.json"
				"$PEERPY" -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps(dict(area="eigs", dataset=sys.argv[2], peer="gssl eigs --eigenpairs 10", gssl=True, seconds=o.get("eigs_seconds", o.get("seconds")), max_residual=o.get("max_residual"))))' "$BENCHTMP/g.json" "$ds" >> "$OUT"
				flock "$LOCK" "$PEERPY" bench/peers.py eigs "$DATA/$ds" 10 >> "$OUT"
			done
			;;
		knn)
			for n in 20000; do
				for approx in false true; do
					flock "$LOCK" "$GSSL" knn --images "$DATA/mnist" --n "$n" --neighbors 10 --approximate=$approx --json > "$BENCHTMP/g.json"
					"$PEERPY" -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps(dict(area="knn", dataset="mnist "+sys.argv[2], peer="gssl knn"+(" --approximate" if sys.argv[3]=="true" else " (exact)"), gssl=True, seconds=o.get("knn_seconds", o.get("seconds")), recall=o.get("recall"))))' "$BENCHTMP/g.json" "$n" "$approx" >> "$OUT"
				done
				flock "$LOCK" "$PEERPY" bench/peers.py knn "$DATA/mnist" "$n" 10 >> "$OUT"
			done
			;;
		esac
	done
done
"$PEERPY" bench/table.py "$OUT"
