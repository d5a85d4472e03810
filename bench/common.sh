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
# split_of DIR: the split file of a shared node-classification data set (Planetoid's, else split_0).
split_of() {
	if [ -f "$1/split_planetoid.txt" ]; then echo "$1/split_planetoid.txt"; else echo "$1/split_0.txt"; fi
}
# gssl_row AREA DATASET WHO JSONFILE: one JSON line in the format of bench/peers.py from a gssl --json output.
gssl_row() {
	"$PEERPY" -c 'import json,sys
o=json.load(open(sys.argv[4]))
print(json.dumps(dict(area=sys.argv[1], dataset=sys.argv[2], peer=sys.argv[3], gssl=True, seconds=o.get("fit_seconds", o.get("seconds")),
  total_seconds=o.get("seconds"), test_accuracy=o.get("test_accuracy"), test_auc=o.get("test_auc"), model=o.get("model"), val_accuracy=o.get("val_accuracy"))))' "$@"
}
