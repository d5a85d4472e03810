# shellcheck shell=bash
# bounds.sh: inputs whose size, numbers or names ask for more than they
# justify (issue #29). Sourced by scripts/hostile.sh with its helpers.
#   memory: dense classes × nodes blocks from a labels column of ids, a
#     Krylov basis past the graph, files of unknown length (/dev/zero);
#   finite arithmetic: finite weights, features and targets so large that
#     sums and squares overflow (1e308), a NaN planted in a model file with
#     its checksums recomputed;
#   outputs over inputs: --out, --save, --cpu-profile naming an input by its
#     path, a symbolic link or a hard link;
#   the server: a small batch naming 10⁷ nodes, a batch of 1.2·10⁶ edges,
#     duplicate keys, invalid UTF-8, new-node weights whose sum overflows.
# The server cases start `gssl serve` on loopback under the same memory
# limit, check the status and that the server still answers, and stop it.

# --- memory ---------------------------------------------------------------
# A ring of 20 000 nodes; every other node labelled with a class of its own
# (a labels column of ids): 10⁴ classes × 2·10⁴ nodes, 1.6 GB per dense block.
awk 'BEGIN { n = 20000; for (i = 0; i < n; i++) print i, (i + 1) % n }' >"$tmp/b-ring.txt"
awk 'BEGIN { for (i = 0; i < 20000; i += 2) print i ",c" i }' >"$tmp/b-idlabels.csv"
expect_error_msg "bounds: labelprop, 10^4 distinct labels (classes x nodes)" '10000 classes × 20000 nodes.*max-memory' \
	"$gssl" labelprop --edges "$tmp/b-ring.txt" --labels "$tmp/b-idlabels.csv" --alpha 0.9
expect_error_msg "bounds: labelprop harmonic, 10^4 distinct labels" '10000 classes × 20000 nodes.*max-memory' \
	"$gssl" labelprop --method harmonic --edges "$tmp/b-ring.txt" --labels "$tmp/b-idlabels.csv"
expect_error_msg "bounds: stkr, 10^4 distinct labels (classes x nodes)" '10000 classes × 20000 nodes.*max-memory' \
	"$gssl" stkr --edges "$tmp/b-ring.txt" --labels "$tmp/b-idlabels.csv"
awk 'BEGIN { printf "id,a,b\n"; for (i = 0; i < 20000; i++) print i "," i % 7 "," i % 3 }' >"$tmp/b-ring-features.csv"
awk 'BEGIN { for (i = 0; i < 20000; i += 2) print i ",c" int(i / 4) }' >"$tmp/b-pairlabels.csv"
expect_error_msg "bounds: classify, 5000 classes of two labels each" '5000 classes × 20000 nodes.*max-memory' \
	"$gssl" classify --edges "$tmp/b-ring.txt" --labels "$tmp/b-pairlabels.csv" --features "$tmp/b-ring-features.csv"
expect_error_msg "bounds: labelprop, 200 classes past --max-memory 1MB" '[0-9]+ classes × 20000 nodes.*--max-memory 1.0MB' \
	"$gssl" labelprop --edges "$tmp/b-ring.txt" --labels "$(file b-200.csv "$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "%d,c%d\\n", i * 100, i }')")" --alpha 0.9 --max-memory 1MB
expect_error_msg "bounds: eigs --basis 2000000000" 'basis 2000000000 is invalid' "$gssl" eigs --edges "$tmp/b-ring.txt" --basis 2000000000
expect_error_msg "bounds: eigs --block 2000000000" 'block 2000000000 is invalid' "$gssl" eigs --edges "$tmp/b-ring.txt" --block 2000000000
expect_error_msg "bounds: eigs --basis 19000 past --max-memory" 'basis vectors × 20000 nodes' "$gssl" eigs --edges "$tmp/b-ring.txt" --basis 19000 --max-memory 100MB
expect_error_msg "bounds: model info /dev/zero" 'not a gssl model' "$gssl" model info /dev/zero
expect_error_msg "bounds: predict --model /dev/zero" 'not a gssl model' "$gssl" predict --model /dev/zero --edges "$tmp/b-ring.txt"
expect_error_msg "bounds: serve --token-file /dev/zero" 'token' "$gssl" serve --model /dev/zero --token-file /dev/zero

# --- finite arithmetic -----------------------------------------------------
printf '0 1 1e308\n1 2 1e308\n2 3 1e308\n3 0 1e308\n0 2 1\n' >"$tmp/b-huge.txt"
printf '0,a\n2,b\n' >"$tmp/b-huge-labels.csv"
expect_error_msg "bounds: eigs, weights 1e308 (degrees overflow)" 'beyond' "$gssl" eigs --edges "$tmp/b-huge.txt" --eigenpairs 2
expect_error_msg "bounds: eigs un, weights 1e200 (squares overflow)" 'beyond' \
	"$gssl" eigs --laplacian un --edges "$(file b-1e200.txt '0 1 1e200\n1 2 1e200\n2 3 1e200\n3 0 1e200\n')" --eigenpairs 2
expect_error_msg "bounds: labelprop, weights 1e308" 'beyond' "$gssl" labelprop --edges "$tmp/b-huge.txt" --labels "$tmp/b-huge-labels.csv" --alpha 0.9
expect_error_msg "bounds: stkr, weights 1e308" 'beyond' "$gssl" stkr --edges "$tmp/b-huge.txt" --labels "$tmp/b-huge-labels.csv"
expect_error_msg "bounds: classify sgc, a node feature of 1e308" 'beyond' \
	"$gssl" classify --edges "$(file b-c6.txt '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n')" --labels "$(file b-c6.csv '0,a\n1,a\n3,b\n4,b\n')" \
	--features "$(file b-c6-features.csv 'id,a,b\n0,1,0\n1,1e308,1\n2,0,1\n3,1,1\n4,0,0\n5,1,0\n')" --model sgc --split none
printf 'x\n1\n2\n1e308\n4\n5\n6\n' >"$tmp/b-pts.csv"
printf 'y\n1\n2\n3\n\n\n\n' >"$tmp/b-pts-y.csv"
expect_error_msg "bounds: gp, a feature of 1e308" 'beyond' "$gssl" gp --features "$tmp/b-pts.csv" --targets "$tmp/b-pts-y.csv" --fixed
expect_error_msg "bounds: gp, a target of 1e308" 'beyond' \
	"$gssl" gp --features "$(file b-pts2.csv 'x\n1\n2\n3\n4\n')" --targets "$(file b-pts2-y.csv 'y\n1\n1e308\n3\n4\n')" --fixed
expect_error_msg "bounds: svm, a feature of 1e308" 'beyond' "$gssl" svm --features "$tmp/b-pts.csv" --labels "$(file b-pts-l.csv 'y\n0\n1\n0\n\n\n\n')"

# A labelprop model of a small graph, for predict and serve.
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n' >"$tmp/b-small.txt"
printf '0,a\n3,b\n' >"$tmp/b-small-labels.csv"
if "$gssl" labelprop --edges "$tmp/b-small.txt" --labels "$tmp/b-small-labels.csv" --alpha 0.9 --save "$tmp/b-model.gssl" >/dev/null 2>&1; then
	expect_error_msg "bounds: predict, new-node weights 1e308 (the prior)" 'beyond' \
		"$gssl" predict --model "$tmp/b-model.gssl" --edges "$(file b-new.txt 'x 0 1e308\nx 3 1e308\n')"
	# Plant a NaN in the model's scores and recompute every checksum (CRC-32C
	# of the section, SHA-256 of the file), as a writer other than gssl could.
	if "${PYTHON:-/usr/bin/python3}" "$root/scripts/hostile.d/gsslfile.py" "$tmp/b-model.gssl" "$tmp/b-nan.gssl" scores nan
	then
		expect_error_msg "bounds: predict, a NaN planted in the model's scores" 'scores' \
			"$gssl" predict --model "$tmp/b-nan.gssl" --edges "$(file b-new1.txt 'x 0 1\n')"
		expect_error_msg "bounds: model info, a NaN planted in the model's scores" 'scores' "$gssl" model info "$tmp/b-nan.gssl"
		expect_error_msg "bounds: serve, a NaN planted in the model's scores" 'scores' "$gssl" serve --model "$tmp/b-nan.gssl" --addr "127.0.0.1:$((20000 + RANDOM % 20000))"
	else
		skip "bounds: NaN planted in a model file" "no Python 3"
	fi
else
	skip "bounds: predict and model cases" "labelprop --save failed"
fi

# --- outputs never replace inputs ------------------------------------------
# Each must be refused and leave the input as it was.
expect_input_kept() { # NAME FILE CMD...
	local name=$1 keep=$2
	shift 2
	cp "$keep" "$tmp/b-keep"
	expect_error_msg "$name" 'never replaces an input' "$@"
	if cmp -s "$keep" "$tmp/b-keep"; then report "$name: the input is unchanged" 0; else report "$name: the input is unchanged" 1 "input overwritten"; fi
}
ln -sf "$tmp/b-small.txt" "$tmp/b-small-sym.txt"
ln -f "$tmp/b-small.txt" "$tmp/b-small-hard.txt"
expect_input_kept "bounds: labelprop --out the --edges file" "$tmp/b-small.txt" \
	"$gssl" labelprop --edges "$tmp/b-small.txt" --labels "$tmp/b-small-labels.csv" --out "$tmp/b-small.txt"
expect_input_kept "bounds: labelprop --out a symbolic link to --edges" "$tmp/b-small.txt" \
	"$gssl" labelprop --edges "$tmp/b-small.txt" --labels "$tmp/b-small-labels.csv" --out "$tmp/b-small-sym.txt"
expect_input_kept "bounds: labelprop --out a hard link to --edges" "$tmp/b-small.txt" \
	"$gssl" labelprop --edges "$tmp/b-small.txt" --labels "$tmp/b-small-labels.csv" --out "$tmp/b-small-hard.txt"
expect_input_kept "bounds: labelprop --save the --labels file" "$tmp/b-small-labels.csv" \
	"$gssl" labelprop --edges "$tmp/b-small.txt" --labels "$tmp/b-small-labels.csv" --save "$tmp/b-small-labels.csv"
expect_input_kept "bounds: eigs --out the --edges file" "$tmp/b-small.txt" "$gssl" eigs --edges "$tmp/b-small.txt" --eigenpairs 2 --out "$tmp/b-small.txt"
expect_input_kept "bounds: --cpu-profile the --edges file" "$tmp/b-small.txt" "$gssl" eigs --edges "$tmp/b-small.txt" --eigenpairs 2 --cpu-profile "$tmp/b-small-hard.txt"
expect_input_kept "bounds: gp --out the --features file" "$tmp/b-pts2.csv" \
	"$gssl" gp --features "$tmp/b-pts2.csv" --targets "$(file b-pts3-y.csv 'y\n1\n2\n3\n4\n')" --fixed --out "$tmp/b-pts2.csv"
if [ -e "$tmp/b-model.gssl" ]; then
	expect_input_kept "bounds: predict --out the --model file" "$tmp/b-model.gssl" \
		"$gssl" predict --model "$tmp/b-model.gssl" --edges "$tmp/b-new1.txt" --out "$tmp/b-model.gssl"
fi
mkdir -p "$tmp/b-data"
cp "$tmp/b-small.txt" "$tmp/b-data/edges.txt"
printf '0 a\n3 b\n' >"$tmp/b-data/labels.txt"
expect_input_kept "bounds: labelprop --out a file of the --data folder" "$tmp/b-data/edges.txt" \
	"$gssl" labelprop --data "$tmp/b-data" --out "$tmp/b-data/edges.txt"

# --- the server ------------------------------------------------------------
# serve_start MODEL: starts gssl serve on a free loopback port under the
# memory limit; sets spid and url, and waits until it answers /healthz.
serve_start() {
	local i
	port=$((20000 + RANDOM % 20000))
	url=http://127.0.0.1:$port
	(
		ulimit -v 4000000
		exec "$gssl" serve --model "$1" --addr "127.0.0.1:$port"
	) >"$tmp/b-serve.out" 2>"$tmp/b-serve.err" </dev/null &
	spid=$!
	for i in $(seq 100); do
		curl -fsS "$url/healthz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
serve_stop() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
}
# serve_expect NAME STATUS-REGEX BODY-FILE: POSTs the body, checks the
# status and that the server still answers /healthz afterwards.
serve_expect() {
	local name=$1 want=$2 body=$3 code
	err=$tmp/b-serve.err
	rm -f "$tmp/b-answer.json"
	code=$(curl -s -o "$tmp/b-answer.json" -w '%{http_code}' --max-time 30 -H 'Content-Type: application/json' -H 'Expect:' --data-binary "@$body" "$url/v1/predict")
	if ! [[ "$code" =~ ^($want)$ ]]; then
		report "$name" 1 "status $code, want $want: $(head -c 200 "$tmp/b-answer.json")"
	elif ! curl -fsS --max-time 5 "$url/healthz" >/dev/null 2>&1; then
		report "$name" 1 "the server no longer answers"
	else
		report "$name" 0
	fi
}

# A graph classifier of a tiny TU data set (cycles and paths).
mkdir -p "$tmp/b-tu"
awk 'BEGIN { node = 0
	for (g = 0; g < 20; g++) { k = 3 + g % 4; base = node
		for (i = 0; i < k; i++) { print g + 1 >"'"$tmp"'/b-tu/T_graph_indicator.txt"; print i % 2 >"'"$tmp"'/b-tu/T_node_labels.txt" }
		node += k
		for (i = 0; i < k - 1; i++) { print base+i+1 ", " base+i+2 >"'"$tmp"'/b-tu/T_A.txt"; print base+i+2 ", " base+i+1 >"'"$tmp"'/b-tu/T_A.txt" }
		if (g % 2 == 0) { print base+1 ", " base+k >"'"$tmp"'/b-tu/T_A.txt"; print base+k ", " base+1 >"'"$tmp"'/b-tu/T_A.txt" }
		print (g % 2 == 0 ? 1 : -1) >"'"$tmp"'/b-tu/T_graph_labels.txt" } }'
if ! command -v curl >/dev/null; then
	skip "bounds: server cases" "no curl"
elif ! "$gssl" graphkernel --data "$tmp/b-tu" --folds 2 --save "$tmp/b-gk.gssl" >/dev/null 2>&1; then
	skip "bounds: server cases" "graphkernel --save failed"
elif ! serve_start "$tmp/b-gk.gssl"; then
	err=$tmp/b-serve.err
	report "bounds: serve starts" 1 "no answer on $url"
	serve_stop
else
	# 1000 graphs of 10 000 nodes: 31 KB within every per-graph limit, 10⁷ nodes.
	awk 'BEGIN { printf "{\"graphs\":["; for (i = 0; i < 1000; i++) printf "%s{\"nodes\":10000,\"edges\":[]}", (i ? "," : ""); print "]}" }' >"$tmp/b-batch.json"
	serve_expect "bounds: serve, 1000 graphs x 10000 nodes in 31 KB" '413|422' "$tmp/b-batch.json"
	# 12 graphs of 100 000 edges (the per-graph limit): 1.2·10⁶ edges in 7 MB.
	awk 'BEGIN { printf "{\"graphs\":["; for (g = 0; g < 12; g++) { printf "%s{\"nodes\":2,\"edges\":[", (g ? "," : ""); for (i = 0; i < 100000; i++) printf "%s[0,1]", (i ? "," : ""); printf "]}" } print "]}" }' >"$tmp/b-edges.json"
	serve_expect "bounds: serve, 12 graphs x 100000 edges" '413|422' "$tmp/b-edges.json"
	printf '{"graphs":[{"nodes":3,"nodes":2,"edges":[]}]}' >"$tmp/b-dup.json"
	serve_expect "bounds: serve, a duplicate key" '400' "$tmp/b-dup.json"
	if ! grep -q '"field":"graphs\[0\].nodes"' "$tmp/b-answer.json"; then report "bounds: serve, the duplicate key is named" 1 "$(head -c 200 "$tmp/b-answer.json")"; else report "bounds: serve, the duplicate key is named" 0; fi
	printf '{"graphs":[{"id":"g\377","nodes":2,"edges":[]}]}' >"$tmp/b-utf8.json"
	serve_expect "bounds: serve, invalid UTF-8 in an id" '400' "$tmp/b-utf8.json"
	serve_stop
fi
# A model of its own, from files of its own: a case above may have
# replaced b-model.gssl or b-small.txt.
if ! command -v curl >/dev/null; then
	skip "bounds: serve, new-node weights" "no curl"
elif ! "$gssl" labelprop --edges "$(file b-serve-edges.txt '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n')" --labels "$(file b-serve-labels.csv '0,a\n3,b\n')" --alpha 0.9 --save "$tmp/b-serve.gssl" >/dev/null 2>&1; then
	skip "bounds: serve, new-node weights" "labelprop --save failed"
elif ! serve_start "$tmp/b-serve.gssl"; then
	err=$tmp/b-serve.err
	report "bounds: serve starts with a labelprop model" 1 "no answer on $url"
	serve_stop
else
	printf '{"nodes":[{"id":"x","edges":[{"to":"0","weight":1e308},{"to":"3","weight":1e308}]}]}' >"$tmp/b-weights.json"
	serve_expect "bounds: serve, new-node weights 1e308 (the prior)" '422' "$tmp/b-weights.json"
	serve_stop
fi
