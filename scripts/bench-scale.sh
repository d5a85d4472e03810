#!/usr/bin/env bash
# Label spreading at scale: gssl against the plain scipy script of the scale
# peer (scripts/peers/lp_scale.py, the shared script with SciPy 1.17's rtol), side by side on the same generated
# graphs, interleaved, under the benchmark lock.
#
#   scripts/bench-scale.sh [ROUNDS] [SIZES]
#
# SIZES is a list of NAME:NODES:CLASSES:ALPHA (default: the three of issue
# #17: 100 k nodes / 1 M edges, 1 M / 10 M and 10 M / 100 M, each with mean
# degree 20, 70 % of edges inside a class, equal degrees). The graphs are
# written once into $SCALE_DIR (default /tmp/gssl-scale) by `gssl generate
# sbm --format folder`, as a .gsg file too, and reused. For each size and
# round it runs, one after the other: gssl labelprop on the text folder,
# gssl labelprop on the .gsg graph (open time), and lp_scale.py; peak RSS is
# /usr/bin/time's maximum resident set. It prints a Markdown table of
# medians and, with WRITE=1, replaces the table of BENCHMARKS.md's "Loading
# and scale" section (its text is left as it is).
# VARIANTS lists gssl settings to time, each NAME or NAME=FLAG,FLAG,…
# (default "float64 float32=--float32"): one table row per size and variant.
# SCIPY_FROM=FILE takes the peer's rows from an earlier results.jsonl
# instead of running it (a shorter hold of the lock; the table's text must
# say so).
# PEERS lists the peers run on SIZES (default "scipy"): scipy (lp_scale.py),
# pyg (scripts/peers/lp_scale_pyg.py: PyTorch Geometric's LabelPropagation
# called as bench/peers.py calls it, with edge_index) and pyg-csr (the same
# with a torch.sparse CSR adjacency, PyG's sparse-dense product instead of
# an E x c message block). Before the rounds, the number of layers is chosen
# once per graph: the smallest whose iterate has every class's relative
# residual <= 1e-6 (lp_scale.py's rtol), found by `lp_scale_pyg.py
# --calibrate --adj csr` (untimed, under the lock; its row is "pyg-calib");
# PYG_LAYERS=N skips that and runs N layers. PyG runs with PYG_THREADS
# threads (default 2, as gssl on this machine) under `watched` (the lock and
# the memory watchdog below): a run the watchdog stops is recorded with the
# limit it hit. With PyG rows a second table ($SCALE_DIR/pyg.md) sets them
# beside gssl's first variant and scipy.
#
# BIG lists graphs too large for a text folder and the peer, each
# NAME:NODES:CLASSES:ALPHA:DEGREE (the billion-edge row of issue #34 is
# BIG=1B:50000000:10:0.9:40 with SIZES="": 50 M nodes, 10⁹ edges,
# power-law degrees γ = 2.5, 47 GB of disk at most, about 20 GB of RAM).
# Each is generated once by `gssl generate sbm --format gsg` (built by
# counting; time and peak RSS recorded), then `gssl labelprop --float32
# --out` (the predictions table written row by row) runs on the .gsg,
# which it maps, twice per round: first with the file's pages dropped
# from the page cache (dd iflag=nocache: read from disk), then with them
# read in first (from cache); BIG_CACHES="cache" runs the second alone. Every run has a watchdog that kills it when
# MemAvailable falls under 2 GB (WATCH_KB), so that other work on the
# machine is not OOM-killed; a killed run is recorded as such. The peers'
# scripts read the edge list into a string and an int64 array before
# anything else, so they need at least the text's bytes plus 16 bytes an
# edge, which the table states against the RAM. With BIG_TEXT=1 the edge
# list is also generated as text and converted by `gssl convert` (time and
# peak RSS recorded). BIG_PEERS (e.g. "scipy scipy-stream pyg") runs those
# peers on that text (BIG_TEXT implied) until they end or the watchdog stops
# them: scipy is lp_scale.py, scipy-stream the same with --stream (the edges
# parsed in blocks into int32, a float32 CSR), pyg lp_scale_pyg.py with
# edge_index; each row has the peak RSS, the time and the last phase the
# peer announced.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SIZES=${2-${SIZES-"1M:100000:5:0.5 10M:1000000:5:0.5 100M:10000000:10:0.9"}} # the second argument, else $SIZES
BIG=${BIG:-}
WATCH_KB=${WATCH_KB:-2097152}
SCALE_DIR=${SCALE_DIR:-/tmp/gssl-scale}
VARIANTS=${VARIANTS:-"float64 float32=--float32"}
PY=${PY:-$(pwd)/.venv-peers/bin/python} # the peer venv (bench/peers-env.sh): the system python3 has no NumPy
PEER=${PEER:-scripts/peers/lp_scale.py}
PEERS=${PEERS:-scipy}
PYG_THREADS=${PYG_THREADS:-2}
LOCK=${LOCK:-/tmp/gssl-bench.lock} # a caller that holds the lock for the whole run passes another file
mkdir -p "$SCALE_DIR"
BIN="$SCALE_DIR/gssl"
go build -o "$BIN" ./cmd/gssl
RES="$SCALE_DIR/results.jsonl"
# The rows of the steps skipped because their output is on disk (the big
# graphs' generation and conversion) are kept from the last run; every
# other row is measured anew.
if [ -f "$RES" ]; then
	"$PY" -c 'import json, sys
for l in open(sys.argv[1]):
    if json.loads(l)["who"] in ("generate-gsg", "generate-txt", "convert"): print(l.strip())' "$RES" > "$RES.kept"
	mv "$RES.kept" "$RES"
else
	: > "$RES"
fi

# peak RSS (MB) of a command run under the benchmark lock, with its stdout
# kept in $SCALE_DIR/out.json. The files named by WARM (the command's input)
# are read first, under the lock: this machine pages out file pages idle
# for a minute (DAMON's pageout scheme, /sys/kernel/mm/damon), so without
# it a load after a long fit would time the disk too, by chance.
timed() {
	WARM=${WARM:-} flock "$LOCK" sh -c 'for f in $WARM; do cat "$f" > /dev/null; done; exec /usr/bin/time -f "%M" -o "$0" "$@"' \
		"$SCALE_DIR/rss.txt" "$@" > "$SCALE_DIR/out.json" 2> "$SCALE_DIR/err.txt" || {
		cat "$SCALE_DIR/err.txt" >&2
		return 1
	}
	echo $(( $(tail -1 "$SCALE_DIR/rss.txt") / 1024 ))
}

# watched CMD…: runs CMD (stdout in $SCALE_DIR/out.json, peak RSS in
# $SCALE_DIR/rss.txt) under the benchmark lock with the memory watchdog;
# writes $SCALE_DIR/killed when the watchdog stopped it. DROP names files
# whose page cache is dropped first, WARM files read in first. The
# watchdog also samples the command's private and file-backed resident
# pages (RssAnon, RssFile of /proc/PID/status) and writes, in kB, those of
# the sample with the largest sum to $SCALE_DIR/rssparts.txt: a mapped .gsg
# counts as file pages, the fit's blocks as private ones.
watched() {
	rm -f "$SCALE_DIR/killed"
	DROP=${DROP:-} WARM=${WARM:-} WATCH_KB=$WATCH_KB flock "$LOCK" bash -c '
		rss=$1; shift
		for f in $DROP; do dd if="$f" iflag=nocache count=0 status=none; done
		for f in $WARM; do cat "$f" > /dev/null; done
		/usr/bin/time -f "%M %e %U+%S" -o "$rss" "$@" &
		pid=$!
		killed=0 anon=0 file=0
		while kill -0 "$pid" 2> /dev/null; do
			if [ "$(awk "/MemAvailable/ {print \$2}" /proc/meminfo)" -lt "$WATCH_KB" ]; then
				pkill -KILL -P "$pid" && killed=1 # the command, child of time
			fi
			read -r a f < <(cat /proc/"$(pgrep -P "$pid" | head -1)"/status 2> /dev/null | awk "/^RssAnon/ {a = \$2} /^RssFile/ {f = \$2} END {print a + 0, f + 0}")
			if [ $((a + f)) -gt $((anon + file)) ]; then anon=$a file=$f; fi
			sleep 0.2
		done
		echo "$anon $file" > "$(dirname "$rss")/rssparts.txt"
		wait "$pid" || [ "$killed" = 1 ] || exit 1
		[ "$killed" = 0 ] || echo "MemAvailable under $WATCH_KB kB" > "$(dirname "$rss")/killed"' \
		_ "$SCALE_DIR/rss.txt" "$@" > "$SCALE_DIR/out.json" 2> "$SCALE_DIR/err.txt" || {
		cat "$SCALE_DIR/err.txt" >&2
		return 1
	}
}

# pyg NAME DIR ALPHA LAYERS ADJ [--calibrate]: one run of lp_scale_pyg.py
# under `watched`, its row appended to $RES ("pyg", "pyg-csr", or
# "pyg-calib" with --calibrate); with LAYERS empty (no calibrated count)
# the run is not made and the row says so.
pyg() {
	local name=$1 dir=$2 alpha=$3 layers=$4 adj=$5 calib=${6:-}
	local who=pyg load
	[ "$adj" = csr ] && who=pyg-csr
	[ -n "$calib" ] && who=pyg-calib
	load=$(cut -d' ' -f1 /proc/loadavg)
	rm -f "$SCALE_DIR/killed"
	if [ -n "$layers" ]; then
		# shellcheck disable=SC2086 # $calib is a flag or nothing
		WARM="$dir/edges.txt $dir/labels.txt $dir/split_planetoid.txt" watched "$PY" -W ignore scripts/peers/lp_scale_pyg.py \
			"$dir" "$alpha" --layers "$layers" --adj "$adj" --threads "$PYG_THREADS" $calib || true
	else
		echo "no layer count: the calibration failed" > "$SCALE_DIR/err.txt"
		: > "$SCALE_DIR/out.json"
	fi
	"$PY" - "$name" "$who" "$SCALE_DIR" "$load" "$layers" >> "$RES" <<'EOF'
import json, os, sys
name, who, d, load, layers = sys.argv[1:]
row = {"size": name, "who": who, "load1": float(load)}
lines = open(f"{d}/out.json").read().strip().splitlines()
if layers:
    rss, secs, _ = open(f"{d}/rss.txt").read().strip().splitlines()[-1].split()
    row.update(rss_mb=int(rss) // 1024, seconds=float(secs))
if os.path.exists(f"{d}/killed"):
    row["failed"] = "killed by the watchdog: " + open(f"{d}/killed").read().strip()
elif lines and lines[-1].startswith("{"):
    o = json.loads(lines[-1])
    row.update(layers=o.get("layers"), load=o.get("load"), fit=o.get("solve"), acc=o.get("acc"),
               residual=o.get("residual"), peer=o.get("peer"), calib_seconds=o.get("calibration", {}).get("seconds"))
    if "error" in o:
        row["failed"] = o["error"]
else:
    err = open(f"{d}/err.txt").read().strip().splitlines()
    row["failed"] = err[-1] if err else "no output"
print(json.dumps(row))
EOF
}

for spec in $SIZES; do
	IFS=: read -r name nodes classes alpha <<< "$spec"
	dir="$SCALE_DIR/sbm-$name"
	if [ ! -f "$dir/split_planetoid.txt" ]; then
		echo "generating $name ($nodes nodes)" >&2
		"$BIN" generate sbm --nodes "$nodes" --classes "$classes" --degree 20 --mixing 0.3 --exponent inf \
			--per-class 20 --val 500 --test 1000 --seed 1 --format folder --out "$dir" >&2
	fi
	if [ ! -f "$dir.gsg" ]; then
		"$BIN" convert "$dir" "$dir.gsg" >&2
	fi
	bytes=$(stat -c %s "$dir/edges.txt")
	layers=${PYG_LAYERS:-}
	case " $PEERS " in *" pyg "* | *" pyg-csr "*)
		if [ -z "$layers" ] && [ "$ROUNDS" -gt 0 ]; then
			echo "$name: PyG layers for residual 1e-6" >&2
			pyg "$name" "$dir" "$alpha" auto csr --calibrate
			layers=$(tail -1 "$RES" | "$PY" -c 'import json, sys; print(json.load(sys.stdin).get("layers") or "")')
		fi
		;;
	esac
	for r in $(seq "$ROUNDS"); do
		echo "$name round $r" >&2
		for variant in $VARIANTS; do
			vname=${variant%%=*}
			vflags=""
			[ "$variant" != "$vname" ] && vflags=${variant#*=}
			# shellcheck disable=SC2086 # the flags are words
			rss=$(WARM="$dir/edges.txt $dir/labels.txt $dir/split_planetoid.txt" timed "$BIN" labelprop --data "$dir" --split planetoid --alpha "$alpha" ${vflags//,/ } --json)
			"$PY" - "$name" "$bytes" "$rss" "$SCALE_DIR/out.json" gssl "$vname" "${vflags//,/ }" >> "$RES" <<'EOF'
import json, sys
name, nbytes, rss, path, who, variant, flags = sys.argv[1:]
o = json.load(open(path))
print(json.dumps({"size": name, "who": who, "variant": variant, "flags": flags, "bytes": int(nbytes), "rss_mb": int(rss),
                  "load": o.get("load_seconds"), "fit": o.get("fit_seconds"), "acc": o.get("test_accuracy"),
                  "iterations": o.get("iterations")}))
EOF
		done
		rss=$(WARM="$dir.gsg" timed "$BIN" info "$dir.gsg" --json)
		"$PY" - "$name" "$rss" "$SCALE_DIR/out.json" >> "$RES" <<'EOF'
import json, sys
name, rss, path = sys.argv[1:]
o = json.load(open(path))
print(json.dumps({"size": name, "who": "gsg-open", "rss_mb": int(rss), "load": o.get("load_seconds", o.get("seconds"))}))
EOF
		case " $PEERS " in *" scipy "*)
			if [ -n "${SCIPY_FROM:-}" ]; then
				# the peer's rows of an earlier run of this script (say so in
				# the table's text): the peer's figures do not depend on gssl
				"$PY" -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["size"] == sys.argv[2] and r["who"] == "scipy": print(l.strip())' "$SCIPY_FROM" "$name" >> "$RES"
			else
				rss=$(WARM="$dir/edges.txt $dir/labels.txt $dir/split_planetoid.txt" timed "$PY" "$PEER" "$dir" "$alpha")
				"$PY" - "$name" "$bytes" "$rss" "$SCALE_DIR/out.json" scipy >> "$RES" <<'EOF'
import json, sys
name, nbytes, rss, path, who = sys.argv[1:]
o = json.loads(open(path).read().strip().splitlines()[-1])
print(json.dumps({"size": name, "who": who, "bytes": int(nbytes), "rss_mb": int(rss),
                  "load": o["load"], "fit": o["solve"], "acc": o["acc"]}))
EOF
			fi
			;;
		esac
		for peer in $PEERS; do
			case $peer in
			pyg) pyg "$name" "$dir" "$alpha" "$layers" edge_index ;;
			pyg-csr) pyg "$name" "$dir" "$alpha" "$layers" csr ;;
			esac
		done
	done
done

# big_peers NAME PREFIX ALPHA: the peers of BIG_PEERS on the big graph's text
# (a folder of links to PREFIX.edges.txt, .labels.txt, .split.txt), each
# under `watched` until it ends or the watchdog stops it; the row records
# the peak RSS, the time and the last phase the peer announced on stderr.
big_peers() {
	local name=$1 prefix=$2 alpha=$3 dir="$2-peer" peer load
	mkdir -p "$dir"
	ln -sf "$prefix.edges.txt" "$dir/edges.txt"
	ln -sf "$prefix.labels.txt" "$dir/labels.txt"
	ln -sf "$prefix.split.txt" "$dir/split_planetoid.txt"
	for peer in $BIG_PEERS; do
		echo "$name: $peer until it ends or fails" >&2
		load=$(cut -d' ' -f1 /proc/loadavg)
		case $peer in
		scipy) watched "$PY" -W ignore "$PEER" "$dir" "$alpha" || true ;;
		scipy-stream) watched "$PY" -W ignore "$PEER" "$dir" "$alpha" --stream || true ;;
		pyg) watched "$PY" -W ignore scripts/peers/lp_scale_pyg.py "$dir" "$alpha" --layers 26 --adj edge_index \
			--threads "$PYG_THREADS" || true ;;
		esac
		"$PY" - "$name" "$peer" "$SCALE_DIR" "$load" >> "$RES" <<'EOF'
import json, os, sys
name, who, d, load = sys.argv[1:]
row = {"size": name, "who": "big-" + who, "load1": float(load)}
rss, secs, cpu = open(f"{d}/rss.txt").read().strip().splitlines()[-1].split()
row.update(rss_mb=int(rss) // 1024, seconds=float(secs), cpu=sum(map(float, cpu.split("+"))))
err = [l for l in open(f"{d}/err.txt").read().splitlines() if l.strip()]
phases = [l for l in err if l.startswith("lp_scale")]  # lp_scale.py and lp_scale_pyg.py announce their phases
row["last_phase"] = phases[-1] if phases else (err[-1] if err else "")
if os.path.exists(f"{d}/killed"):
    row["failed"] = "killed by the watchdog: " + open(f"{d}/killed").read().strip()
else:
    lines = open(f"{d}/out.json").read().strip().splitlines()
    if lines and lines[-1].startswith("{"):
        o = json.loads(lines[-1])
        row.update(load=o.get("load"), fit=o.get("solve"), acc=o.get("acc"))
    else:
        row["failed"] = err[-1] if err else "no output"
print(json.dumps(row))
EOF
	done
}

for spec in $BIG; do
	IFS=: read -r name nodes classes alpha degree <<< "$spec"
	prefix="$SCALE_DIR/sbm-$name"
	gen=(generate sbm --nodes "$nodes" --classes "$classes" --degree "$degree" --exponent 2.5 --mixing 0.3
		--per-class 20 --val 500 --test 1000 --seed 1 --max-memory 22GB --spin 0 --json)
	if [ ! -f "$prefix.gsg" ]; then
		echo "generating $name ($nodes nodes, .gsg)" >&2
		load=$(cut -d' ' -f1 /proc/loadavg)
		watched "$BIN" "${gen[@]}" --format gsg --out "$prefix"
		read -r rss secs cpu < <(tail -1 "$SCALE_DIR/rss.txt") # a killed run has time's note first
		echo "{\"size\": \"$name\", \"who\": \"generate-gsg\", \"rss_mb\": $((rss / 1024)), \"seconds\": $secs, \"cpu\": $(awk "BEGIN {print $cpu}"), \"load1\": $load}" >> "$RES"
	fi
	if { [ "${BIG_TEXT:-0}" = 1 ] || [ -n "${BIG_PEERS:-}" ]; } && [ ! -f "$prefix-text.gsg" ]; then
		echo "generating $name as text, converting" >&2
		watched "$BIN" "${gen[@]}" --format txt --out "$prefix"
		read -r rss secs cpu < <(tail -1 "$SCALE_DIR/rss.txt") # a killed run has time's note first
		echo "{\"size\": \"$name\", \"who\": \"generate-txt\", \"rss_mb\": $((rss / 1024)), \"seconds\": $secs, \"cpu\": $(awk "BEGIN {print $cpu}"), \"bytes\": $(stat -c %s "$prefix.edges.txt")}" >> "$RES"
		watched "$BIN" convert "$prefix.edges.txt" "$prefix-text.gsg" --spin 0 --json
		read -r rss secs cpu < <(tail -1 "$SCALE_DIR/rss.txt") # a killed run has time's note first
		echo "{\"size\": \"$name\", \"who\": \"convert\", \"rss_mb\": $((rss / 1024)), \"seconds\": $secs, \"cpu\": $(awk "BEGIN {print $cpu}")}" >> "$RES"
	fi
	if [ -n "${BIG_PEERS:-}" ]; then
		big_peers "$name" "$prefix" "$alpha"
	fi
	for r in $(seq "$ROUNDS"); do
		for cache in ${BIG_CACHES:-disk cache}; do
			echo "$name round $r from $cache" >&2
			drop="" warm=""
			if [ "$cache" = disk ]; then drop="$prefix.gsg"; else warm="$prefix.gsg"; fi
			load=$(cut -d' ' -f1 /proc/loadavg) # the machine's load before the run, for the table's text
			DROP=$drop WARM=$warm watched "$BIN" labelprop --edges "$prefix.gsg" --labels "$prefix.labels.csv" \
				--split "$prefix.split.txt" --alpha "$alpha" --float32 --spin 0 --json --out "$prefix.pred.csv"
			read -r rss secs cpu < <(tail -1 "$SCALE_DIR/rss.txt") # a killed run has time's note first
			read -r anon file < "$SCALE_DIR/rssparts.txt"
			note=""
			[ -f "$SCALE_DIR/killed" ] && note=killed
			"$PY" - "$name" "$cache" "$rss" "$secs" "$cpu" "$note" "$SCALE_DIR/out.json" "$load" "$anon" "$file" >> "$RES" <<'EOF'
import json, sys
name, cache, rss, secs, cpu, note, path, load, anon, file = sys.argv[1:]
row = {"size": name, "who": "gssl-big", "variant": "float32", "cache": cache, "rss_mb": int(rss) // 1024, "seconds": float(secs),
       "cpu": sum(map(float, cpu.split("+"))), "load1": float(load), "anon_mb": int(anon) // 1024, "file_mb": int(file) // 1024}
if note:
    row["killed"] = "MemAvailable under the watchdog's floor"
else:
    o = json.load(open(path))
    row.update(load=o.get("load_seconds"), fit=o.get("fit_seconds"), acc=o.get("test_accuracy"), iterations=o.get("iterations"))
print(json.dumps(row))
EOF
		done
	done
	# The peer's lower bound: the text of the edge list (2·log10(n) + 2
	# bytes a line, estimated when no text was written) plus its int64 array.
	"$PY" - "$name" "$nodes" "$degree" "$prefix.edges.txt" >> "$RES" <<'EOF'
import json, math, os, sys
name, n, d, text = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
m = n * d / 2
tb = os.path.getsize(text) if os.path.exists(text) else m * (2 * (math.log10(n) - 0.1) + 2)
ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
print(json.dumps({"size": name, "who": "scipy-bound", "edges": m, "text_gb": tb / 1e9, "need_gb": (tb + 16 * m) / 1e9, "ram_gb": ram / 1e9}))
EOF
done
if [ -n "$BIG" ]; then
	"$PY" - "$RES" <<'EOF' > "$SCALE_DIR/big.md"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda xs: statistics.median(xs) if xs else float("nan")
print("| graph | step | time (CPU) | peak RSS | accuracy | SciPy |")
print("|---|---|---:|---:|---|---|")
for size in dict.fromkeys(r["size"] for r in rows if r["who"] in ("gssl-big", "generate-gsg", "scipy-bound")):
    b = next((r for r in rows if r["size"] == size and r["who"] == "scipy-bound"), None)
    peer = f"not run: needs ≥ {b['need_gb']:.1f} GB (text {b['text_gb']:.1f} GB + int64 edges) of {b['ram_gb']:.0f} GB" if b else ""
    for who, label in (("generate-gsg", "`gssl generate sbm --format gsg`"), ("generate-txt", "`gssl generate sbm --format txt`"), ("convert", "`gssl convert` text → .gsg")):
        for r in rows:
            if r["size"] == size and r["who"] == who:
                load = f", load average {r['load1']:g} before" if "load1" in r else ""
                print(f"| {size} edges | {label}{load} | {r['seconds']:.0f} s ({r.get('cpu', float('nan')):.0f} s) | {r['rss_mb']/1024:.2f} GB | | |")
    for cache in ("disk", "cache"):
        g = [r for r in rows if r["size"] == size and r["who"] == "gssl-big" and r["cache"] == cache]
        if not g:
            continue
        if any("killed" in r for r in g):
            print(f"| {size} edges | labelprop --float32 from {cache} | killed by the watchdog | {max(r['rss_mb'] for r in g)/1024:.2f} GB | | {peer} |")
            continue
        load = "".join(f", load average {r['load1']:g} before" for r in g[:1] if "load1" in r)
        load += "".join(f"; RSS {r['anon_mb']/1024:.2f} GB private + {r['file_mb']/1024:.2f} GB file pages" for r in g[:1] if "anon_mb" in r)
        print(f"| {size} edges | labelprop --float32 from {cache}: load {med([r['load'] for r in g]):.1f} s, fit {med([r['fit'] for r in g]):.1f} s ({g[0]['iterations']} it.){load} "
              f"| {med([r['seconds'] for r in g]):.0f} s ({med([r.get('cpu', float('nan')) for r in g]):.0f} s) | {med([r['rss_mb'] for r in g])/1024:.2f} GB | {g[0]['acc']:.4f} | {peer} |")
    labels = {"big-scipy": "SciPy, `lp_scale.py`", "big-scipy-stream": "SciPy, `lp_scale.py --stream` (int32 blocks, float32 CSR)",
              "big-pyg": "PyG, `lp_scale_pyg.py --adj edge_index`"}
    for r in rows:
        if r["size"] == size and r["who"] in labels:
            what = r.get("failed", f"accuracy {r.get('acc')}")
            print(f"| {size} edges | {labels[r['who']]}, load average {r['load1']:g} before | {r['seconds']:.0f} s ({r['cpu']:.0f} s) "
                  f"| {r['rss_mb']/1024:.2f} GB | | {what}; last phase: {r['last_phase']} |")
EOF
	cat "$SCALE_DIR/big.md"
fi

"$PY" - "$RES" "$ROUNDS" <<'EOF' > "$SCALE_DIR/table.md"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda xs: statistics.median(xs) if xs else float("nan")
print("| graph | gssl | text | gssl load | scipy load | load ratio | gssl MB/s | .gsg open | gssl fit | s / it. | scipy solve | fit ratio | gssl peak RSS | scipy peak RSS | RSS ratio | accuracy gssl / scipy |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for size in dict.fromkeys(r["size"] for r in rows):
    s = [r for r in rows if r["size"] == size and r["who"] == "scipy"]
    o = [r for r in rows if r["size"] == size and r["who"] == "gsg-open"]
    sl, sf, sr = med([r["load"] for r in s]), med([r["fit"] for r in s]), med([r["rss_mb"] for r in s])
    sa = f"{s[0]['acc']:.4f}" if s else "—"
    for variant in dict.fromkeys(r.get("variant", "") for r in rows if r["size"] == size and r["who"] == "gssl"):
        g = [r for r in rows if r["size"] == size and r["who"] == "gssl" and r.get("variant", "") == variant]
        gl, gf, gr = med([r["load"] for r in g]), med([r["fit"] for r in g]), med([r["rss_mb"] for r in g])
        mb = g[0]["bytes"] / 1e6
        it = g[0]["iterations"]
        label = variant + (f" (`{g[0]['flags']}`)" if g[0].get("flags") else "")
        print(f"| {size} edges | {label} | {mb:.0f} MB | {gl:.2f} s | {sl:.2f} s | {gl/sl:.2f} | {mb/gl:.0f} | {med([r['load'] for r in o]):.2f} s "
              f"| {gf:.2f} s ({it} it.) | {gf/max(it, 1):.2f} s | {sf:.2f} s | {gf/sf:.2f} | {gr/1024:.2f} GB | {sr/1024:.2f} GB | {gr/sr:.2f} "
              f"| {g[0]['acc']:.4f} / {sa} |")
EOF
cat "$SCALE_DIR/table.md"
if grep -q '"who": "pyg' "$RES"; then
	"$PY" - "$RES" > "$SCALE_DIR/pyg.md" <<'EOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
med = lambda xs: statistics.median(xs) if xs else float("nan")
spread = lambda xs: f" ({min(xs):.2f}–{max(xs):.2f})" if len(xs) > 1 else ""
calls = {"pyg": "edge_index", "pyg-csr": "torch.sparse CSR"}
print("| graph | PyG call | layers | PyG load | PyG solve | s / layer | gssl fit | scipy solve | fit gssl / PyG | PyG peak RSS | gssl peak RSS | RSS gssl / PyG | accuracy gssl / scipy / PyG | PyG residual | rounds |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
for size in dict.fromkeys(r["size"] for r in rows if r["who"] in calls):
    pick = lambda who: [r for r in rows if r["size"] == size and r["who"] == who]
    g, s = pick("gssl"), pick("scipy")
    g = [r for r in g if r.get("variant") == g[0].get("variant")] if g else g
    gf, gr = med([r["fit"] for r in g]), med([r["rss_mb"] for r in g])
    gname = f"{g[0]['variant']} " if g else ""
    ga = f"{g[0]['acc']:.4f}" if g else "—"
    sa = f"{s[0]['acc']:.4f}" if s else "—"
    sf = f"{med([r['fit'] for r in s]):.2f} s" if s else "—"
    for who, call in calls.items():
        p = pick(who)
        if not p:
            continue
        bad = [r for r in p if "failed" in r]
        if bad:
            r = bad[0]
            peak = f"{r['rss_mb']/1024:.2f} GB" if "rss_mb" in r else "—"
            print(f"| {size} edges | {call} | {r.get('layers') or '—'} | failed: {r['failed']} | after {r.get('seconds', float('nan')):.0f} s | | {gf:.2f} s | {sf} | | {peak} at the stop | {gr/1024:.2f} GB | | {ga} / {sa} / — | | {len(p)} |")
            continue
        pl, pf, pr = [r["load"] for r in p], [r["fit"] for r in p], [r["rss_mb"] for r in p]
        L = p[0]["layers"]
        print(f"| {size} edges | {call} | {L} | {med(pl):.2f} s | {med(pf):.2f} s{spread(pf)} | {med(pf)/max(L, 1):.3f} s | {gname}{gf:.2f} s{spread([r['fit'] for r in g])} "
              f"| {sf} | {gf/med(pf):.2f} | {med(pr)/1024:.2f} GB | {gr/1024:.2f} GB | {gr/med(pr):.2f} | {ga} / {sa} / {p[0]['acc']:.4f} | {p[0]['residual']:.1e} | {len(p)} |")
for r in rows:
    if r["who"] == "pyg-calib":
        what = f"{r['layers']} layers, calibration {r['calib_seconds']:.1f} s" if r.get("layers") is not None else r.get("failed", "")
        print(f"\n{r['size']}: PyG layers for residual 1e-6 (`lp_scale_pyg.py --calibrate --adj csr`): {what}", end="")
print()
EOF
	cat "$SCALE_DIR/pyg.md"
fi
if [ "${WRITE:-0}" = 1 ]; then
	# Only the table is replaced: the section's text (what was run, when,
	# and what the figures mean) is the caller's to update.
	"$PY" - "$SCALE_DIR/table.md" <<'EOF'
import sys
table = open(sys.argv[1]).read()
text = open("BENCHMARKS.md").read()
section = text.index("## Loading and scale")
start = text.index("| graph | gssl | text |", section)
end = text.index("\n\n", start) + 1
open("BENCHMARKS.md", "w").write(text[:start] + table + text[end:])
EOF
	go run scripts/figures.go -link # the figures of BENCHMARKS.md follow its tables
fi
