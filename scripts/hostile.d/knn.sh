# Points in, graph built (issue #29): --features without --edges builds the
# K-nearest-neighbour graph of the rows; gssl knn reads points; a model
# fitted on such a graph predicts new points. Hostile points, K, labels,
# weights and images that are not images.
#
# The .npy files are written with Python's standard library (struct), as
# NumPy writes them; without Python these cases are skipped.

py=${PYTHON:-/usr/bin/python3}

# npy NAME ROWS COLS VALUES...: a float64 C-order .npy of ROWS×COLS (COLS 0
# for a 1-D vector of ROWS values; int64 with a trailing "i"). Echoes the path.
npy() {
	"$py" - "$tmp/$1" "$2" "$3" "${@:4}" <<'PY'
import struct, sys
path, rows, cols = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ints = cols.endswith("i")
cols = int(cols.rstrip("i"))
vals = sys.argv[4:]
shape = "(%d,)" % rows if cols == 0 else "(%d, %d)" % (rows, cols)
descr = "<i8" if ints else "<f8"
h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
h += " " * (64 - (10 + len(h) + 1) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
    for v in vals:
        f.write(struct.pack("<q", int(v)) if ints else struct.pack("<d", float(v)))
PY
	echo "$tmp/$1"
}

if ! "$py" -c 'import struct' 2>/dev/null; then
	skip "knn: points cases" "no python3 at $py"
else
	# Six points on two lines, two labelled.
	pts=$(npy k_pts.npy 6 2 0 0 0 1 0 2 5 0 5 1 5 2)
	lab=$(npy k_lab.npy 6 0i 0 -1 -1 1 -1 -1)

	# A NumPy file given as raw images: its header must not become pixels
	# (1008 "images" of 16 pixels once).
	expect_error_msg "knn: .npy given to --images is refused, named as NumPy" 'is a NumPy array.*--features' \
		"$gssl" knn --images "$pts" --pixels 16
	expect_error_msg "labelprop: .npy given to --images is refused" 'is a NumPy array' \
		"$gssl" labelprop --images "$pts" --split random:1

	# The points themselves.
	expect_ok "labelprop: --features and --labels without --edges build the KNN graph" \
		'json_has "\"knn\":{\"points\":6" && json_has "\"weights\":\"connectivity\"" && grep -q "k = 2, exact search" "$err"' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --neighbors 2 --alpha 0.9 --json
	expect_ok "stkr: --features --knn-weights gaussian (self-tuning) builds and says so" \
		'json_has "\"weights\":\"gaussian-self-tuning\"" && grep -q "gaussian-self-tuning weights" "$err"' \
		"$gssl" stkr --features "$pts" --labels "$lab" --neighbors 2 --knn-weights gaussian --json
	nan=$(npy k_nan.npy 6 2 0 0 0 1 0 nan 5 0 5 1 5 2)
	expect_error_msg "labelprop: a NaN feature is refused with its row and column" 'k_nan.npy: element \[2, 1\] = NaN is not finite' \
		"$gssl" labelprop --features "$nan" --labels "$lab" --neighbors 2
	expect_error_msg "knn: an infinite CSV feature is refused with its row and column" 'k_inf.csv:3: column 1: value inf is not finite' \
		"$gssl" knn --features "$(file k_inf.csv 'x,y\n0,0\ninf,1\n2,2\n')" --neighbors 1
	expect_error_msg "knn: an infinite feature in a table with an id column is refused at its line" 'k_inf_id.csv:3: column 2: value inf is not finite' \
		"$gssl" knn --features "$(file k_inf_id.csv 'id,x,y\nq,0,0\nr,inf,1\ns,2,2\n')" --neighbors 1
	expect_error_msg "labelprop: k = n is refused with the valid range" 'neighbors 6 is invalid: it must be in \[1, 5\]' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --neighbors 6
	expect_error_msg "knn: k = 10^9 on 6 points is refused" 'neighbors 1000000000 is invalid' \
		"$gssl" knn --features "$pts" --neighbors 1000000000
	empty=$(npy k_empty.npy 0 2)
	expect_error_msg "labelprop: a 0-row feature matrix is refused" 'shape \(0, 2\) has no elements|no rows' \
		"$gssl" labelprop --features "$empty" --labels "$lab"
	expect_error_msg "knn: a 0-row feature matrix is refused" 'shape \(0, 2\) has no elements|no rows' \
		"$gssl" knn --features "$empty"
	short=$(npy k_short.npy 5 0i 0 -1 -1 1 -1)
	expect_error_msg "labelprop: 5 labels for 6 feature rows are refused" '5 values for 6 points' \
		"$gssl" labelprop --features "$pts" --labels "$short" --neighbors 2
	expect_error_msg "labelprop: a labels table naming an unknown point" 'id "17" names no row of --features' \
		"$gssl" labelprop --features "$pts" --labels "$(file k_lab.csv 'id,label\n0,a\n17,b\n')" --neighbors 2
	expect_error_msg "labelprop: --knn-weights bogus names the valid kernels" 'knn-weights "bogus" is invalid: use connectivity, gaussian or imgp' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --knn-weights bogus --neighbors 2
	expect_error_msg "stkr: --bandwidth -1 is refused" 'bandwidth -1 is invalid' \
		"$gssl" stkr --features "$pts" --labels "$lab" --knn-weights gaussian --bandwidth -1 --neighbors 2
	expect_error_msg "labelprop: a bandwidth that underflows every weight is refused" 'underflows to 0 at bandwidth' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --knn-weights gaussian --bandwidth 1e-9 --neighbors 2
	expect_error_msg "labelprop: --bandwidth with connectivity weights is refused" 'connectivity has no bandwidth' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --bandwidth 2 --neighbors 2
	expect_error_msg "labelprop: features above --max-memory are refused with the sizes" 'take .*above the memory limit --max-memory' \
		"$gssl" labelprop --features "$pts" --labels "$lab" --neighbors 2 --max-memory 100B
	dup=$(npy k_dup.npy 6 2 1 1 1 1 1 1 1 1 1 1 1 1)
	expect_ok "stkr: six identical points (zero distances) give a finite self-tuning graph" 'json_has "\"knn\":{\"points\":6"' \
		"$gssl" stkr --features "$dup" --labels "$lab" --neighbors 2 --knn-weights gaussian --json
	expect_error_msg "knn: --out with an unknown graph extension is refused" 'unknown graph format' \
		"$gssl" knn --features "$pts" --neighbors 2 --out "$tmp/g.xyz"

	# A model fitted on the KNN graph predicts new points, and refuses bad ones.
	limited "$gssl" labelprop --features "$pts" --labels "$lab" --neighbors 2 --alpha 0.9 --save "$tmp/k_model.gssl"
	expect_ok "predict: new points of a KNN label-spreading model" \
		'json_has "\"input\":\"features\"" && json_has "\"predicted\":2" && json_has "\"label\":\"0\"" && json_has "\"label\":\"1\""' \
		"$gssl" predict --model "$tmp/k_model.gssl" --features "$(file k_new.csv 'x,y\n0,0.5\n5,1.5\n')" --json
	expect_error_msg "predict: a new point of the wrong dimension is refused" '3 features, the model was fitted on points of 2' \
		"$gssl" predict --model "$tmp/k_model.gssl" --features "$(file k_new3.csv '1,2,3\n')"
fi
