# A saved WL graph classifier whose metadata declares a dictionary of
# 2^31 − 1 labels, every checksum recomputed as a writer other than gssl
# could: the dictionary's size must be its round-0 labels plus its
# signatures (the sections' own counts), so the file is refused by name
# instead of costing a flag per declared label (2 GB).

if [ ! -d "$data/MUTAG" ]; then
	skip "codec28b: WL model with a declared dictionary of 2^31-1 labels" "no $data/MUTAG"
elif ! "$gssl" graphkernel --data "$data/MUTAG" --kernel wl --folds 2 --seeds 1 --save "$tmp/c-wl.gssl" >/dev/null 2>&1; then
	skip "codec28b: WL model with a declared dictionary of 2^31-1 labels" "graphkernel --save failed"
elif ! "${PYTHON:-/usr/bin/python3}" - "$tmp/c-wl.gssl" "$tmp/c-wl-huge.gssl" "$root/scripts/hostile.d" <<'PY'; then
import hashlib, json, re, struct, sys
sys.path.insert(0, sys.argv[3])
from gsslfile import crc32c
d = bytes(open(sys.argv[1], "rb").read())
k, v, m = struct.unpack_from("<HHI", d, 32)
desc = d[44:44 + k + v + m]
meta = desc[k + v:]
new = re.sub(rb'"dictionary_size":[0-9]+', b'"dictionary_size":2147483647', meta)
assert new != meta and json.loads(new)
rest = d[44 + k + v + m + 4:-32]
desc = desc[:k + v] + new
head = bytearray(d[:40])
struct.pack_into("<I", head, 36, len(new))
size = 40 + 4 + len(desc) + 4 + len(rest) + 32
struct.pack_into("<Q", head, 16, size)
out = bytes(head) + struct.pack("<I", crc32c(bytes(head))) + desc + struct.pack("<I", crc32c(desc)) + rest
out += hashlib.sha256(out).digest()
open(sys.argv[2], "wb").write(out)
PY
	skip "codec28b: WL model with a declared dictionary of 2^31-1 labels" "no Python 3"
else
	expect_error_msg "codec28b: model info, a WL model declaring a dictionary of 2^31-1 labels" 'dictionary of 2147483647 labels' \
		"$gssl" model info "$tmp/c-wl-huge.gssl"
fi
