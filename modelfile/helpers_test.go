package modelfile

import (
	"crypto/sha256"
	"hash/crc32"
)

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

func sha256sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
