# Probability tables in model files: a saved SGC whose stored class
# probabilities were altered by a writer that recomputed every checksum
# (CRC-32C of the section, SHA-256 of the file) must be refused by gssl
# predict, model info and serve with the section, the row and its sum
# named, not served as probabilities that do not sum to 1.
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n' >"$tmp/pt-c6.txt"
printf '0,a\n1,a\n3,b\n4,b\n' >"$tmp/pt-c6.csv"
printf 'id,a,b\n0,1,0\n1,1,1\n2,0,1\n3,1,1\n4,0,0\n5,1,0\n' >"$tmp/pt-c6-features.csv"
if ! "$gssl" classify --edges "$tmp/pt-c6.txt" --labels "$tmp/pt-c6.csv" --features "$tmp/pt-c6-features.csv" \
	--classifier sgc --split none --save "$tmp/pt-sgc.gssl" >/dev/null 2>&1; then
	report "probtables: classify sgc --save" 1 "classify --save failed"
elif ! "${PYTHON:-/usr/bin/python3}" "$root/scripts/hostile.d/gsslfile.py" "$tmp/pt-sgc.gssl" "$tmp/pt-bad.gssl" probabilities add1; then
	skip "probtables: altered probabilities" "no Python 3"
else
	re='section "probabilities": row 0 sums to 2, not 1'
	expect_error_msg "probtables: predict, an SGC whose stored probabilities sum to 2" "$re" "$gssl" predict --model "$tmp/pt-bad.gssl"
	expect_error_msg "probtables: model info, the same file" "$re" "$gssl" model info "$tmp/pt-bad.gssl"
	expect_error_msg "probtables: serve, the same file" "$re" "$gssl" serve --model "$tmp/pt-bad.gssl" --addr "127.0.0.1:$((20000 + RANDOM % 20000))"
	expect_ok "probtables: predict, the file as saved" 'grep -q "^0,a," "$out"' "$gssl" predict --model "$tmp/pt-sgc.gssl"
fi
