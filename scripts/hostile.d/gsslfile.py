"""Rewrites a gssl model file as a writer other than gssl could, recomputing
every checksum (the section's CRC-32C, the file's SHA-256), for the hostile
cases of scripts/hostile.d.

    gsslfile.py IN OUT SECTION OP

OP is what happens to the first float64 of SECTION's payload: "nan" makes it
NaN, "add1" adds 1 to it. Importable: crc32c(bytes) for cases that rewrite
other parts of the file (the layout is modelfile's doc.go)."""
import hashlib
import struct
import sys


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


def edit_first_float(d, section, op):
    """Applies op to the first float64 of the named section of file bytes d, in place."""
    k, v, m = struct.unpack_from("<HHI", d, 32)
    count = struct.unpack_from("<I", d, 28)[0]
    pos = 44 + k + v + m + 4
    for _ in range(count):
        nl = struct.unpack_from("<H", d, pos)[0]
        plen = struct.unpack_from("<Q", d, pos + 16)[0]
        name = bytes(d[pos + 24:pos + 24 + nl]).decode()
        end = pos + 24 + nl + plen
        if name == section:
            at = pos + 24 + nl
            struct.pack_into("<d", d, at, op(struct.unpack_from("<d", d, at)[0]))
            struct.pack_into("<I", d, end, crc32c(bytes(d[pos:end])))
            d[-32:] = hashlib.sha256(bytes(d[:-32])).digest()
            return
        pos = end + 4
    raise SystemExit(f"gsslfile.py: no section {section!r}")


if __name__ == "__main__":
    src, dst, section, what = sys.argv[1:]
    ops = {"nan": lambda x: float("nan"), "add1": lambda x: x + 1}
    d = bytearray(open(src, "rb").read())
    edit_first_float(d, section, ops[what])
    open(dst, "wb").write(bytes(d))
