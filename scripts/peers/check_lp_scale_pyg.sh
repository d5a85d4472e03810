#!/usr/bin/env bash
# check_lp_scale_pyg.sh: the PyG scale peer (lp_scale_pyg.py) against lp_scale.py and a dense solve, on a
# small graph of the scale benchmark's generator (`gssl generate sbm`, 3 000 nodes, 5 classes, equal degrees;
# seconds, a few hundred MB). For a = 0.5 and 0.9, with --layers auto (tol 1e-6):
#   * its test accuracy equals lp_scale.py's (SciPy CG per class, rtol 1e-6) on the same folder;
#   * its scores equal the dense solution F = (1 - a)(I - a S)^-1 Y (numpy.linalg.solve, float64, S from the
#     edge list as lp_scale.py builds it) to 1e-5 (float32 iterates), and their residual, computed with that
#     dense float64 S, is <= 1e-6 in every class, as is the residual the script reports;
#   * the chosen count is the smallest: one layer fewer leaves a dense residual above 1e-6;
#   * --adj csr (torch.sparse CSR adjacency) gives the edge_index call's scores to 1e-6;
# and bad input (ALPHA outside (0, 1), a missing folder, a node outside the labels) ends in a one-line
# error, no traceback.
#
#   scripts/peers/check_lp_scale_pyg.sh      (PY: the peer venv's python, default .venv-peers/bin/python;
#                                             BIN: a gssl binary, else built here)
# It prints PASS/FAIL per check, then "N passed, M failed", and exits 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
PY=${PY:-$root/.venv-peers/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	BIN=$tmp/gssl
	(cd "$root" && go build -o "$BIN" ./cmd/gssl) || exit 1
fi
pass=0 fail=0
check() { # NAME CMD...: PASS when CMD exits 0
	local name=$1
	shift
	if "$@"; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name"
		fail=$((fail + 1))
	fi
}
d=$tmp/small
"$BIN" generate sbm --nodes 3000 --classes 5 --degree 20 --mixing 0.3 --exponent inf --per-class 20 --val 500 \
	--test 1000 --seed 1 --format folder --out "$d" > /dev/null || exit 1
peer=$root/scripts/peers/lp_scale_pyg.py

# compare A.json B.json KEY: the last JSON lines' KEY fields are equal
same() {
	"$PY" -c 'import json, sys
a, b = (json.loads(open(f).read().strip().splitlines()[-1]) for f in sys.argv[1:3])
print(f"  {sys.argv[3]}: {a[sys.argv[3]]} / {b[sys.argv[3]]}")
sys.exit(a[sys.argv[3]] != b[sys.argv[3]])' "$@"
}

# dense D ALPHA SCORES.npy MODE: max |scores - F*| <= 1e-5 and every class's relative residual
# ||(1 - a) y_j - (I - a S) f_j|| / ||(1 - a) y_j|| <= 1e-6 (MODE near), or a residual above 1e-6 (MODE far)
dense() {
	"$PY" - "$@" <<'EOF'
import sys, numpy as np
d, a, path, mode = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
e = np.loadtxt(d + "/edges.txt", dtype=np.int64, ndmin=2)
lab = np.loadtxt(d + "/labels.txt", dtype=np.int64)
n, c = len(lab), lab.max() + 1
W = np.zeros((n, n))
W[e[:, 0], e[:, 1]] = 1
W = np.maximum(W, W.T)
dm = 1 / np.sqrt(W.sum(1))
S = dm[:, None] * W * dm[None, :]
Y = np.zeros((n, c))
for line in open(d + "/split_planetoid.txt"):
    k, i = line.split()
    if k == "train":
        Y[int(i), lab[int(i)]] = 1
A = np.eye(n) - a * S
X = np.load(path).astype(np.float64)
diff = np.abs(X - np.linalg.solve(A, (1 - a) * Y)).max()
res = (np.linalg.norm((1 - a) * Y - A @ X, axis=0) / np.linalg.norm((1 - a) * Y, axis=0)).max()
print(f"  max |PyG - dense| = {diff:.2e}, dense residual {res:.2e}")
sys.exit(not (diff <= 1e-5 and res <= 1e-6 if mode == "near" else res > 1e-6))
EOF
}

field() { "$PY" -c 'import json, sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])[sys.argv[2]])' "$@"; }

for a in 0.5 0.9; do
	"$PY" -W ignore "$root/scripts/peers/lp_scale.py" "$d" "$a" > "$tmp/scipy.json" || exit 1
	"$PY" -W ignore "$peer" "$d" "$a" --threads 1 --scores "$tmp/pyg.npy" > "$tmp/pyg.json" || exit 1
	"$PY" -W ignore "$peer" "$d" "$a" --threads 1 --adj csr --scores "$tmp/csr.npy" > "$tmp/csr.json" || exit 1
	L=$(field "$tmp/pyg.json" layers)
	"$PY" -W ignore "$peer" "$d" "$a" --threads 1 --layers $((L - 1)) --scores "$tmp/short.npy" > /dev/null || exit 1
	check "a=$a: accuracy equals lp_scale.py's" same "$tmp/pyg.json" "$tmp/scipy.json" acc
	check "a=$a: scores ($L layers) equal the dense solve to 1e-5, residual <= 1e-6" dense "$d" "$a" "$tmp/pyg.npy" near
	check "a=$a: reported residual <= 1e-6" "$PY" -c 'import json, sys; r = json.loads(open(sys.argv[1]).read())["residual"]; print(f"  residual {r:.2e}"); sys.exit(not r <= 1e-6)' "$tmp/pyg.json"
	check "a=$a: $((L - 1)) layers leave a residual above 1e-6" dense "$d" "$a" "$tmp/short.npy" far
	check "a=$a: --adj csr gives the same scores" "$PY" -c 'import sys, numpy as np
x, y = np.load(sys.argv[1]), np.load(sys.argv[2]); m = np.abs(x - y).max(); print(f"  max diff {m:.2e}"); sys.exit(not m <= 1e-6)' "$tmp/pyg.npy" "$tmp/csr.npy"
done

# bad NAME ARGS...: a non-zero exit with a one-line message and no traceback
bad() {
	local name=$1
	shift
	if "$PY" -W ignore "$peer" "$@" > /dev/null 2> "$tmp/err.txt"; then
		echo "FAIL bad input: $name (exit 0)"
		fail=$((fail + 1))
	elif grep -q Traceback "$tmp/err.txt" || [ "$(wc -l < "$tmp/err.txt")" -ne 1 ]; then
		echo "FAIL bad input: $name"
		cat "$tmp/err.txt"
		fail=$((fail + 1))
	else
		echo "PASS bad input: $name ($(cat "$tmp/err.txt"))"
		pass=$((pass + 1))
	fi
}
bad "alpha 1" "$d" 1
bad "missing folder" "$tmp/none" 0.5
mkdir "$tmp/out-of-range"
cp "$d/labels.txt" "$d/split_planetoid.txt" "$tmp/out-of-range/"
echo "0 3000" > "$tmp/out-of-range/edges.txt"
bad "node outside the labels" "$tmp/out-of-range" 0.5
bad "layers not a count" "$d" 0.5 --layers many
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
