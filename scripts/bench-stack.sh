#!/usr/bin/env bash
# The graph stack at scale: gssl info, eigs, cluster and stkr against the
# plain scipy peer scripts/peers/stack_scale.py, side by side on the generated
# graphs of scripts/bench-scale.sh, interleaved, each timed run under the
# benchmark lock.
#
#   scripts/bench-stack.sh [ROUNDS] [SIZES]
#
# ROUNDS 0 runs nothing and prints the table of $WORK/results.jsonl.
#
# SIZES is a list of names of the graphs $SCALE_DIR/sbm-NAME (folder) and
# sbm-NAME.gsg that scripts/bench-scale.sh writes (default "1M 10M"; the
# third, 100M, is 10 M nodes / 100 M edges: run it alone with one round).
# Missing graphs are made as bench-scale.sh makes them. gssl reads the .gsg
# file (labels and split from the folder); the peer reads the folder's text
# once into .npy arrays in $WORK/npy and then those (its binary form of the
# same graph; loads are reported apart from the tasks). Per size and round,
# for each task in $TASKS (default "info eigs cluster stkr"): gssl, then scipy.
#
#   info     gssl info G.gsg                    | degrees, connected_components
#   eigs     gssl eigs --eigenpairs 10 --tol T  | eigsh(S, 10, which='LA', tol=T), T = $TOL (1e-10)
#   cluster  gssl cluster (k = classes)         | eigsh(S, k) + row normalisation + KMeans(n_init=10)
#   stkr     gssl stkr --eta E --ridge B        | MINRES per class on the same symmetrised system
#            --p-test 0 (the split's test set)  |   (inverse Laplacian, transductive, to
#                                               |   ‖b − Kθ‖ ≤ 1e-9‖b‖, gssl's stopping rule)
#
# ARPACK_MAXITER=R stops eigsh after R restarts (0: ARPACK's default): on
# the 5-class graphs the 10th pair lies in a bulk of eigenvalues a few 1e-5
# apart, where ARPACK runs for many minutes; the table then shows its time as
# a lower bound and how many pairs had converged.
#
# STKR runs one fit at fixed η = $ETA, β = $BETA (default 0.9 and 10, the
# values gssl's validation choice picks on the 1M graph): gssl's default grid
# of 15 (η, β) pairs is 15 such fits on each side.
#
# The lock is taken for each timed command, with LOCK_SCOPE=round once per
# round (fewer waits behind other benchmarks on a shared machine), and with
# LOCK_SCOPE=none not at all: the caller holds it
# (flock /tmp/gssl-bench.lock env LOCK_SCOPE=none scripts/bench-stack.sh …).
# EIGS_FLAGS adds flags to gssl eigs (e.g. "--method subspace").
# STKR_FLAGS adds flags to gssl stkr (e.g. "--max-memory 4GB": the classes
# in batches whose solver blocks fit, stkr.Regressor.MaxMemory).
# PEER_TASKS lists the tasks the peer runs (default: all of TASKS; the others
# are gssl alone; an empty PEER_TASKS means the default, so gssl alone on every task is PEER_TASKS=none). PEER_TIMEOUT=S stops a peer run after S seconds (its time is then a lower
# bound, shown as > S s).
#
# Peak RSS is /usr/bin/time's maximum resident set of the whole process.
# Results go to $WORK/results.jsonl (rows of the sizes and tasks run replace
# earlier rows of those, others are kept), the table of medians to
# $WORK/table.md, and with WRITE=1 into BENCHMARKS.md ("The graph stack at
# scale").
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SIZES=${2:-"1M 10M"}
TASKS=${TASKS:-"info eigs cluster stkr"}
SCALE_DIR=${SCALE_DIR:-/tmp/gssl-scale}
WORK=${WORK:-/tmp/gssl-stack}
TOL=${TOL:-1e-10}
ETA=${ETA:-0.9}
BETA=${BETA:-10}
ARPACK_MAXITER=${ARPACK_MAXITER:-0}
LOCK_SCOPE=${LOCK_SCOPE:-command}
PEER_TIMEOUT=${PEER_TIMEOUT:-0}
PEER_TASKS=${PEER_TASKS:-$TASKS}
PY=${PY:-$(pwd)/.venv-peers/bin/python} # the peer venv (bench/peers-env.sh): the system python3 has no NumPy
PEER=scripts/peers/stack_scale.py
LOCK=/tmp/gssl-bench.lock
export GOMAXPROCS=2 OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2
mkdir -p "$WORK"
BIN="$WORK/gssl"
go build -o "$BIN" ./cmd/gssl
RES="$WORK/results.jsonl"
touch "$RES"
NEW="$WORK/results.new"
: > "$NEW"

# timed WHO CMD...: runs CMD under the benchmark lock (unless the round
# holds it) with its stdout in $WORK/out-WHO.json and prints its peak RSS in MB.
# The files of WARM (both sides' inputs) are read first, inside the lock: this
# machine pages out file pages idle for a minute (DAMON's pageout scheme,
# /sys/kernel/mm/damon), so a load after a long task would time the disk too.
timed() {
	local who=$1 lock=(flock "$LOCK")
	shift
	if [ "$who" = scipy ] && [[ " $PEER_TASKS " != *" $task "* ]]; then
		echo '{"skipped": true}' > "$WORK/out-$who.json"
		echo 0
		return 0
	fi
	[ "$LOCK_SCOPE" != command ] && lock=()
	local limit=()
	[ "$who" = scipy ] && [ "$PEER_TIMEOUT" -gt 0 ] && limit=(timeout "$PEER_TIMEOUT")
	local rc=0
	"${lock[@]}" sh -c 'for f in $WARM; do cat "$f" > /dev/null 2>&1; done; exec "$@"' sh \
		/usr/bin/time -f "%M" -o "$WORK/rss.txt" "${limit[@]}" "$@" > "$WORK/out-$who.json" 2> "$WORK/err.txt" || rc=$?
	if [ "$rc" = 124 ] && [ "${#limit[@]}" -gt 0 ]; then
		echo "{\"timeout\": $PEER_TIMEOUT}" > "$WORK/out-$who.json"
	elif [ "$rc" != 0 ]; then
		cat "$WORK/err.txt" >&2
		return 1
	fi
	echo $(( $(grep -E '^[0-9]+$' "$WORK/rss.txt" | tail -1) / 1024 ))
}

for size in $SIZES; do
	dir="$SCALE_DIR/sbm-$size"
	export WARM="$dir.gsg $dir/labels.txt $dir/split_planetoid.txt $WORK/npy/sbm-$size.indptr.npy $WORK/npy/sbm-$size.indices.npy"
	if [ ! -f "$dir/split_planetoid.txt" ] || [ ! -f "$dir.gsg" ]; then
		echo "$dir or $dir.gsg is missing: make it with scripts/bench-scale.sh 0 (its SIZES)" >&2
		exit 1
	fi
	# the peer's binary copy, made once (untimed)
	if [ "$ROUNDS" -gt 0 ]; then
		if [ "$LOCK_SCOPE" = none ]; then
			"$PY" "$PEER" "$dir" info --cache "$WORK/npy" > /dev/null
		else
			flock "$LOCK" "$PY" "$PEER" "$dir" info --cache "$WORK/npy" > /dev/null
		fi
	fi
	classes=$("$PY" -c "import numpy as np,sys; print(int(np.fromstring(open(sys.argv[1]).read(), dtype=np.int64, sep='\n').max()) + 1)" "$dir/labels.txt")
	for r in $(seq "$ROUNDS"); do
		if [ "$LOCK_SCOPE" = round ]; then
			exec 9>> "$LOCK"
			flock 9
		fi
		for task in $TASKS; do
			echo "$size round $r: $task" >&2
			case $task in
			info)
				grss=$(timed gssl "$BIN" info "$dir.gsg" --json)
				srss=$(timed scipy "$PY" "$PEER" "$dir" info --cache "$WORK/npy") ;;
			eigs)
				grss=$(timed gssl "$BIN" eigs --edges "$dir.gsg" --eigenpairs 10 --tol "$TOL" ${EIGS_FLAGS:-} --json)
				srss=$(timed scipy "$PY" "$PEER" "$dir" eigs --k 10 --tol "$TOL" --maxiter "$ARPACK_MAXITER" --cache "$WORK/npy") ;;
			cluster)
				grss=$(timed gssl "$BIN" cluster --edges "$dir.gsg" --labels "$dir/labels.txt" --tol "$TOL" --out "$WORK/clusters-gssl.csv" --json)
				srss=$(timed scipy "$PY" "$PEER" "$dir" cluster --k "$classes" --tol "$TOL" --out "$WORK/clusters-scipy.npy" --cache "$WORK/npy") ;;
			stkr)
				grss=$(timed gssl "$BIN" stkr --edges "$dir.gsg" --labels "$dir/labels.txt" --split "$dir/split_planetoid.txt" \
					--eta "$ETA" --ridge "$BETA" --p-test 0 ${STKR_FLAGS:-} --json)
				srss=$(timed scipy "$PY" "$PEER" "$dir" stkr --eta "$ETA" --beta "$BETA" --cache "$WORK/npy") ;;
			*) echo "unknown task $task" >&2; exit 2 ;;
			esac
			"$PY" - "$size" "$task" "$r" "$grss" "$srss" "$WORK" "$(cut -d' ' -f1 /proc/loadavg)" >> "$NEW" <<'EOF'
import json, sys
size, task, r, grss, srss, work, load = sys.argv[1:]
g = json.load(open(f"{work}/out-gssl.json"))
s = json.loads(open(f"{work}/out-scipy.json").read().strip().splitlines()[-1])
row = {"size": size, "task": task, "round": int(r), "gssl_rss_mb": int(grss), "scipy_rss_mb": int(srss),
       "loadavg": float(load), "nodes": g.get("nodes")}
if s.get("skipped"):
    row["scipy_skipped"], row["scipy_load"], row["scipy_task"], row["scipy_rss_mb"] = True, None, None, None
    s = {}
elif "timeout" in s:
    # the peer was stopped: its load and task together took the limit
    row["scipy_timeout"], row["scipy_load"], row["scipy_task"] = True, None, float(s["timeout"])
    s = {}
else:
    row["scipy_load"], row["scipy_task"] = s["load"], s["seconds"]
if task == "info":
    row["gssl_load"] = g["load_seconds"]
    row["gssl_task"] = g["seconds"] - g["load_seconds"]
    keys = ["nodes", "edges", "self_loops", "degree_min", "degree_max", "isolated", "components", "largest_component"]
    if s:
        diff = [k for k in keys if g[k] != s[k]] + (["degree_mean"] if abs(g["degree_mean"] - s["degree_mean"]) > 1e-9 else [])
        row["agree"] = "equal" if not diff else "differ: " + ",".join(diff)
    row["edges"] = g["edges"]
elif task in ("eigs", "cluster") and not s:
    row["gssl_load"], row["gssl_task"] = g["load_seconds"], g["seconds"]
    row["eigenvalues"] = g["eigenvalues"]
    if task == "eigs":
        row["gssl_residual"], row["matvecs"] = g["max_residual"], g["matvecs"]
    else:
        row["gssl_ari"] = g["ari"]
elif task in ("eigs", "cluster"):
    row["gssl_load"], row["gssl_task"] = g["load_seconds"], g["seconds"]
    a, b = g["eigenvalues"], s["eigenvalues"]
    # pairs by value: an unconverged ARPACK run returns the pairs it has, which may skip some
    row["eig_rel"] = max((min(abs(x - y) / abs(y) if abs(y) > 1e-12 else abs(x - y) for x in a) for y in b), default=None)
    if task == "eigs":
        row["gssl_residual"], row["scipy_residual"] = g["max_residual"], s["max_residual"]
        row["scipy_converged"], row["scipy_pairs"] = s.get("converged", True), s.get("converged_pairs", len(b))
        row["matvecs"] = g["matvecs"]
    else:
        import numpy as np
        from sklearn.metrics import adjusted_rand_score
        gc = np.loadtxt(f"{work}/clusters-gssl.csv", delimiter=",", skiprows=1, usecols=(0, 1), dtype=np.int64, ndmin=2)
        sc = np.load(f"{work}/clusters-scipy.npy")
        lab = np.empty(len(sc), dtype=np.int64)
        lab[gc[:, 0]] = gc[:, 1]
        row["ari_between"] = float(adjusted_rand_score(lab, sc))
        row["gssl_ari"], row["scipy_ari"] = g["ari"], s["ari"]
else:
    row["gssl_load"] = g["load_seconds"]
    row["gssl_task"] = g["seconds"] - g["load_seconds"]
    row["gssl_fit"] = g["fit_seconds"]
    row["gssl_acc"], row["scipy_acc"] = g["test_accuracy_mean"], s.get("test_accuracy")
    row["gssl_iterations"], row["scipy_iterations"] = g["iterations"], sum(s.get("iterations", [])) if s else None
    row["eta"], row["beta"] = g["eta"][0], g["beta"][0]
    row["scipy_relres"] = s.get("max_relative_residual")
print(json.dumps(row))
EOF
			tail -1 "$NEW" >&2
		done
		if [ "$LOCK_SCOPE" = round ]; then
			flock -u 9
			exec 9>&-
		fi
	done
done

"$PY" - "$RES" "$NEW" "$SIZES" <<'EOF'
import json, sys
res, new, sizes = sys.argv[1], sys.argv[2], sys.argv[3].split()
ran = {(r["size"], r["task"]) for r in map(json.loads, open(new)) }
old = [l for l in open(res) if l.strip() and (json.loads(l)["size"], json.loads(l)["task"]) not in ran]
open(res, "w").write("".join(old) + open(new).read())
EOF

"$PY" - "$RES" <<'EOF' > "$WORK/table.md"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
med = lambda xs: statistics.median(xs)
order = {"1M": 0, "10M": 1, "100M": 2}
print("| graph | task | gssl load | scipy load | gssl task | scipy task | ratio | gssl peak RSS | scipy peak RSS | agreement | load avg. |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
sizes = sorted(dict.fromkeys(r["size"] for r in rows), key=lambda s: order.get(s, 9))
for size in sizes:
    for task in ["info", "eigs", "cluster", "stkr"]:
        rs = [r for r in rows if r["size"] == size and r["task"] == task]
        if not rs:
            continue
        m = lambda k: med([r[k] for r in rs]) if all(r.get(k) is not None for r in rs) else None
        gt, st = m("gssl_task"), m("scipy_task")
        stopped = any(r.get("scipy_timeout") for r in rs)
        skipped = any(r.get("scipy_skipped") for r in rs)
        if stopped or skipped:
            agree = "scipy stopped at the time limit" if stopped else "gssl alone (the peer was not run)"
            name = {"info": "info (degrees, components)", "eigs": f"eigs, 10 pairs ({rs[0].get('matvecs')} products)",
                    "cluster": "cluster (k = classes)"}.get(task, f"stkr ({rs[0].get('gssl_iterations', 0):.0f} it.)")
            if task == "eigs":
                agree += f"; gssl residual ≤ {max(r['gssl_residual'] for r in rs):.1e}"
            if task == "cluster":
                agree += f"; gssl's ARI to classes {rs[0]['gssl_ari']:.4f}"
            if task == "stkr":
                agree += f"; gssl's test accuracy {rs[0]['gssl_acc']:.4f}"
        elif task == "info":
            agree = f"statistics {rs[0]['agree']} (every round)" if all(r["agree"] == "equal" for r in rs) else "; ".join(sorted({r["agree"] for r in rs}))
            name = "info (degrees, components)"
        elif task == "eigs":
            conv = all(r.get("scipy_converged", True) for r in rs)
            if conv:
                agree = (f"λ rel. diff. ≤ {max(r['eig_rel'] for r in rs):.1e}; residual ≤ {max(r['gssl_residual'] for r in rs):.1e} / "
                         f"{max(r['scipy_residual'] for r in rs):.1e}")
            else:
                p = min(r["scipy_pairs"] for r in rs)
                agree = (f"ARPACK stopped (--maxiter) with {p} of 10 pairs converged" +
                         (f", those equal to gssl's to {max(r['eig_rel'] for r in rs):.1e}" if p else "") +
                         f"; gssl residual ≤ {max(r['gssl_residual'] for r in rs):.1e}")
            name = f"eigs, 10 pairs ({rs[0]['matvecs']} products)"
        elif task == "cluster":
            agree = (f"ARI gssl–scipy ≥ {min(r['ari_between'] for r in rs):.4f}; ARI to classes {rs[0]['gssl_ari']:.4f} / {rs[0]['scipy_ari']:.4f}; "
                     f"λ rel. diff. ≤ {max(r['eig_rel'] for r in rs):.1e}")
            name = "cluster (k = classes)"
        else:
            agree = f"test accuracy {rs[0]['gssl_acc']:.4f} / {rs[0]['scipy_acc']:.4f}"
            if rs[0].get("scipy_relres") is not None:
                agree += f"; scipy's ‖r‖/‖b‖ ≤ {max(r['scipy_relres'] for r in rs):.1e}"
            name = f"stkr, η = {rs[0]['eta']:g}, β = {rs[0]['beta']:g} ({rs[0]['gssl_iterations']:.0f} / {rs[0]['scipy_iterations']} it.)"
        n = rs[0]["nodes"]
        graph = f"{size} edges ({n / 1e6:g} M nodes), {len(rs)} round{'s' if len(rs) > 1 else ''}"
        bound = ">" if stopped or not all(r.get("scipy_converged", True) for r in rs) else ""
        sl = f"{m('scipy_load'):.2f} s" if m("scipy_load") is not None else "–"
        srss = "–" if stopped or skipped else f"{m('scipy_rss_mb') / 1024:.2f} GB"
        stt = "–" if skipped else f"{bound}{st:.2f} s"
        ratio = "–" if skipped else f"**{'<' if bound else ''}{gt / st:.2f}**"
        print(f"| {graph} | {name} | {m('gssl_load'):.2f} s | {sl} | {gt:.2f} s | {stt} | {ratio} "
              f"| {m('gssl_rss_mb') / 1024:.2f} GB | {srss} | {agree} "
              f"| {min(r['loadavg'] for r in rs):.1f}–{max(r['loadavg'] for r in rs):.1f} |")
EOF
cat "$WORK/table.md"
if [ "${WRITE:-0}" = 1 ]; then
	"$PY" - "$WORK/table.md" "$TOL" "$ETA" "$BETA" <<'EOF'
import sys
table, tol, eta, beta = open(sys.argv[1]).read(), *sys.argv[2:]
text = open("BENCHMARKS.md").read()
title = "## The graph stack at scale"
section = (title + " (`gssl info`, `eigs`, `cluster`, `stkr` on 1 M – 100 M edges)\n\n"
           "`scripts/bench-stack.sh ROUNDS SIZES` (medians of the interleaved rounds, the number in the graph column; "
           "each timed run under the benchmark lock; the load average is the 1-minute one at the end of each pair of runs). "
           "The graphs of *Loading and scale* (`gssl generate sbm`, 20 neighbours per node, 70 % within a class; "
           "5 / 5 / 10 classes). gssl reads the `.gsg` file (labels and split from the folder); the peer is "
           "`scripts/peers/stack_scale.py` (the edge list read once by np.fromstring → CSR as `lp_scale.py` does, "
           "then from its own .npy copy). *Task* excludes the load. "
           f"eigs: `gssl eigs --eigenpairs 10 --tol {tol}` against `eigsh(S, k=10, which='LA', v0, tol={tol})` (ARPACK); "
           f"cluster: `gssl cluster` (k = classes, k-means++ with 10 restarts) against the same eigsh with k = classes, "
           "rows normalised, sklearn `KMeans(n_init=10)`; "
           f"stkr: `gssl stkr --eta {eta} --ridge {beta} --p-test 0` (inverse Laplacian, transductive, MINRES on the symmetrised "
           "system, tol 1e-9) against scipy MINRES per class on the same system, continued until ‖b − Kθ‖/‖b‖ ≤ 1e-9 "
           "(gssl's rule; scipy's own test is relative to ‖K‖‖θ‖ + ‖b‖ and stopped at 5e-8 on the 1M graph); one fit, where gssl's default grid "
           "(3 η × 5 β, chosen on val) is 15. Ratios are gssl / scipy.\n\n" + table)
if title in text:
    start = text.index(title)
    end = text.find("\n## ", start + 1)
    end = end if end >= 0 else len(text)
    old = text[start:end]
    # keep the notes written below the table
    t = old.find("\n| graph")
    tail = old[old.find("\n\n", t) + 1:] if t >= 0 and old.find("\n\n", t) >= 0 else ""
    text = text[:start] + section + ("\n" + tail if tail else "") + text[end:]
else:
    at = text.index("## Label propagation")
    text = text[:at] + section + "\n" + text[at:]
open("BENCHMARKS.md", "w").write(text)
EOF
	go run scripts/figures.go -link # the figures of BENCHMARKS.md follow its tables
fi
