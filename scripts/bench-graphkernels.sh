#!/usr/bin/env bash
# Side-by-side comparison of gssl's graph kernels with shared/bench/peers/wl.py
# (numpy WL + scikit-learn SVC), on MUTAG and ENZYMES.
#
#   scripts/bench-graphkernels.sh [OUT_DIR]        (default: out/bench-graphkernels)
#
# For each data set it
#   1. checks that gssl's WL Gram matrix (h = 5, not normalised) equals wl.py's
#      numpy one exactly (max |difference|, printed as a JSON line);
#   2. times the WL Gram matrix (h = 5) three times, interleaving peer and Go
#      runs (wl.py: median of 3 after a warm-up, --seeds 1; gssl: --gram-runs 3);
#   3. runs the accuracy protocol once each: wl.py with 10 seeds (h = 1..5), and
#      gssl with wl.py's saved outer folds, its C grid and 3 inner folds, for
#      h = 1..5 and with h chosen on the inner folds (--select-h), plus the other
#      kernels (vh, sp; rw on MUTAG);
# then 4. times the SVM solver alone against LIBSVM (scikit-learn SVC) on one
#      precomputed Gram matrix of 1000 two-moons points, C = 1 and 1000.
# Every timed command runs under `flock /tmp/gssl-bench.lock` (one benchmark at a
# time on the machine), with 2 threads on both sides. Results: OUT_DIR/*.jsonl.
# shared/ is read-only, and wl.py writes its fold file next to its own copy,
# so the peers are run from a temporary copy; the fold file it writes is
# compared with the saved one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=$(cd "$ROOT/.." && pwd)/shared
[ -d "$SHARED/data" ] || SHARED=$(cd "$ROOT/../.." && pwd)/shared
OUT=${1:-$ROOT/out/bench-graphkernels}
mkdir -p "$OUT"
PY=/usr/bin/python3
LOCK=/tmp/gssl-bench.lock
export OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 GOMAXPROCS=2

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp -r "$SHARED/bench/peers" "$TMP/peers"
go build -o "$TMP/gssl" ./cmd/gssl

for DS in MUTAG ENZYMES; do
  DATA=$SHARED/data/$DS
  FOLDS=$SHARED/bench/splits/$DS/wl_outer10fold.txt
  echo "== $DS" >&2

  # 1. Exact equality of the Gram matrices (h = 5).
  "$TMP/gssl" graphkernel --data "$DATA" --kernel wl --h 5 --normalize=false --seeds 0 \
    --gram-out "$TMP/K_$DS.txt" --json > /dev/null 2>&1
  "$PY" - "$TMP/peers" "$DATA" "$TMP/K_$DS.txt" "$DS" <<'PYEOF' | tee -a "$OUT/equality.jsonl"
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
from common import load_tu
from wl import wl_features, gram
_, graphs, _ = load_tu(sys.argv[2])
ours = gram(wl_features(graphs, 5))
go = np.loadtxt(sys.argv[3])
print(json.dumps({"task": "wl-gram-equality", "dataset": sys.argv[4], "h": 5, "shape": list(go.shape),
                  "max_abs_diff_go_vs_numpy": float(np.max(np.abs(go - ours)))}))
PYEOF

  # 2. Gram timings, interleaved: peer, Go, peer, Go, peer, Go.
  for r in 1 2 3; do
    flock "$LOCK" "$PY" "$TMP/peers/wl.py" "$DATA" --seeds 1 --hmax 5 2> /dev/null \
      | grep '"wl-gram"' >> "$OUT/gram_peer.jsonl"
    flock "$LOCK" "$TMP/gssl" graphkernel --data "$DATA" --kernel wl --h 5 --normalize=false \
      --seeds 0 --gram-runs 3 --json 2> /dev/null >> "$OUT/gram_go.jsonl"
  done

  # 3. Accuracy: the peer's full protocol, then gssl's.
  flock "$LOCK" "$PY" "$TMP/peers/wl.py" "$DATA" --seeds 10 --hmax 5 2> /dev/null \
    | grep '"wl-svm"' >> "$OUT/accuracy_peer.jsonl"
  # wl.py has just rewritten its 10 outer-fold lines: they must be the saved ones.
  cmp -s "$TMP/splits/$DS/wl_outer10fold.txt" "$FOLDS" || echo "warning: wl.py wrote folds that differ from $FOLDS" >&2
  for H in 1 2 3 4 5; do
    flock "$LOCK" "$TMP/gssl" graphkernel --data "$DATA" --kernel wl --h $H --select-h=false --fold-file "$FOLDS" \
      --seeds 10 --json 2> /dev/null >> "$OUT/accuracy_go.jsonl"
  done
  flock "$LOCK" "$TMP/gssl" graphkernel --data "$DATA" --kernel wl --h 5 --select-h --fold-file "$FOLDS" \
    --seeds 10 --json 2> /dev/null >> "$OUT/accuracy_go.jsonl"
  KERNELS="vh sp"
  [ "$DS" = MUTAG ] && KERNELS="vh sp rw"
  for K in $KERNELS; do
    flock "$LOCK" "$TMP/gssl" graphkernel --data "$DATA" --kernel $K --fold-file "$FOLDS" \
      --seeds 10 --json 2> /dev/null >> "$OUT/accuracy_go.jsonl"
  done
done

# 4. The SVM solver alone: SMO with shrinking against LIBSVM (scikit-learn's SVC)
#    on the same precomputed Gaussian Gram matrix of 1000 two-moons points
#    (noise 0.3, scikit-learn's draw), C = 1 and C = 1000, interleaved.
"$PY" - "$TMP/moons.csv" <<'PYEOF'
import sys, numpy as np
from sklearn.datasets import make_moons
X, y = make_moons(n_samples=1200, noise=0.3, random_state=0)
np.savetxt(sys.argv[1], np.c_[X, y], delimiter=",", fmt="%.17g")
PYEOF
for r in 1 2 3; do
  for C in 1 1000; do
    flock "$LOCK" "$PY" - "$TMP/moons.csv" $C <<'PYEOF' >> "$OUT/svm_peer.jsonl"
import json, sys, time, numpy as np
from sklearn.svm import SVC
A = np.loadtxt(sys.argv[1], delimiter=","); C = float(sys.argv[2])
X, y = A[:1000, :2], A[:1000, 2]
d2 = (X**2).sum(1)[:, None] + (X**2).sum(1)[None, :] - 2 * X @ X.T
K = np.exp(-d2 / (2 * 0.5**2))
t = time.perf_counter(); m = SVC(kernel="precomputed", C=C).fit(K, y); s = time.perf_counter() - t
print(json.dumps({"task": "svm-fit", "peer": "sklearn-SVC", "C": C, "seconds": s, "support_vectors": int(len(m.support_)), "iterations": int(m.n_iter_[0])}))
PYEOF
    flock "$LOCK" "$TMP/gssl" svm --csv "$TMP/moons.csv" --train-points 1000 --c $C --json 2> /dev/null >> "$OUT/svm_go.jsonl"
  done
done

# Summary: medians and ratios.
"$PY" - "$OUT" <<'PYEOF'
import json, os, sys, statistics as st
out = sys.argv[1]
def lines(name):
    p = os.path.join(out, name)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
print("| data set | numpy WL Gram h=5 (s) | gssl (s) | ratio gssl/numpy |")
print("|---|---|---|---|")
for ds in ("MUTAG", "ENZYMES"):
    peer = [r["seconds"] for r in lines("gram_peer.jsonl") if r["dataset"] == ds and r["peer"] == "numpy-dict" and r["params"]["h"] == 5]
    go = [r["gram_seconds"] for r in lines("gram_go.jsonl") if r["dataset"] == ds]
    if peer and go:
        p, g = st.median(peer), st.median(go)
        print(f"| {ds} | {p:.4f} | {g:.4f} | {g/p:.3f} |")
print()
print("| C | LIBSVM fit (s) | gssl fit (s) | ratio | support vectors (LIBSVM / gssl) |")
print("|---|---|---|---|---|")
for c in (1.0, 1000.0):
    p = [r for r in lines("svm_peer.jsonl") if r["C"] == c]
    g = [r for r in lines("svm_go.jsonl") if r["C"] == c]
    if p and g:
        ps, gs = st.median(r["seconds"] for r in p), st.median(r["fit_seconds"] for r in g)
        print(f'| {c:g} | {ps:.4f} | {gs:.4f} | {gs/ps:.2f} | {p[0]["support_vectors"]} / {g[0]["support_vectors"]} |')
print()
print("| data set | kernel | h | peer accuracy | gssl accuracy |")
print("|---|---|---|---|---|")
peer = {(r["dataset"], r["params"]["h"]): r for r in lines("accuracy_peer.jsonl")}
for r in lines("accuracy_go.jsonl"):
    h = r.get("h", "")
    sel = " (chosen)" if r.get("h_chosen") else ""
    p = peer.get((r["dataset"], h)) if r["kernel"] == "wl" and not sel else None
    ps = f'{100*p["value"]:.2f} ± {100*p["accuracy_std"]:.2f}' if p else "–"
    print(f'| {r["dataset"]} | {r["kernel"]} | {h}{sel} | {ps} | {100*r["accuracy_mean"]:.2f} ± {100*r["accuracy_std"]:.2f} |')
PYEOF
