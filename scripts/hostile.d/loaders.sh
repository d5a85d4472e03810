# Tables and graph files as users bring them (issue #29): tables misread
# without a word (a header gssl does not know, a weight column it would
# drop, a label column it would guess, a header repeated mid-file, a stray
# byte-order mark, a Matrix Market file without its banner, CR-only line
# ends), the graph formats networkx and PyG users have (GraphML, GML,
# adjacency lists, edge_index arrays), gssl's own binary files given as
# tables, and inputs whose work or memory the bytes do not bound (one long
# line in a gzip stream, an honest but huge deflated .npz member, /dev/zero).
# Sourced by scripts/hostile.sh; the fixtures come from
# testdata/userformats (written by networkx and numpy, see its make.py).

uf=$root/testdata/userformats
graph35='[ "$(json_field nodes)" = 35 ] && [ "$(json_field edges)" = 78 ]'
graph10='[ "$(json_field nodes)" = 10 ] && [ "$(json_field edges)" = 18 ]'

# Tables read explicitly.
expect_error_msg "loaders: header character1,character2 over text ids" "--header yes" \
	"$gssl" info --edges "$(file l1.csv 'character1,character2\nValjean,Myriel\nMyriel,Napoleon\nValjean,Fantine\n')"
expect_error_msg "loaders: weight column named count would be dropped" "--weight count" \
	"$gssl" info --edges "$(file l2.csv 'source,target,count\na,b,3\nb,c,5\n')"
expect_error_msg "loaders: a column beside the weight would be dropped" "--weight weight" \
	"$gssl" info --edges "$(file l3.csv 'source,target,weight,time\na,b,3,2020\nb,c,5,2021\n')"
expect_error_msg "loaders: labels name,age,club: the label column is a guess" "--label-column" \
	"$gssl" info --edges "$(file l4.txt '0 1\n1 2\n')" --labels "$(file l4l.csv 'name,age,club\n0,31,A\n1,22,B\n2,40,A\n')"
expect_error_msg "loaders: labels character,group over text: unknown header" "--header yes" \
	"$gssl" info --edges "$(file l5.txt 'a b\nb c\n')" --labels "$(file l5l.csv 'character,group\na,x\nb,y\n')"
expect_ok "loaders: --label-column club chooses the label" '[ "$(json_field classes)" = 2 ] && [ "$(json_field unlabelled)" = 0 ]' \
	"$gssl" info --json --edges "$tmp/l4.txt" --labels "$tmp/l4l.csv" --label-column club
expect_ok "loaders: --source/--target/--weight choose the columns" '[ "$(json_field nodes)" = 3 ] && [ "$(json_field edges)" = 2 ] && json_has "\"weight\":\"\\\"n\\\" (column 3)\""' \
	"$gssl" info --json --edges "$(file l6.csv 'x,when,n,y\na,2020,3,b\nb,2021,5,c\n')" --source x --target y --weight n
expect_error_msg "loaders: labels .npy of 9 entries for 10 nodes" "9 entries for the 10 nodes" \
	"$gssl" info --edges "$uf/edge_index_2xE.npy" --labels "$uf/labels_short.npy"
expect_error_msg "loaders: header repeated mid-file (two CSVs concatenated)" ":4: line repeats the header of line 1" \
	"$gssl" info --edges "$(file l7.csv 'source,target\na,b\nb,c\nsource,target\nc,d\n')"
expect_error_msg "loaders: column names mid-file in a headerless integer list" ":3: .*names columns" \
	"$gssl" info --edges "$(file l8.txt '0 1\n1 2\nsource target\n2 3\n')"
expect_error_msg "loaders: byte-order mark mid-file" ":3: .*byte-order mark" \
	"$gssl" info --edges "$(file l9.csv 'source,target\na,b\n\357\273\277b,c\n')"
expect_error_msg "loaders: Matrix Market without its banner (content)" ":2: .*without its banner" \
	"$gssl" info --edges "$(file l10.txt '%% hand-written\n3 3 2\n1 2 1.0\n2 3 1.0\n')"
expect_error_msg "loaders: .mtx without its banner" "Matrix Market banner" \
	"$gssl" info --edges "$(file l11.mtx '3 3 2\n1 2 1.0\n2 3 1.0\n')"
expect_ok "loaders: CR-only line ends with a header" '[ "$(json_field nodes)" = 3 ] && [ "$(json_field edges)" = 2 ]' \
	"$gssl" info --json --edges "$(file l12.csv 'source,target,weight\ra,b,2\rb,c,3\r')"
expect_ok "loaders: info --json says which columns were used" 'json_has "\"inputs\":[{" && json_has "\"source\":\"\\\"source\\\" (column 1)\""' \
	"$gssl" info --json --edges "$(file l13.csv 'source,target\na,b\n')"

# Graph formats recognised by content.
expect_ok "loaders: networkx write_graphml (weights as a data key)" "$graph35" "$gssl" info --json --edges "$uf/karate.graphml"
expect_ok "loaders: gzipped GraphML" "$graph35" "$gssl" info --json --edges "$uf/karate.graphml.gz"
expect_ok "loaders: networkx write_gml" "$graph35" "$gssl" info --json --edges "$uf/karate.gml"
expect_ok "loaders: networkx write_adjlist" "$graph35" "$gssl" info --json --edges "$uf/karate.adjlist"
expect_ok "loaders: networkx write_multiline_adjlist" "$graph35" "$gssl" info --json --edges "$uf/karate.multiline.adjlist"
expect_ok "loaders: edge_index (2, E) int64 .npy" "$graph10" "$gssl" info --json --edges "$uf/edge_index_2xE.npy"
expect_ok "loaders: edge_index (E, 2) int64 .npy" "$graph10" "$gssl" info --json --edges "$uf/edge_index_Ex2.npy"
expect_ok "loaders: edge_index .npz with edge_weight" "$graph10" "$gssl" info --json --edges "$uf/edge_index.npz"
expect_error_msg "loaders: 2x2 edge_index whose layouts disagree" "give different edges" \
	"$gssl" info --edges "$uf/edge_index_2x2_ambiguous.npy"
expect_error_msg "loaders: float edge_index" "integer node ids" "$gssl" info --edges "$uf/edge_index_float.npy"

# gssl's own binary files offered as tables.
printf 'GSSLMODL\001\000\000\000garbage-after-the-magic' >"$tmp/l14.gssl"
expect_error_msg "loaders: a model file as --edges" "gssl model file" "$gssl" info --edges "$tmp/l14.gssl"
expect_error_msg "loaders: a model file as --labels" "gssl model file" "$gssl" info --edges "$tmp/l4.txt" --labels "$tmp/l14.gssl"
printf 'GSSLGRPH\001\000\000\000garbage-after-the-magic' >"$tmp/l15.gsg"
expect_error_msg "loaders: a graph file as --labels" "gssl graph file" "$gssl" info --edges "$tmp/l4.txt" --labels "$tmp/l15.gsg"
expect_error_msg "loaders: /dev/zero as --edges" "NUL byte" "$gssl" info --edges /dev/zero
expect_error_msg "loaders: /dev/zero as --labels" "NUL byte" "$gssl" info --edges "$tmp/l4.txt" --labels /dev/zero

# Work and memory bounded by the input.
head -c 400000000 /dev/zero | tr '\0' 7 | gzip -1 >"$tmp/l16.txt.gz"
expect_error_msg "loaders: one 400 MB line in a gzip file (linear, refused at the line cap)" "line longer than" \
	"$gssl" info --edges "$tmp/l16.txt.gz"
if command -v "${PYTHON:-/usr/bin/python3}" >/dev/null; then
	"${PYTHON:-/usr/bin/python3}" - "$tmp/l17.npz" <<'PY'
import sys, zipfile
n = 600_000_000
header = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d, 1), }" % n
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    with z.open("x.npy", "w", force_zip64=True) as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
        block = bytes(1 << 24)
        for _ in range(n // len(block)):
            f.write(block)
        f.write(bytes(n % len(block)))
PY
	expect_error_msg "loaders: honest 600 MB deflated .npz features, bounded by --max-memory" "memory limit" \
		"$gssl" info --edges "$tmp/l4.txt" --features "$tmp/l17.npz"
else
	skip "loaders: honest 600 MB deflated .npz features" "no python3"
fi
