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
# Some inputs that were refused once are valid now and must give the right
# answer: node ids are text as written and the nodes are the ids present
# (package nodeids), so `0 2000000000` is a graph of 2 nodes; a weight
# column may be missing on some lines (networkx's write_edgelist with
# data=["weight"]; a missing weight is 1).
#
# The .npz cases need Python 3 (its zipfile module; ${PYTHON:-/usr/bin/python3})
# and are skipped without it.
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
	last_ok=$2
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

# json_has TEXT: $out holds TEXT (a fixed string such as "test_accuracy":null).
json_has() { grep -qF -- "$1" "$out"; }

# expect_error_msg NAME REGEX CMD...: must fail cleanly, and the message on
# stderr must match the extended regular expression REGEX (the right error,
# not just any error).
expect_error_msg() {
	local name=$1 re=$2
	shift 2
	expect_error "$name" "$@"
	if [ "${last_ok:-1}" = 0 ] && ! grep -qE -- "$re" "$err"; then
		passed=$((passed - 1))
		report "$name: the message says /$re/" 1 "message does not match"
	fi
}

# ---------------------------------------------------------------------------
# Edge lists and Matrix Market files (gssl info).

# Ids are the ids present: a large id is a name, not a node count (a 16 GB
# block once). Two nodes, one edge, a graph of a few bytes.
small_graph='[ "$(json_field nodes)" = 2 ] && [ "$(json_field edges)" = 1 ] && [ "$(json_field graph_bytes)" -lt 100000 ]'
expect_ok "info: edge ids 0 2000000000 are 2 nodes" "$small_graph" "$gssl" info --json "$(file e1.txt '0 2000000000\n')"
expect_ok "info: edge ids 0 100000000 are 2 nodes" "$small_graph" "$gssl" info --json "$(file e2.txt '0 100000000\n')"
expect_ok "info: edge id 99999999999 (beyond int32) is a node" "$small_graph" "$gssl" info --json "$(file e3.txt '0 99999999999\n')"
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
expect_ok "info: id -1 is the text id \"-1\"" '[ "$(json_field nodes)" = 2 ] && json_has "\"ids\":\"text\""' \
	"$gssl" info --json "$(file e10.txt '0 -1\n')"
# 2 and 3 fields mixed: a missing weight is 1, so this is the path 0-1-2
# with weights 1 and 3, whose unnormalised Laplacian has eigenvalues 0 and
# 4 ± √7 (6.6457…; 1 and 3 if the 3 were dropped, or 4.73… if the missing
# weight were 3).
expect_ok "info: mixed 2/3 fields (networkx weight data), missing weight 1" '[ "$(json_field nodes)" = 3 ] && [ "$(json_field edges)" = 2 ]' \
	"$gssl" info --json "$(file e11.txt '0 1\n1 2 3\n')"
expect_ok "eigs: mixed 2/3 fields give the weights 1 and 3" 'grep -qE "\"eigenvalues\":\[[^]]*,6\.6457513" "$out"' \
	"$gssl" eigs --edges "$tmp/e11.txt" --laplacian un --eigenpairs 3 --json
expect_error "info: one-field line" "$gssl" info "$(file e12.txt '0 1\n7\n')"
head -c 3000 /dev/urandom >"$tmp/e13.txt"
expect_error "info: binary garbage" "$gssl" info "$tmp/e13.txt"
printf '\037\213garbage' >"$tmp/e14.txt"
expect_error "info: gzip magic then garbage" "$gssl" info "$tmp/e14.txt"
seq 0 20000 | awk '{print $1, $1+1}' | gzip -c | head -c 2000 >"$tmp/e15.txt.gz"
expect_error "info: truncated gzip edge list" "$gssl" info "$tmp/e15.txt.gz"
if grep -q truncated "$err"; then report "info: truncated gzip named as truncated" 0; else report "info: truncated gzip named as truncated" 1 "message does not say truncated"; fi
awk 'BEGIN { for (i = 0; i < 1000; i++) print 2*i, 2*i+1; print 0, 3000000 }' >"$tmp/e16.txt"
expect_ok "info: 1000 edges and one id 3000000 are 2001 nodes" '[ "$(json_field nodes)" = 2001 ] && [ "$(json_field graph_bytes)" -lt 1000000 ]' \
	"$gssl" info --json "$tmp/e16.txt"
# Zero weights: node 2's only edge weighs 0, so it is isolated and its own
# component (3 components: {0,1}, {2}, {3,4}).
expect_ok "info: zero-weight edge isolates, components agree" '[ "$(json_field isolated)" = 1 ] && [ "$(json_field components)" = 3 ]' \
	"$gssl" info --json "$(file e17.txt '0 1 1\n1 2 0\n3 4 1\n')"
expect_ok "info: self loops counted in an edge list" '[ "$(json_field self_loops)" = 1 ]' \
	"$gssl" info --json "$(file e18.txt '0 1\n1 1\n1 2\n')"
expect_error "info: missing file" "$gssl" info "$tmp/no-such-file.txt"
expect_error "info: general mm not symmetric" "$gssl" info "$(file m11.mtx '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n')"
if grep -q 'graph\.Options' "$err"; then report "info: message names a flag, not graph.Options" 1 "names graph.Options"; else report "info: message names a flag, not graph.Options" 0; fi

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
expect_error "labelprop: split file lists an unlabelled test node" "$gssl" labelprop --data "$d" --split "$tmp/split-unlabelled.txt"
d=$(nodedir n9)
printf 'train 0\ntrain 1\nval 2\nval 3\n' >"$tmp/split-notest.txt"
expect_ok "labelprop --json: split without test nodes gives test_accuracy null and a reason" \
	'json_has "\"test_accuracy\":null" && json_has "\"test_accuracy_reason\":"' \
	"$gssl" labelprop --data "$d" --split "$tmp/split-notest.txt" --json
printf 'train 0\ntrain 1\ntrain 2\ntrain 3\ntest 4\ntest 5\n' >"$tmp/split-noval.txt"
expect_ok "stkr --json: split without val nodes gives val_accuracy_mean null and a reason" \
	'json_has "\"val_accuracy_mean\":null" && json_has "\"val_accuracy_reason\":"' \
	"$gssl" stkr --data "$d" --split "$tmp/split-noval.txt" --json
printf 'old\n' >"$tmp/keep-lp.csv"
expect_error "labelprop: failing run with --out on an existing file" "$gssl" labelprop --data "$tmp/n8" --split "$tmp/split-unlabelled.txt" --out "$tmp/keep-lp.csv"
if [ "$(cat "$tmp/keep-lp.csv")" = old ]; then report "labelprop: the old --out file is intact" 0; else report "labelprop: the old --out file is intact" 1 "keep-lp.csv changed"; fi

# A folder named like a benchmark data set gets no benchmark files: split
# files come from --splits only. Run from the repository, where
# ../shared/bench/splits/cora exists, a tiny graph in a folder named cora
# is trained on its own labels (stkr) or its own split_planetoid.txt.
d=$(nodedir cora)
rm "$d/split_planetoid.txt"
expect_ok "stkr: a folder named cora does not get Cora's splits" \
	'json_has "\"split_source\":\"none" && ! grep -q "bench/splits" "$out" "$err" && [ "$(json_field nodes)" = 6 ]' \
	env -C "$root" "$gssl" stkr --data "$d" --json
expect_error_msg "stkr: --seeds 10 without a split is refused, not given Cora's splits" 'need a split' \
	env -C "$root" "$gssl" stkr --data "$d" --seeds 10
expect_error_msg "labelprop: a folder named cora has no planetoid split of Cora's" 'split_planetoid|planetoid' \
	env -C "$root" "$gssl" labelprop --data "$d" --split planetoid

# Counts from flags: refused or bounded, never a run without end.
d=$(nodedir n10)
expect_error_msg "labelprop: --seeds 10^9" 'seeds 1000000000 is invalid' "$gssl" labelprop --data "$d" --split random:1 --seeds 1000000000
expect_error_msg "stkr: --seeds 10^9" 'seeds 1000000000 is invalid' "$gssl" stkr --data "$d" --split random:1 --seeds 1000000000
expect_error_msg "stkr: --folds 0" 'folds' "$gssl" stkr --data "$d" --folds 0
expect_error_msg "eigs: --eigenpairs 10^9" 'eigenpairs 1000000000 is invalid' "$gssl" eigs --data "$d" --eigenpairs 1000000000
expect_error_msg "embed: --dim 10^9" 'dim 1000000000 is invalid' "$gssl" embed --data "$d" --dim 1000000000
expect_error_msg "cluster: --clusters 10^9" 'clusters 1000000000 is invalid' "$gssl" cluster --data "$d" --clusters 1000000000
expect_error_msg "info: --nodes 2000000000" 'nodes 2000000000 is invalid' "$gssl" info --edges "$d/edges.txt" --nodes 2000000000
expect_error_msg "eigs: --nodes 100000000" 'nodes 100000000 is invalid' "$gssl" eigs --edges "$d/edges.txt" --nodes 100000000
expect_error_msg "convert: --nodes 2000000000" 'nodes 2000000000 is invalid' "$gssl" convert --nodes 2000000000 "$d/edges.txt" "$tmp/big.gsg"
expect_error_msg "generate: sbm --nodes 2000000000" 'memory limit' "$gssl" generate sbm --nodes 2000000000 --out "$tmp/gen-big"
expect_error_msg "generate: sbm --nodes 2000000000 --format gsg" 'memory limit' "$gssl" generate sbm --nodes 2000000000 --format gsg --out "$tmp/gen-big"
expect_error_msg "generate: rmat --scale 30" 'memory limit|scale' "$gssl" generate rmat --scale 30 --out "$tmp/gen-big"
expect_error_msg "generate: sbm --degree 10^9" 'degree 1e\+09 is invalid' "$gssl" generate sbm --nodes 1000 --degree 1e9 --out "$tmp/gen-big"
expect_error_msg "generate: sbm --features 10^9" 'memory limit' "$gssl" generate sbm --nodes 1000 --features 1000000000 --out "$tmp/gen-big"
expect_error_msg "generate: rmat --edge-factor 10^9" 'edge-factor 1000000000 is invalid' "$gssl" generate rmat --scale 10 --edge-factor 1000000000 --out "$tmp/gen-big"
if ls "$tmp"/gen-big* >/dev/null 2>&1; then report "generate: no files left by refused runs" 1 "$(ls "$tmp"/gen-big* | head -1)"; else report "generate: no files left by refused runs" 0; fi
expect_error_msg "cluster: --restarts 10^9" 'restarts 1000000000 is invalid' "$gssl" cluster --data "$d" --clusters 2 --restarts 1000000000
expect_error_msg "stkr: --max-iter 10^9" 'max-iter "1000000000" is invalid' "$gssl" stkr --data "$d" --max-iter 1000000000
expect_error_msg "stkr: --splits names a missing folder" 'not a folder' "$gssl" stkr --data "$d" --splits "$tmp/no-such-splits"
expect_error_msg "labelprop: --tol 1e-300 ends with a clear non-convergence" 'did not converge|tol' "$gssl" labelprop --data "$d" --tol 1e-300
expect_error_msg "eigs: --tol 1e-300" 'tol|Tol' "$gssl" eigs --data "$d" --tol 1e-300 --eigenpairs 2
expect_error_msg "eigs --isolated error names the flag, not IsolatedZero" '--isolated' "$gssl" eigs --edges "$(file iso-err.txt '0 1\n1 2\n2 0\n4 5\n5 6\n6 4\n')" --nodes 8 --isolated error --eigenpairs 2
if grep -qE 'IsolatedZero|graph\.Options|laplacian\.' "$err"; then report "eigs: isolated-node message names no library option" 1 "names a library option"; else report "eigs: isolated-node message names no library option" 0; fi

# Saved models (--save, gssl predict, gssl model info): truncated, a byte
# flipped, garbage; an edge to a node the model does not have.
if "$gssl" labelprop --data "$d" --save "$tmp/m.gssl" >/dev/null 2>&1; then
	printf 'source,target\nnew1,0\nnew1,1\n' >"$tmp/p-edges.csv"
	expect_ok "predict: a new node joined to two fitted nodes" '[ "$(sed -n 2p "$out" | cut -d, -f1)" = new1 ]' "$gssl" predict --model "$tmp/m.gssl" --edges "$tmp/p-edges.csv"
	printf 'source,target\nnew1,0\nnew2,2000000000\n' >"$tmp/p-edges2.csv"
	expect_error_msg "predict: an edge to node 2000000000 the model does not have" 'not a fitted node|fitted node' "$gssl" predict --model "$tmp/m.gssl" --edges "$tmp/p-edges2.csv"
	head -c 100 "$tmp/m.gssl" >"$tmp/m-trunc.gssl"
	expect_error_msg "model info: truncated model file" 'truncated' "$gssl" model info "$tmp/m-trunc.gssl"
	expect_error_msg "predict: truncated model file" 'truncated' "$gssl" predict --model "$tmp/m-trunc.gssl" --edges "$tmp/p-edges.csv"
	for off in 8 20 200; do
		cp "$tmp/m.gssl" "$tmp/m-flip.gssl"
		b=$(od -An -tu1 -j "$off" -N1 "$tmp/m-flip.gssl" | tr -d ' ')
		printf "\\$(printf %03o $((b ^ 255)))" | dd of="$tmp/m-flip.gssl" bs=1 seek="$off" conv=notrunc 2>/dev/null
		expect_error_msg "predict: model file with byte $off flipped" 'damaged|checksum|version|truncated' "$gssl" predict --model "$tmp/m-flip.gssl" --edges "$tmp/p-edges.csv"
	done
	head -c 3000 /dev/urandom >"$tmp/m-garbage.gssl"
	expect_error_msg "model info: random bytes" 'not a gssl model' "$gssl" model info "$tmp/m-garbage.gssl"
else
	report "labelprop --save: a model of a tiny folder" 1 "labelprop --save failed"
fi

# User tables (--edges/--labels/--features).
printf 'source,target\n0,1\n1,2\n' >"$tmp/u-edges.csv"
expect_ok "info: a label 2000000000 in a labels CSV is one class of two" '[ "$(json_field classes)" = 2 ] && json_has "\"2000000000\""' \
	"$gssl" info --json --edges "$tmp/u-edges.csv" --labels "$(file u-labels.csv 'id,label\n0,a\n1,2000000000\n2,a\n')"
# A .npy header declaring 10^12 float64 elements, with 64 bytes after it.
{
	printf '\223NUMPY\001\000\166\000'
	printf '%-117s\n' "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }"
	head -c 64 /dev/zero
} >"$tmp/big.npy"
expect_error_msg "info: .npy header declaring 10^12 elements" 'header declares' "$gssl" info --edges "$tmp/u-edges.csv" --features "$tmp/big.npy"
awk 'BEGIN { printf "id"; for (j = 1; j < 1000000; j++) printf ",f%d", j; print ""; printf "0"; for (j = 1; j < 1000000; j++) printf ",0"; print "" }' >"$tmp/wide1.csv"
expect_error_msg "info: features CSV 10^6 fields wide, one row for 3 nodes" 'row|rows' "$gssl" info --edges "$tmp/u-edges.csv" --features "$tmp/wide1.csv"
awk 'BEGIN { printf "id"; for (j = 1; j < 1000000; j++) printf ",f%d", j; print ""; for (i = 0; i < 3; i++) { printf "%d", i; for (j = 1; j < 1000000; j++) printf ",0"; print "" } }' >"$tmp/wide3.csv"
expect_bounded "info: features CSV 10^6 fields wide, 3 rows" "$gssl" info --edges "$tmp/u-edges.csv" --features "$tmp/wide3.csv"
py=${PYTHON:-/usr/bin/python3}
if [ -x "$py" ]; then
	# mknpz OUT KIND: x.npy of ones((3, 4)) in a zip; KIND shape: its header
	# says (300000, 4000); zipsize: the zip headers say 4 GB.
	mknpz() {
		"$py" - "$1" "$2" <<'PY'
import struct, sys, zipfile
out, kind = sys.argv[1], sys.argv[2]
shape = "(300000, 4000)" if kind == "shape" else "(3, 4)"
h = "{'descr': '<f8', 'fortran_order': False, 'shape': %s, }" % shape
h = h + " " * (117 - len(h)) + "\n"
d = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + struct.pack("<12d", *[1.0] * 12)
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    z.writestr("x.npy", d)
if kind == "zipsize":
    raw = bytearray(open(out, "rb").read())
    for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        i = raw.find(sig)
        raw[i + off:i + off + 4] = struct.pack("<I", 0xFFFFFFF0)
    open(out, "wb").write(bytes(raw))
PY
	}
	mknpz "$tmp/ok.npz" ok && mknpz "$tmp/lie-shape.npz" shape && mknpz "$tmp/lie-zip.npz" zipsize
	expect_ok "info: a valid .npz (3×4)" '[ "$(json_field features)" = 4 ]' "$gssl" info --json --edges "$tmp/u-edges.csv" --features "$tmp/ok.npz"
	expect_error_msg "info: .npz whose member's header says 300000×4000" 'declares' "$gssl" info --edges "$tmp/u-edges.csv" --features "$tmp/lie-shape.npz"
	expect_error_msg "info: .npz whose zip headers say 4 GB" 'declares|damaged|size' "$gssl" info --edges "$tmp/u-edges.csv" --features "$tmp/lie-zip.npz"
else
	skip ".npz cases" "$py absent"
fi

# .gsg graph files: truncated, or a byte flipped (checksums name the damage).
if (cd "$tmp" && "$gssl" generate sbm --nodes 100 --format gsg --out "$tmp/g100" >/dev/null 2>&1); then
	expect_ok "info: a valid .gsg" '[ "$(json_field nodes)" = 100 ]' "$gssl" info --json "$tmp/g100.gsg"
	head -c 500 "$tmp/g100.gsg" >"$tmp/g-trunc.gsg"
	expect_error "info: truncated .gsg" "$gssl" info "$tmp/g-trunc.gsg"
	for off in 12 40 300 3000; do
		cp "$tmp/g100.gsg" "$tmp/g-flip.gsg"
		b=$(od -An -tu1 -j "$off" -N1 "$tmp/g-flip.gsg" | tr -d ' ')
		printf "\\$(printf %03o $((b ^ 255)))" | dd of="$tmp/g-flip.gsg" bs=1 seek="$off" conv=notrunc 2>/dev/null
		expect_error_msg "info: .gsg with byte $off flipped" 'damaged|checksum|version|invalid|do not fit' "$gssl" info "$tmp/g-flip.gsg"
		expect_error "eigs: .gsg with byte $off flipped" "$gssl" eigs --edges "$tmp/g-flip.gsg" --eigenpairs 2
	done
else
	report "generate: a .gsg of 100 nodes" 1 "generate failed"
fi

if [ -d "$data/cora" ]; then
	expect_error "labelprop: --alpha 0.9999999999999999" "$gssl" labelprop --data "$data/cora" --alpha 0.9999999999999999
	expect_error "labelprop: --alpha 1" "$gssl" labelprop --data "$data/cora" --alpha 1
	expect_error "labelprop: --alpha nan" "$gssl" labelprop --data "$data/cora" --alpha nan
	expect_error "eigs: --eigenpairs 1000 on cora" "$gssl" eigs --data "$data/cora" --eigenpairs 1000
	expect_error "eigs: --eigenpairs -1" "$gssl" eigs --data "$data/cora" --eigenpairs -1
	expect_error "eigs: --eigenpairs 100000" "$gssl" eigs --data "$data/cora" --eigenpairs 100000
	expect_error "stkr: --splits names a missing folder" "$gssl" stkr --data "$data/cora" --splits "$tmp/no-such-splits" --seeds 1
	expect_error "embed: --plot with an unknown extension" "$gssl" embed --data "$data/cora" --plot "$tmp/x.bogus"
	if [ -e "$tmp/x.bogus" ]; then report "embed: no file left by a failed --plot" 1 "x.bogus exists"; else report "embed: no file left by a failed --plot" 0; fi
else
	skip "cora cases" "$data/cora absent"
fi

# Isolated nodes: by default each is its own component (eigenvalue 0).
# (--nodes 8 makes 3 and 7 isolated: 4 components, so 4 zero eigenvalues.)
expect_ok "eigs: isolated nodes are components by default (eigenvalue 0)" '[ "$(json_field isolated)" = 2 ] && [ "$(json_field zero_eigenvalues)" = 4 ]' \
	"$gssl" eigs --edges "$(file iso.txt '0 1\n1 2\n2 0\n4 5\n5 6\n6 4\n')" --nodes 8 --eigenpairs 5 --json
# embed --lcc --out writes the graph's ids: the largest component is
# {2, 3, 4, 5}, and only its rows have coordinates (0 and 1 are written
# with empty ones).
expect_ok "embed --lcc: --out rows with coordinates carry the graph's ids" \
	'[ "$(awk -F, '"'"'NR > 1 && $NF != "" { print $1 }'"'"' "$tmp/emb.csv" | sort -n | tr "\n" " ")" = "2 3 4 5 " ] && [ "$(awk -F, '"'"'NR > 1 && $NF == "" { print $1 }'"'"' "$tmp/emb.csv" | sort -n | tr "\n" " ")" = "0 1 " ]' \
	"$gssl" embed --edges "$(file emb.txt '0 1\n2 3\n3 4\n4 5\n5 2\n2 4\n')" --lcc --dim 1 --out "$tmp/emb.csv"
expect_error "embed: --labels with a blank line inside" "$gssl" embed --edges "$tmp/emb.txt" --labels "$(file emb-labels.txt '0\n1\n\n0\n1\n0\n1\n')" --dim 1
expect_error "embed: --plot with an unknown extension" "$gssl" embed --edges "$tmp/emb.txt" --dim 1 --plot "$tmp/y.bogus"
if [ -e "$tmp/y.bogus" ]; then report "embed: no file left by a refused --plot" 1 "y.bogus exists"; else report "embed: no file left by a refused --plot" 0; fi
# An --out file of a run that fails keeps its old content.
printf 'old\n' >"$tmp/keep.csv"
expect_error "embed: failing run with --out on an existing file" "$gssl" embed --edges "$tmp/emb.txt" --dim 10 --out "$tmp/keep.csv"
if [ "$(cat "$tmp/keep.csv")" = old ]; then report "embed: the old --out file is intact" 0; else report "embed: the old --out file is intact" 1 "keep.csv changed"; fi

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
expect_error "graphkernel: node attributes with 10^6 fields on line 1" "$gssl" graphkernel --data "$d" --seeds 0
d=$(tudir t2)
printf '1\n1\n1\n2\n2\n2000000000\n' >"$d/T_graph_indicator.txt"
expect_error "graphkernel: graph id 2000000000" "$gssl" graphkernel --data "$d" --seeds 0
d=$(tudir t3)
printf '1, 2\n2, 2000000000\n' >"$d/T_A.txt"
expect_error "graphkernel: node id 2000000000 in A" "$gssl" graphkernel --data "$d" --seeds 0
d=$(tudir t4)
printf '1\n1\n1\n' >"$d/T_edge_labels.txt"
expect_error "graphkernel: edge labels shorter than A" "$gssl" graphkernel --data "$d" --seeds 0
if [ -d "$data/MUTAG" ]; then
	awk 'BEGIN { for (i = 0; i < 188; i++) printf "%d ", (i == 5 ? 1000000000 : i % 10); print "" }' >"$tmp/folds-huge.txt"
	expect_error_msg "graphkernel: fold id 10^9" 'fold id "1000000000"' "$gssl" graphkernel --data "$data/MUTAG" --fold-file "$tmp/folds-huge.txt" --seeds 1
	awk 'BEGIN { for (i = 0; i < 188; i++) printf "%d ", (i % 2 ? 0 : 5); print "" }' >"$tmp/folds-gap.txt"
	expect_error "graphkernel: folds 0 and 5 only (empty folds)" "$gssl" graphkernel --data "$data/MUTAG" --fold-file "$tmp/folds-gap.txt" --seeds 1
	awk 'BEGIN { for (i = 0; i < 100; i++) printf "%d ", i % 10; print "" }' >"$tmp/folds-short.txt"
	expect_error "graphkernel: folds line too short" "$gssl" graphkernel --data "$data/MUTAG" --fold-file "$tmp/folds-short.txt" --seeds 1
	expect_error_msg "graphkernel: --seeds 10^9" 'seeds 1000000000 is invalid' "$gssl" graphkernel --data "$data/MUTAG" --seeds 1000000000
	expect_error_msg "graphkernel: --folds 0" 'folds 0 is invalid' "$gssl" graphkernel --data "$data/MUTAG" --folds 0
	expect_error_msg "graphkernel: --folds 10^9" 'folds|1000000000' "$gssl" graphkernel --data "$data/MUTAG" --folds 1000000000
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
expect_error "knn: empty images_u8.bin.gz (gzip)" "$gssl" knn --images "$d" --neighbors 2
expect_error "labelprop --images: empty images_u8.bin.gz" "$gssl" labelprop --images "$d" --neighbors 2
expect_error "stkr --images: empty images_u8.bin.gz" "$gssl" stkr --images "$d" --neighbors 2 --seeds 1
d=$(imgdir i2)
: >"$d/images_u8.bin.gz"
expect_error "knn: zero-byte images_u8.bin.gz" "$gssl" knn --images "$d" --neighbors 2
d=$(imgdir i3)
seq 0 19 | awk '{print $1 % 2}' >"$d/labels.txt" # doubled: 20 labels for 10 images of 64 pixels
# 640 bytes and 20 labels read as 20 images of 32 pixels, but origin.txt
# has 10 lines, and --pixels 64 says 10 images: both must be refused, not
# turned into 32-pixel images. Without origin.txt, 20 images of 32 pixels
# is the one consistent reading, and it is stated.
expect_error_msg "knn: doubled labels.txt against origin.txt" 'origin.txt: 10 lines for 20 images' "$gssl" knn --images "$d" --neighbors 2
expect_error_msg "knn: doubled labels.txt with --pixels 64" '20 labels for the 10 images of 64 pixels' "$gssl" knn --images "$d" --neighbors 2 --pixels 64
expect_error_msg "labelprop --images: doubled labels.txt against origin.txt" 'origin.txt: 10 lines for 20 images' "$gssl" labelprop --images "$d" --neighbors 2
expect_error_msg "falkon: doubled labels.txt against origin.txt" 'origin.txt: 10 lines for 20 images' "$gssl" falkon --images "$d" --m 4
rm "$d/origin.txt"
expect_ok "knn: doubled labels.txt without origin.txt: 20 images of 32 pixels, stated" '[ "$(json_field dim)" = 32 ] && [ "$(json_field nodes)" = 20 ]' \
	"$gssl" knn --images "$d" --neighbors 2 --json --recall-sample 0
d=$(imgdir i4)
{ head -c 384 /dev/urandom | gzip -c; head -c 256 /dev/urandom | gzip -c; } >"$d/images_u8.bin.gz"
expect_ok "knn: multi-member gzip gives 10 images of 64 pixels" '[ "$(json_field dim)" = 64 ] && [ "$(json_field nodes)" = 10 ]' "$gssl" knn --images "$d" --neighbors 2 --json --recall-sample 0
expect_error_msg "falkon: --max-iter 10^9" 'max-iter 1000000000 is invalid' "$gssl" falkon --images "$d" --m 4 --max-iter 1000000000
expect_error_msg "falkon: --m 10^9" '1000000000 is invalid' "$gssl" falkon --images "$d" --m 1000000000
expect_ok "falkon: multi-member gzip gives d = 64" '[ "$(json_field d)" = 64 ] && [ "$(json_field n_train)" = 6 ] && [ "$(json_field n_test)" = 4 ]' "$gssl" falkon --images "$d" --m 4 --json
expect_ok "labelprop --images: multi-member gzip gives 10 nodes" '[ "$(json_field nodes)" = 10 ]' "$gssl" labelprop --images "$d" --neighbors 2 --json
expect_error_msg "knn: --neighbors 10^9" 'neighbors 1000000000 is invalid' "$gssl" knn --images "$d" --neighbors 1000000000
expect_error_msg "labelprop --images: --neighbors 10^9" 'neighbors 1000000000 is invalid' "$gssl" labelprop --images "$d" --neighbors 1000000000
d=$(imgdir i5)
head -c 650 /dev/urandom >"$tmp/i5.bin"
expect_error "knn: size not a multiple of --pixels" "$gssl" knn --images "$tmp/i5.bin" --pixels 64 --neighbors 2
expect_error "knn: --pixels -1" "$gssl" knn --images "$d" --pixels -1 --neighbors 2
d=$(imgdir i6)
printf '0\n2147483647\n0\n1\n0\n1\n0\n1\n0\n1\n' >"$d/labels.txt"
expect_bounded "falkon: label 2147483647" "$gssl" falkon --images "$d" --m 4
expect_bounded "labelprop --images: label 2147483647" "$gssl" labelprop --images "$d" --neighbors 2
expect_error "falkon: --train -1" "$gssl" falkon --images "$(imgdir i7)" --m 4 --train -1
expect_error "falkon: --test -5" "$gssl" falkon --images "$tmp/i7" --m 4 --test -5

# ---------------------------------------------------------------------------
# Dense paths and settings.

expect_error "svm: --n 40000 (a 12.8 GB Gram matrix)" "$gssl" svm --n 40000
# 40000 points of your own, two thirds labelled: the dense paths state
# their memory and refuse above --max-memory, naming falkon.
{ echo id,x; seq 1 40000 | awk '{ print "p" $1 "," $1 }'; } >"$tmp/pts.csv"
{ echo id,y; seq 1 40000 | awk '{ print "p" $1 "," ($1 % 3 ? $1 % 2 : "") }'; } >"$tmp/pts-y.csv"
expect_error_msg "gp: 26667 labelled points (dense GP)" 'memory limit.*falkon' "$gssl" gp --features "$tmp/pts.csv" --targets "$tmp/pts-y.csv" --ids id
expect_error_msg "imgp: 26667 labelled points of --features (dense GP)" 'memory limit.*falkon' "$gssl" imgp --features "$tmp/pts.csv" --targets "$tmp/pts-y.csv" --ids id
expect_error_msg "svm: 26667 labelled points of --features" 'memory limit.*falkon' "$gssl" svm --features "$tmp/pts.csv" --labels "$tmp/pts-y.csv" --ids id
expect_error "svm: --n -5" "$gssl" svm --n -5
expect_error "svm: --C 0" "$gssl" svm --C 0
expect_error "imgp: --synthetic -5" "$gssl" imgp --synthetic -5
expect_error "imgp: --iterations -1" "$gssl" imgp --synthetic 200 --neighbors 10 --eigenpairs 20 --iterations -1
expect_error_msg "imgp: --max-iter 10^9" 'max-iter 1000000000 is invalid' "$gssl" imgp --synthetic 200 --max-iter 1000000000
expect_error_msg "imgp: --eigenpairs 10^9" 'at most' "$gssl" imgp --synthetic 200 --neighbors 10 --eigenpairs 1000000000
expect_error_msg "imgp: --neighbors 10^9" 'at most' "$gssl" imgp --synthetic 200 --neighbors 1000000000
expect_error_msg "imgp: --plot with an unknown extension" 'unknown image format' "$gssl" imgp --synthetic 200 --plot "$tmp/z.bogus"
if [ -e "$tmp/z.bogus" ]; then report "imgp: no file left by a refused --plot" 1 "z.bogus exists"; else report "imgp: no file left by a refused --plot" 0; fi
expect_bounded "gssl --json alone" "$gssl" --json
if [ "$rc" = 0 ] && grep -qi usage "$out"; then report "gssl --json alone is not help" 1 "prints help"; else report "gssl --json alone is not help" 0; fi

# ---------------------------------------------------------------------------
# More cases, one file per kind of input (sourced, so they share the
# helpers above): scripts/hostile.d/*.sh in name order.
for f in "$root"/scripts/hostile.d/*.sh; do
	[ -e "$f" ] || continue
	# shellcheck source=/dev/null
	. "$f"
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
