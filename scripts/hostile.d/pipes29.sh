# Inputs that are not regular files: shell process substitution <(…)
# (/dev/fd/N), standard input named "-", a FIFO made by mkfifo. They can be
# read once only, while gssl sniffs a format and then reads the file again:
# they are read once into a private copy (package internal/inputfile),
# capped, and every error still names the user's path. Standard input given
# to two flags is refused naming both.

p29_edges=$root/testdata/cora/edges.txt
p29_labels=$root/testdata/cora/labels.txt
p29_feat=$root/testdata/networkx/features.npy

expect_ok "pipes29: info --edges <(cat edges.txt) (process substitution)" \
	'[ "$(json_field nodes)" = 2708 ] && [ "$(json_field edges)" = 5278 ]' \
	bash -c '"$1" info --json --edges <(cat "$2")' _ "$gssl" "$p29_edges"
expect_ok "pipes29: cat edges.txt | info --edges - (standard input)" \
	'[ "$(json_field nodes)" = 2708 ] && [ "$(json_field edges)" = 5278 ]' \
	bash -c 'cat "$2" | "$1" info --json --edges -' _ "$gssl" "$p29_edges"
expect_ok "pipes29: gzip -c edges.txt | info --edges - (gzipped standard input)" \
	'[ "$(json_field nodes)" = 2708 ] && [ "$(json_field edges)" = 5278 ]' \
	bash -c 'gzip -c "$2" | "$1" info --json --edges -' _ "$gssl" "$p29_edges"
expect_ok "pipes29: info --edges FIFO (mkfifo)" \
	'[ "$(json_field nodes)" = 2708 ] && [ "$(json_field edges)" = 5278 ]' \
	bash -c 'f=$3/p29.fifo; rm -f "$f"; mkfifo "$f" && { timeout 9 cat "$2" >"$f" & } && "$1" info --json --edges "$f"' _ "$gssl" "$p29_edges" "$tmp"
# labelprop on pipes gives the answer it gives on the files.
"$gssl" labelprop --json --edges "$p29_edges" --labels "$p29_labels" >"$tmp/p29-want.json" 2>/dev/null
p29_want=$(grep -o '"cv_accuracy": *[0-9.e-]*' "$tmp/p29-want.json" | head -1)
expect_ok "pipes29: labelprop --edges <(…) --labels <(…) equals the files' run" \
	'[ -n "$p29_want" ] && grep -qF -- "$p29_want" "$out"' \
	bash -c '"$1" labelprop --json --edges <(cat "$2") --labels <(cat "$3")' _ "$gssl" "$p29_edges" "$p29_labels"
expect_ok "pipes29: cat labels.txt | labelprop --labels - equals the files' run" \
	'[ -n "$p29_want" ] && grep -qF -- "$p29_want" "$out"' \
	bash -c 'cat "$3" | "$1" labelprop --json --edges "$2" --labels -' _ "$gssl" "$p29_edges" "$p29_labels"
# A .gsg graph (read with random access) and a NumPy array (format told by
# its magic bytes: a pipe has no extension) through pipes.
"$gssl" convert "$p29_edges" "$tmp/p29.gsg" >/dev/null 2>&1
expect_ok "pipes29: cat graph.gsg | info --edges - (binary graph on standard input)" \
	'[ "$(json_field nodes)" = 2708 ] && [ "$(json_field edges)" = 5278 ]' \
	bash -c 'cat "$2" | "$1" info --json --edges -' _ "$gssl" "$tmp/p29.gsg"
"$gssl" knn --features "$p29_feat" --out "$tmp/p29-knn-want.csv" >/dev/null 2>&1
expect_ok "pipes29: knn --features <(cat X.npy) writes the file's graph" \
	'cmp -s "$tmp/p29-knn-want.csv" "$tmp/p29-knn.csv"' \
	bash -c 'rm -f "$4"; "$1" knn --features <(cat "$2") --out "$4"' _ "$gssl" "$p29_feat" "" "$tmp/p29-knn.csv"
# Errors name the user's path and line; - is "standard input".
expect_error_msg "pipes29: a bad line on standard input is named with its line" 'standard input:3:' \
	bash -c 'printf "a b\nb c\nc d 1 2 3\n" | "$1" info --edges -' _ "$gssl"
expect_error_msg "pipes29: a bad line in <(…) is named by its /dev/fd path and line" '/dev/fd/[0-9]+:3:' \
	bash -c '"$1" info --edges "$2" --labels <(printf "id,label\n1,a\n2,b,c,d\n")' _ "$gssl" "$p29_edges"
expect_error_msg "pipes29: two flags reading standard input are refused naming both" '--edges - and --labels - both read standard input' \
	bash -c 'cat "$2" | "$1" labelprop --edges - --labels -' _ "$gssl" "$p29_edges"
expect_error_msg "pipes29: - and /dev/stdin are the same standard input" '--edges - and --features /dev/stdin both read standard input' \
	bash -c 'cat "$2" | "$1" labelprop --edges - --features /dev/stdin' _ "$gssl" "$p29_edges"
expect_error_msg "pipes29: a stream over the cap (--max-memory 1MB) is refused naming it and the cap" 'standard input is a stream .* of more than 1048576 bytes' \
	bash -c 'head -c 2000000 /dev/zero | tr "\0" 1 | "$1" info --edges - --max-memory 1MB' _ "$gssl"
# A model read from a pipe: its size and SHA-256 are the file's, not those
# of the empty stream left after the model was read.
"$gssl" labelprop --data "$root/testdata/cora" --alpha 0.9 --save "$tmp/p29.gssl" >/dev/null 2>&1
p29_sum=$(sha256sum "$tmp/p29.gssl" | cut -d' ' -f1)
expect_ok "pipes29: model info <(cat m.gssl) reports the file's size and SHA-256" \
	'[ -n "$p29_sum" ] && json_has "\"sha256\":\"$p29_sum\"" && [ "$(json_field bytes)" = "$(wc -c <"$tmp/p29.gssl" | tr -d " ")" ]' \
	bash -c '"$1" model info --json <(cat "$2")' _ "$gssl" "$tmp/p29.gssl"
# --out - writes the one table on standard output (the report on stderr),
# not a file named "-".
"$gssl" labelprop --data "$root/testdata/cora" --split planetoid --alpha 0.9 --out "$tmp/p29-pred.csv" >/dev/null 2>&1
expect_ok "pipes29: labelprop --out - writes the predictions on standard output" \
	'cmp -s "$out" "$tmp/p29-pred.csv" && [ ! -e "$tmp/p29-cwd/-" ]' \
	bash -c 'mkdir -p "$3" && cd "$3" && "$1" labelprop --data "$2" --split planetoid --alpha 0.9 --out -' _ "$gssl" "$root/testdata/cora" "$tmp/p29-cwd"
expect_error_msg "pipes29: --out - with --json is refused (both want standard output)" 'where --json prints its object' \
	bash -c 'cd "$3" && "$1" labelprop --data "$2" --out - --json' _ "$gssl" "$root/testdata/cora" "$tmp"
