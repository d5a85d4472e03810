#!/bin/sh
# Draws one example figure per command that has --plot into docs/figures/examples/
# (the pictures docs/plots.md shows): the embedded Cora, and the shared data sets
# mnist and MUTAG when they are there (SHARED=/path/to/shared).
#
#   scripts/plot-examples.sh
set -eu
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
out=docs/figures/examples
mkdir -p "$out"
bin=$(mktemp -d)/gssl
go build -o "$bin" ./cmd/gssl
"$bin" labelprop --plot "$out/labelprop.png" > /dev/null
"$bin" eigs --eigenpairs 90 --plot "$out/eigs.png" > /dev/null
"$bin" stkr --plot "$out/stkr.png" > /dev/null
"$bin" cluster --lcc --plot "$out/cluster.png" > /dev/null
"$bin" embed --lcc --plot "$out/embed.png" > /dev/null
"$bin" gp --synthetic 300 --plot "$out/gp.png" > /dev/null
if [ -d "$SHARED/data/mnist" ]; then
	"$bin" knn --images "$SHARED/data/mnist" --n 5000 --neighbors 10 --compare --compare-iterations 1,2,3,4,6,8 --plot "$out/knn.png" > /dev/null
	"$bin" falkon --images "$SHARED/data/mnist" --train-images 3000 --test-images 1000 --m 50,100,200,400,800,1600 --plot "$out/falkon.png" > /dev/null
else
	echo "SKIP knn, falkon: $SHARED/data/mnist is absent"
fi
if [ -d "$SHARED/data/MUTAG" ]; then
	"$bin" graphkernel --data "$SHARED/data/MUTAG" --select-h --seeds 1 --heights 0,1,2,3,4,5 --plot "$out/graphkernel.png" > /dev/null
else
	echo "SKIP graphkernel: $SHARED/data/MUTAG is absent"
fi
go run scripts/pngpalette.go "$out"/*.png
ls -l "$out"
