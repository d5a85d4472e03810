# Endless streams (standard input, a pipe, a FIFO) given as inputs: the
# copy gssl makes of a stream is capped by --max-memory where it is given,
# and is read before the command starts, so that an endless stream ends in
# an error naming the cap at once, not after 256 MiB of temporary disk.
# Every command with --max-memory, not only the node commands' loaders.

# bash -c "$c28_endless" _ GSSL ARGS…: yes 1,2 | GSSL ARGS… --max-memory 1MB
c28_endless='yes 1,2 | "$@" --max-memory 1MB'
expect_error_msg "core28: knn --features - (endless) stops at --max-memory 1MB" 'knn: --features: standard input is a stream .* of more than 1048576 bytes.*--max-memory' \
	bash -c "$c28_endless" _ "$gssl" knn --features - --out "$tmp/c28-knn.csv"
expect_error_msg "core28: gp --features - (endless) stops at --max-memory 1MB" 'standard input is a stream .* of more than 1048576 bytes' \
	bash -c "$c28_endless" _ "$gssl" gp --features - --targets "$root/testdata/cora/labels.txt"
expect_error_msg "core28: svm --features - (endless) stops at --max-memory 1MB" 'standard input is a stream .* of more than 1048576 bytes' \
	bash -c "$c28_endless" _ "$gssl" svm --features - --labels "$root/testdata/cora/labels.txt"
expect_error_msg "core28: imgp --features - (endless) stops at --max-memory 1MB" 'standard input is a stream .* of more than 1048576 bytes' \
	bash -c "$c28_endless" _ "$gssl" imgp --features - --targets "$root/testdata/cora/labels.txt"
expect_error_msg "core28: knn --features FIFO (endless, mkfifo) stops at --max-memory 2MB" 'c28.fifo is a stream .* of more than 2097152 bytes' \
	bash -c 'f=$3/c28.fifo; rm -f "$f"; mkfifo "$f" && { timeout 9 yes 1,2 >"$f" 2>/dev/null & } && "$1" knn --features "$f" --out "$2" --max-memory 2MB' _ "$gssl" "$tmp/c28-knn.csv" "$tmp"
# The copy of the refused stream is gone: nothing is left in TMPDIR.
mkdir -p "$tmp/c28-tmp"
expect_error_msg "core28: a refused stream leaves nothing in TMPDIR" 'of more than 1048576 bytes' \
	bash -c 'yes 1,2 | TMPDIR=$3 "$1" knn --features - --out "$2" --max-memory 1MB; rc=$?; [ -z "$(ls -A "$3")" ] || { echo "left in TMPDIR: $(ls "$3")" >&2; exit 0; }; exit $rc' _ "$gssl" "$tmp/c28-knn.csv" "$tmp/c28-tmp"
