# Sourced by the bench/*.sh scripts: the gssl binary of this checkout, the peer venv, the lock, the threads.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-$(d=$(pwd); while [ ! -d "$d/shared/data" ] && [ "$d" != / ]; do d=$(dirname "$d"); done; echo "$d/shared")}
DATA=${DATA:-$SHARED/data}
LOCK=/tmp/gssl-bench.lock
PEERPY=${PEERPY:-.venv-peers/bin/python}
[ -x "$PEERPY" ] || { echo "no peer environment: run bench/peers-env.sh first" >&2; exit 1; }
export GOMAXPROCS=2 OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 PEER_THREADS=2
BENCHTMP=$(mktemp -d)
trap 'rm -rf "$BENCHTMP"' EXIT
GSSL=$BENCHTMP/gssl
go build -o "$GSSL" ./cmd/gssl
# split_of DIR: the split file of a shared node-classification data set: Planetoid's, else split_0; a set with
# neither (Amazon Photo, the Coauthor graphs) gets the protocol of Shchur et al. 2018, 20 training and 30 validation
# nodes per class and the rest test, as gssl's --split per-class:20,30 --seed 0 draws it, written out as a split
# file for the peers (from the split column of classify --out; the training nodes are the ones it leaves out).
split_of() {
	if [ -f "$1/split_planetoid.txt" ]; then echo "$1/split_planetoid.txt"; return; fi
	if [ -f "$1/split_0.txt" ]; then echo "$1/split_0.txt"; return; fi
	local out
	out="$BENCHTMP/$(basename "$1")-per-class-20-30-seed-0.txt"
	if [ ! -f "$out" ]; then
		"$GSSL" classify --data "$1" --split per-class:20,30 --seed 0 --classifier sgc --out "$out.csv" --json > "$out.json"
		"$PEERPY" -c 'import csv,json,sys
n=json.load(open(sys.argv[2]))["nodes"]
part={int(r["id"]): r["split"] for r in csv.DictReader(open(sys.argv[1]))}
for i in range(n):
    print(part.get(i, "train"), i)' "$out.csv" "$out.json" > "$out"
	fi
	echo "$out"
}
# gssl_row AREA DATASET WHO JSONFILE: one JSON line in the format of bench/peers.py from a gssl --json output.
gssl_row() {
	"$PEERPY" -c 'import json,sys
o=json.load(open(sys.argv[4]))
print(json.dumps(dict(area=sys.argv[1], dataset=sys.argv[2], peer=sys.argv[3], gssl=True, seconds=o.get("fit_seconds", o.get("seconds")),
  total_seconds=o.get("seconds"), test_accuracy=o.get("test_accuracy"), test_auc=o.get("test_auc"), model=o.get("model"), val_accuracy=o.get("val_accuracy"))))' "$@"
}
