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
elif ! "${PYTHON:-/usr/bin/python3}" - "$tmp/pt-sgc.gssl" "$tmp/pt-bad.gssl" <<'PY'; then
import hashlib, struct, sys
def crc32c(b):
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    c = 0xFFFFFFFF
    for x in b:
        c = t[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
d = bytearray(open(sys.argv[1], "rb").read())
k, v, m = struct.unpack_from("<HHI", d, 32)
count = struct.unpack_from("<I", d, 28)[0]
pos = 44 + k + v + m + 4
for _ in range(count):
    nl = struct.unpack_from("<H", d, pos)[0]
    plen = struct.unpack_from("<Q", d, pos + 16)[0]
    name = bytes(d[pos + 24:pos + 24 + nl]).decode()
    end = pos + 24 + nl + plen
    if name == "probabilities":
        # Row 0, column 0 gains 1: the row sums to 2.
        p = struct.unpack_from("<d", d, pos + 24 + nl)[0]
        struct.pack_into("<d", d, pos + 24 + nl, p + 1)
        struct.pack_into("<I", d, end, crc32c(bytes(d[pos:end])))
    pos = end + 4
d[-32:] = hashlib.sha256(bytes(d[:-32])).digest()
open(sys.argv[2], "wb").write(bytes(d))
PY
	skip "probtables: altered probabilities" "no Python 3"
else
	re='section "probabilities": row 0 sums to 2, not 1'
	expect_error_msg "probtables: predict, an SGC whose stored probabilities sum to 2" "$re" "$gssl" predict --model "$tmp/pt-bad.gssl"
	expect_error_msg "probtables: model info, the same file" "$re" "$gssl" model info "$tmp/pt-bad.gssl"
	expect_error_msg "probtables: serve, the same file" "$re" "$gssl" serve --model "$tmp/pt-bad.gssl" --addr "127.0.0.1:$((20000 + RANDOM % 20000))"
	expect_ok "probtables: predict, the file as saved" 'grep -q "^0,a," "$out"' "$gssl" predict --model "$tmp/pt-sgc.gssl"
fi
