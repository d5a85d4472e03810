#!/usr/bin/env bash
# Graph kernels, eigenpairs and KNN graphs side by side: gssl graphkernel (WL Gram matrix, h = 5, normalised)
# against GraKeL's WeisfeilerLehman; gssl eigs (10 smallest eigenpairs of L_sym) against SciPy eigsh
# (shift-invert) and lobpcg; gssl knn (exact and NN-descent, k = 10) against FAISS flat and HNSW, hnswlib,
# pynndescent and scikit-learn; gssl cluster --lcc (spectral clustering, clusters = classes) against
# scikit-learn's SpectralClustering on the same graph (affinity precomputed, largest component), ARI against the
# classes; gssl gp (exact GP, Matern 5/2, --max-iter GP_STEPS) against GPyTorch's ExactGP (Matern 5/2, GP_STEPS
# Adam steps) on srmnist with the same GP_LABELLED labelled training images (default 2000, seeded), RMSE on
# the test images; GP_GSSL_STEPS (default GP_STEPS) lists the --max-iter values of the gssl runs, e.g. "50 3"
# for the same-accuracy point as well. Interleaved rounds, each run holding the benchmark lock on its own.
#
#   bench/graphs.sh [ROUNDS] [AREA...]      (default 3 rounds; areas wl eigs knn cluster gp)
#
# Output: bench/out/graphs.jsonl, the load before and after each area in bench/out/graphs-load.txt, then
# the table (bench/table.py).
source "$(dirname "$0")/common.sh"
ROUNDS=${1:-3}
shift || true
AREAS=${*:-wl eigs knn cluster gp}
GP_LABELLED=${GP_LABELLED:-2000}
GP_STEPS=${GP_STEPS:-50}
GP_GSSL_STEPS=${GP_GSSL_STEPS:-$GP_STEPS}
mkdir -p bench/out
OUT=${OUT:-bench/out/graphs.jsonl}
: > "$OUT"
LOAD=${OUT%.jsonl}-load.txt
: > "$LOAD"
for r in $(seq "$ROUNDS"); do
	for area in $AREAS; do
		echo "round $r $area" >&2
		echo "round $r $area before: $(uptime)" >> "$LOAD"
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
		cluster)
			for ds in cora amazon_photo; do
				flock "$LOCK" "$GSSL" cluster --data "$DATA/$ds" --lcc --json > "$BENCHTMP/g.json"
				"$PEERPY" -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps(dict(area="cluster", dataset=sys.argv[2], peer="gssl cluster --lcc", gssl=True, seconds=o["seconds"], load_seconds=o["load_seconds"], ari=o["ari"], nodes_used=o["nodes_used"], clusters=o["clusters"])))' "$BENCHTMP/g.json" "$ds" >> "$OUT"
				flock "$LOCK" "$PEERPY" bench/peers.py cluster "$DATA/$ds" >> "$OUT"
			done
			;;
		gp)
			for n in $GP_LABELLED; do
				sub=$BENCHTMP/subset$n.txt
				"$PEERPY" -c 'import numpy as np,sys; np.savetxt(sys.argv[2], np.random.default_rng(0).choice(10010, int(sys.argv[1]), replace=False), fmt="%d")' "$n" "$sub"
				for steps in $GP_GSSL_STEPS; do
					flock "$LOCK" "$GSSL" gp --images "$DATA/srmnist" --subset "$sub" --max-iter "$steps" --json > "$BENCHTMP/g.json"
					"$PEERPY" -c 'import json,sys; o=json.load(open(sys.argv[1])); print(json.dumps(dict(area="gp", dataset="srmnist %d labelled" % o["n_labelled"], peer="gssl gp --covariance matern52 --max-iter "+sys.argv[2], gssl=True, seconds=o["seconds"], rmse=o["rmse"], nll=o["nll"], log_marginal_likelihood=o["log_marginal_likelihood"], evaluations=o["evaluations"], length_scale=o["length_scale"], amplitude=o["amplitude"], noise=o["noise"])))' "$BENCHTMP/g.json" "$steps" >> "$OUT"
				done
				flock "$LOCK" "$PEERPY" bench/peers.py gp "$DATA/srmnist" "$sub" "$GP_STEPS" >> "$OUT"
			done
			;;
		*)
			echo "graphs.sh: unknown area $area (wl eigs knn cluster gp)" >&2
			exit 2
			;;
		esac
		echo "round $r $area after:  $(uptime)" >> "$LOAD"
	done
done
"$PEERPY" bench/table.py "$OUT"
