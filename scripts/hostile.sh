#!/usr/bin/env bash
# hostile.sh replays the hostile inputs of issue #16 (and more of the same
# kinds) against the gssl binary: files whose numbers ask for far more memory
# than their size, empty and truncated files, values out of range, runs that
# would not end. Each case runs under `ulimit -v 4000000` (4 GB of address
# space) and `timeout 10`, and must end in a clear error: a non-zero exit, a
# message on stderr and no Go stack trace ("panic:", "goroutine ",
# "fatal error:"). A few cases are valid input that must give the right
# answer (exit 0 and a check on the output), or valid input that may be
# refused but must not crash ("bounded").
#
# Cases marked `# needs cmd` depend on the command-line side of #16 (flag
# checks, output ids, split folders, NaN in JSON, atomic outputs); the
# library side is covered by the rest.
#
# Usage: scripts/hostile.sh            (from anywhere in the repository)
#        GSSL_DATA=/path/to/data scripts/hostile.sh
# It prints one line per case (PASS, FAIL or SKIP and its name), then
# "N passed, M failed", and exits 1 if any case failed.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
data=${GSSL_DATA:-$root/../shared/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! (cd "$root" && go build -o "$tmp/gssl" ./cmd/gssl); then
	echo "hostile.sh: go build ./cmd/gssl failed" >&2
	exit 2
fi
gssl=$tmp/gssl

passed=0
failed=0

# limited CMD... runs CMD under the memory and time limits, stdout to
# $out, stderr to $err, and sets rc.
limited() {
	out=$tmp/out.txt err=$tmp/err.txt
	(
		ulimit -v 4000000
		exec timeout 10 "$@"
	) >"$out" 2>"$err" </dev/null
	rc=$?
}

# crashed says whether stderr holds a Go stack trace or the run was killed.
crashed() {
	[ "$rc" -ge 124 ] || grep -qE '^(panic:|goroutine |fatal error:)|^goroutine [0-9]+ ' "$err"
}

report() { # report NAME OK [why]
	if [ "$2" = 0 ]; then
		echo "PASS $1"
		passed=$((passed + 1))
	else
		echo "FAIL $1${3:+ ($3)}"
		failed=$((failed + 1))
		if [ -s "$err" ]; then head -c 400 "$err" | sed 's/^/    /'; echo; fi
	fi
}

# expect_error NAME CMD...: must fail cleanly with a message.
expect_error() {
	local name=$1
	shift
	limited "$@"
	if crashed; then
		report "$name" 1 "exit $rc, crashed or timed out"
	elif [ "$rc" = 0 ]; then
		report "$name" 1 "exit 0"
	elif [ ! -s "$err" ]; then
		report "$name" 1 "no message on stderr"
	else
		report "$name" 0
	fi
}

# expect_ok NAME CHECK CMD...: must succeed, and the shell snippet CHECK
# (run with $out, $err and $dir) must hold.
expect_ok() {
	local name=$1 check=$2
	shift 2
	limited "$@"
	if crashed; then
		report "$name" 1 "exit $rc, crashed or timed out"
	elif [ "$rc" != 0 ]; then
		report "$name" 1 "exit $rc"
	elif ! eval "$check"; then
		report "$name" 1 "wrong output: $check"
	else
		report "$name" 0
	fi
}

# expect_bounded NAME CMD...: may succeed or fail, but not crash, and a
# failure must say why.
expect_bounded() {
	local name=$1
	shift
	limited "$@"
	if crashed; then
		report "$name" 1 "exit $rc, crashed or timed out"
	elif [ "$rc" != 0 ] && [ ! -s "$err" ]; then
		report "$name" 1 "exit $rc without a message"
	else
		report "$name" 0
	fi
}

skip() { echo "SKIP $1 (${2})"; }

# file NAME CONTENT: writes CONTENT (printf format) to $tmp/NAME, echoes the path.
file() {
	mkdir -p "$(dirname "$tmp/$1")"
	printf "$2" >"$tmp/$1"
	echo "$tmp/$1"
}

# json_field FIELD: the number after "FIELD": in $out.
json_field() { grep -o "\"$1\": *[-0-9.e]*" "$out" | head -1 | sed 's/.*: *//'; }

# ---------------------------------------------------------------------------
# Edge lists and Matrix Market files (gssl info).

expect_error "info: edge ids 0 2000000000" "$gssl" info "$(file e1.txt '0 2000000000\n')"
expect_error "info: edge ids 0 100000000" "$gssl" info "$(file e2.txt '0 100000000\n')"
expect_error "info: edge id 99999999999 beyond int32" "$gssl" info "$(file e3.txt '0 99999999999\n')"
expect_error "info: mm size line 2000000000 2000000000 1" "$gssl" info "$(file m1.mtx '%%%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n')"
expect_error "info: mm 2000000000 declared entries" "$gssl" info "$(file m2.mtx '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2000000000\n1 2\n2 1\n')"
expect_error "info: mm 0 0 0" "$gssl" info "$(file m3.mtx '%%%%MatrixMarket matrix coordinate real general\n0 0 0\n')"
expect_error "info: mm 3 3 0 (no entries)" "$gssl" info "$(file m4.mtx '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 0\n')"
expect_error "info: mm index beyond the size line" "$gssl" info "$(file m5.mtx '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n')"
expect_error "info: mm not square" "$gssl" info "$(file m6.mtx '%%%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 1\n')"
expect_error "info: mm weight 1e-400" "$gssl" info "$(file m7.mtx '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 1e-400\n')"
expect_error "info: mm weight nan" "$gssl" info "$(file m8.mtx '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 nan\n')"
expect_error "info: mm negative size" "$gssl" info "$(file m9.mtx '%%%%MatrixMarket matrix coordinate real general\n-3 -3 1\n1 1 1\n')"
expect_error "info: mm array format" "$gssl" info "$(file m10.mtx '%%%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n')"
expect_error "info: comments-only edge list" "$gssl" info "$(file e4.txt '# nothing\n%% here\n\n')"
expect_error "info: empty edge list" "$gssl" info "$(file e5.txt '')"
expect_error "info: weight 1e-400" "$gssl" info "$(file e6.txt '0 1 1e-400\n1 2 1\n')"
expect_error "info: weight 1e400" "$gssl" info "$(file e7.txt '0 1 1e400\n')"
expect_error "info: weight nan" "$gssl" info "$(file e8.txt '0 1 nan\n')"
expect_error "info: negative weight" "$gssl" info "$(file e9.txt '0 1 -2\n')"
expect_error "info: negative id" "$gssl" info "$(file e10.txt '0 -1\n')"
expect_error "info: mixed field counts" "$gssl" info "$(file e11.txt '0 1\n1 2 3\n')"
expect_error "info: one-field line" "$gssl" info "$(file e12.txt '0 1\n7\n')"
head -c 3000 /dev/urandom >"$tmp/e13.txt"
expect_error "info: binary garbage" "$gssl" info "$tmp/e13.txt"
printf '\037\213garbage' >"$tmp/e14.txt"
expect_error "info: gzip magic then garbage" "$gssl" info "$tmp/e14.txt"
seq 0 20000 | awk '{print $1, $1+1}' | gzip -c | head -c 2000 >"$tmp/e15.txt.gz"
expect_error "info: truncated gzip edge list" "$gssl" info "$tmp/e15.txt.gz"
if grep -q truncated "$err"; then report "info: truncated gzip named as truncated" 0; else report "info: truncated gzip named as truncated" 1 "message does not say truncated"; fi
awk 'BEGIN { for (i = 0; i < 1000; i++) print 2*i, 2*i+1; print 0, 3000000 }' >"$tmp/e16.txt"
expect_error "info: 1000 edges and one id 3000000" "$gssl" info "$tmp/e16.txt"
# Zero weights: node 2's only edge weighs 0, so it is isolated and its own
# component (3 components: {0,1}, {2}, {3,4}).
expect_ok "info: zero-weight edge isolates, components agree" '[ "$(json_field isolated)" = 1 ] && [ "$(json_field components)" = 3 ]' \
	"$gssl" info --json "$(file e17.txt '0 1 1\n1 2 0\n3 4 1\n')"
expect_ok "info: self loops counted in an edge list" '[ "$(json_field self_loops)" = 1 ]' \
	"$gssl" info --json "$(file e18.txt '0 1\n1 1\n1 2\n')" # needs cmd
expect_error "info: missing file" "$gssl" info "$tmp/no-such-file.txt"
expect_error "info: general mm not symmetric" "$gssl" info "$(file m11.mtx '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n')"
if grep -q 'graph\.Options' "$err"; then report "info: message names a flag, not graph.Options" 1 "names graph.Options"; else report "info: message names a flag, not graph.Options" 0; fi # needs cmd

# ---------------------------------------------------------------------------
# Node-classification folders.

# nodedir NAME: a copy of a tiny valid folder in $tmp/NAME (echoes the path);
# edit its files afterwards.
nodedir() {
	local d=$tmp/$1
	mkdir -p "$d"
	printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n0 3\n' >"$d/edges.txt"
	printf '0\n1\n0\n1\n0\n1\n' >"$d/labels.txt"
	printf 'train 0\ntrain 1\nval 2\nval 3\ntest 4\ntest 5\n' >"$d/split_planetoid.txt"
	echo "$d"
}

d=$(nodedir n1)
printf '0\n2147483647\n0\n2147483647\n0\n2147483647\n' >"$d/labels.txt"
expect_bounded "labelprop: label 2147483647" "$gssl" labelprop --data "$d"
expect_ok "info: label 2147483647 is one class" '[ "$(json_field classes)" = 2 ]' "$gssl" info --json "$d"
d=$(nodedir n2)
printf '0\n1\n\n0\n1\n0\n1\n' >"$d/labels.txt"
expect_error "labelprop: blank line inside labels.txt" "$gssl" labelprop --data "$d"
d=$(nodedir n3)
printf '0\n1\n-5\n1\n0\n1\n' >"$d/labels.txt"
expect_error "labelprop: label -5" "$gssl" labelprop --data "$d"
d=$(nodedir n4)
printf '# 2000000000 5\n0:1\n' | gzip -c >"$d/features.txt.gz"
expect_error "info: features header 2000000000 rows" "$gssl" info "$d"
d=$(nodedir n5)
printf 'train 0\ntrain 2000000000\n' >"$d/split_planetoid.txt"
expect_error "labelprop: split node 2000000000" "$gssl" labelprop --data "$d"
d=$(nodedir n6)
printf '0 1\n1 7\n' >"$d/edges.txt"
expect_error "labelprop: edge beyond the labelled nodes" "$gssl" labelprop --data "$d"
d=$(nodedir n7)
printf '# only a comment\n' >"$d/edges.txt"
expect_error "labelprop: comments-only edges.txt" "$gssl" labelprop --data "$d"
d=$(nodedir n8)
rm "$d/split_planetoid.txt"
printf '0\n1\n0\n1\n-1\n1\n' >"$d/labels.txt"
printf 'train 0\ntrain 1\nval 2\nval 3\ntest 4\ntest 5\n' >"$tmp/split-unlabelled.txt"
expect_error "labelprop: split file lists an unlabelled test node" "$gssl" labelprop --data "$d" --split "$tmp/split-unlabelled.txt" # needs cmd
d=$(nodedir n9)
printf 'train 0\ntrain 1\nval 2\nval 3\n' >"$tmp/split-notest.txt"
expect_bounded "labelprop --json: split without test nodes" "$gssl" labelprop --data "$d" --split "$tmp/split-notest.txt" --json # needs cmd
if grep -q NaN "$err"; then report "labelprop --json: no NaN error" 1 "json NaN"; else report "labelprop --json: no NaN error" 0; fi # needs cmd

if [ -d "$data/cora" ]; then
	expect_error "labelprop: --alpha 0.9999999999999999" "$gssl" labelprop --data "$data/cora" --alpha 0.9999999999999999
	expect_error "labelprop: --alpha 1" "$gssl" labelprop --data "$data/cora" --alpha 1
	expect_error "labelprop: --alpha nan" "$gssl" labelprop --data "$data/cora" --alpha nan
	expect_error "eigs: --k 1000 on cora" "$gssl" eigs --data "$data/cora" --k 1000
	expect_error "eigs: --k -1" "$gssl" eigs --data "$data/cora" --k -1
	expect_error "eigs: --k 100000" "$gssl" eigs --data "$data/cora" --k 100000
	expect_error "stkr: --splits names a missing folder" "$gssl" stkr --data "$data/cora" --splits "$tmp/no-such-splits" --seeds 1 # needs cmd
	expect_error "embed: --plot with an unknown extension" "$gssl" embed --data "$data/cora" --plot "$tmp/x.bogus" # needs cmd
	if [ -e "$tmp/x.bogus" ]; then report "embed: no file left by a failed --plot" 1 "x.bogus exists"; else report "embed: no file left by a failed --plot" 0; fi # needs cmd
else
	skip "cora cases" "$data/cora absent"
fi

# Isolated nodes: by default each is its own component (eigenvalue 0).
expect_ok "eigs: isolated node by default" 'grep -q . "$out"' "$gssl" eigs --data "$(file iso.txt '0 1\n1 2\n2 0\n4 5\n5 6\n6 4\n')" --k 3 # needs cmd
# embed --out writes the graph's ids: the largest component is {2, 3, 4, 5}.
expect_ok "embed: --out rows carry the graph's ids" \
	'[ "$(tail -n +2 "$tmp/emb.csv" | cut -d, -f1 | sort -n | tr "\n" " ")" = "2 3 4 5 " ]' \
	"$gssl" embed --data "$(file emb.txt '0 1\n2 3\n3 4\n4 5\n5 2\n2 4\n')" --dim 1 --out "$tmp/emb.csv" # needs cmd
expect_error "embed: --labels with a blank line inside" "$gssl" embed --data "$tmp/emb.txt" --labels "$(file emb-labels.txt '0\n1\n\n0\n1\n0\n1\n')" --dim 1 # needs cmd

# ---------------------------------------------------------------------------
# TU graph classification (gssl graphkernel).

tudir() { # tudir NAME: a copy of a tiny valid TU folder
	local d=$tmp/$1
	mkdir -p "$d"
	printf '1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n5, 6\n6, 5\n' >"$d/T_A.txt"
	printf '1\n1\n1\n2\n2\n2\n' >"$d/T_graph_indicator.txt"
	printf '1\n-1\n' >"$d/T_graph_labels.txt"
	echo "$d"
}
d=$(tudir t1)
awk 'BEGIN { printf "0"; for (j = 1; j < 1000000; j++) printf ",0"; print ""; for (i = 1; i < 6; i++) print 1 }' >"$d/T_node_attributes.txt"
expect_error "graphkernel: node attributes with 10^6 fields on line 1" "$gssl" graphkernel --data "$d" --repeats 0
d=$(tudir t2)
printf '1\n1\n1\n2\n2\n2000000000\n' >"$d/T_graph_indicator.txt"
expect_error "graphkernel: graph id 2000000000" "$gssl" graphkernel --data "$d" --repeats 0
d=$(tudir t3)
printf '1, 2\n2, 2000000000\n' >"$d/T_A.txt"
expect_error "graphkernel: node id 2000000000 in A" "$gssl" graphkernel --data "$d" --repeats 0
d=$(tudir t4)
printf '1\n1\n1\n' >"$d/T_edge_labels.txt"
expect_error "graphkernel: edge labels shorter than A" "$gssl" graphkernel --data "$d" --repeats 0
if [ -d "$data/MUTAG" ]; then
	awk 'BEGIN { for (i = 0; i < 188; i++) printf "%d ", (i == 5 ? 1000000000 : i % 10); print "" }' >"$tmp/folds-huge.txt"
	expect_error "graphkernel: fold id 10^9" "$gssl" graphkernel --data "$data/MUTAG" --folds "$tmp/folds-huge.txt" --repeats 1
	awk 'BEGIN { for (i = 0; i < 188; i++) printf "%d ", (i % 2 ? 0 : 5); print "" }' >"$tmp/folds-gap.txt"
	expect_error "graphkernel: folds 0 and 5 only (empty folds)" "$gssl" graphkernel --data "$data/MUTAG" --folds "$tmp/folds-gap.txt" --repeats 1
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "%d ", i % 10; print "" }' >"$tmp/folds-short.txt"
	expect_error "graphkernel: folds line too short" "$gssl" graphkernel --data "$data/MUTAG" --folds "$tmp/folds-short.txt" --repeats 1
else
	skip "MUTAG cases" "$data/MUTAG absent"
fi

# ---------------------------------------------------------------------------
# Images (knn, labelprop/stkr --images, falkon).

imgdir() { # imgdir NAME: 10 images of 64 pixels and their labels
	local d=$tmp/$1
	mkdir -p "$d"
	head -c 640 /dev/urandom | gzip -c >"$d/images_u8.bin.gz"
	seq 0 9 | awk '{print $1 % 2}' >"$d/labels.txt"
	seq 0 9 | awk '{print ($1 < 6 ? "train" : "test")}' >"$d/origin.txt"
	echo "$d"
}
d=$(imgdir i1)
: | gzip -c >"$d/images_u8.bin.gz"
expect_error "knn: empty images_u8.bin.gz (gzip)" "$gssl" knn --images "$d" --k 2
expect_error "labelprop --images: empty images_u8.bin.gz" "$gssl" labelprop --images "$d" --k 2
expect_error "stkr --images: empty images_u8.bin.gz" "$gssl" stkr --images "$d" --k 2 --seeds 1
d=$(imgdir i2)
: >"$d/images_u8.bin.gz"
expect_error "knn: zero-byte images_u8.bin.gz" "$gssl" knn --images "$d" --k 2
d=$(imgdir i3)
seq 0 19 | awk '{print $1 % 2}' >"$d/labels.txt" # doubled: 20 labels for 10 images of 64 pixels
expect_error "knn: doubled labels.txt does not make 32-pixel images" "$gssl" knn --images "$d" --k 2 # needs cmd
d=$(imgdir i4)
{ head -c 384 /dev/urandom | gzip -c; head -c 256 /dev/urandom | gzip -c; } >"$d/images_u8.bin.gz"
expect_ok "knn: multi-member gzip gives dim 64" '[ "$(json_field dim)" = 64 ]' "$gssl" knn --images "$d" --k 2 --json --recall-sample 0 # needs cmd
d=$(imgdir i5)
head -c 650 /dev/urandom >"$tmp/i5.bin"
expect_error "knn: size not a multiple of --pixels" "$gssl" knn --images "$tmp/i5.bin" --pixels 64 --k 2
expect_error "knn: --pixels -1" "$gssl" knn --images "$d" --pixels -1 --k 2
d=$(imgdir i6)
printf '0\n2147483647\n0\n1\n0\n1\n0\n1\n0\n1\n' >"$d/labels.txt"
expect_bounded "falkon: label 2147483647" "$gssl" falkon --data "$d" --m 4
expect_bounded "labelprop --images: label 2147483647" "$gssl" labelprop --images "$d" --k 2
expect_error "falkon: --train -1" "$gssl" falkon --data "$(imgdir i7)" --m 4 --train -1 # needs cmd
expect_error "falkon: --test -5" "$gssl" falkon --data "$tmp/i7" --m 4 --test -5 # needs cmd

# ---------------------------------------------------------------------------
# Dense paths and settings.

expect_error "svm: --n 40000 (a 12.8 GB Gram matrix)" "$gssl" svm --n 40000 # needs cmd
expect_error "svm: --n -5" "$gssl" svm --n -5
expect_error "svm: --C 0" "$gssl" svm --C 0
expect_error "imgp: --synthetic -5" "$gssl" imgp --synthetic -5 # needs cmd
expect_error "imgp: --iterations -1" "$gssl" imgp --synthetic 200 --k 10 --eigenpairs 20 --iterations -1 # needs cmd
expect_bounded "gssl --json alone" "$gssl" --json # needs cmd
if [ "$rc" = 0 ] && grep -qi usage "$out"; then report "gssl --json alone is not help" 1 "prints help"; else report "gssl --json alone is not help" 0; fi # needs cmd

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
