package graphfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// Magic is the first 8 bytes of every .gsg file.
const Magic = "GSSLGRPH"

// Version is the format version this package writes and reads.
const Version = 1

// HeaderSize is the size in bytes of the header.
const HeaderSize = 256

// align is the alignment of every section's offset.
const align = 64

// flagUnitWeights marks a graph whose every weight is 1.
const flagUnitWeights = 1 << 0

// knownFlags are the flag bits of version 1.
const knownFlags = flagUnitWeights

// WeightType is how a file stores edge weights.
type WeightType uint32

const (
	// WeightsNone stores no weights: every weight is 1.
	WeightsNone WeightType = iota
	// WeightsFloat32 stores float32 weights.
	WeightsFloat32
	// WeightsFloat64 stores float64 weights.
	WeightsFloat64
)

func (t WeightType) String() string {
	switch t {
	case WeightsNone:
		return "none"
	case WeightsFloat32:
		return "float32"
	case WeightsFloat64:
		return "float64"
	}
	return fmt.Sprintf("WeightType(%d)", uint32(t))
}

// size is the number of bytes per stored weight.
func (t WeightType) size() int64 {
	switch t {
	case WeightsFloat32:
		return 4
	case WeightsFloat64:
		return 8
	}
	return 0
}

// IDType is how a file stores node ids.
type IDType uint32

const (
	// IDsIdentity: node i has id "i"; no section.
	IDsIdentity IDType = iota
	// IDsInt64: ascending non-negative integer ids.
	IDsInt64
	// IDsText: text ids as offsets into a byte section.
	IDsText
)

func (t IDType) String() string {
	switch t {
	case IDsIdentity:
		return "identity"
	case IDsInt64:
		return "int64"
	case IDsText:
		return "text"
	}
	return fmt.Sprintf("IDType(%d)", uint32(t))
}

// Sections, in file order.
const (
	secIndptr = iota
	secIndices
	secWeights
	secDegrees
	secIDs
	secIDText
	numSections
)

var sectionNames = [numSections]string{"row offsets", "columns", "weights", "degrees", "ids", "id text"}

// section is one entry of the section table.
type section struct {
	Offset, Length int64
	CRC            uint32
}

// Header is the decoded header of a .gsg file.
type Header struct {
	Version   uint32
	Flags     uint64
	Nodes     int64
	NNZ       int64
	SelfLoops int64
	FileSize  int64
	Weights   WeightType
	IDs       IDType
	sections  [numSections]section
}

// UnitWeights reports whether every weight of the graph is 1.
func (h *Header) UnitWeights() bool { return h.Flags&flagUnitWeights != 0 }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encode writes the header into b (HeaderSize bytes), checksum included.
func (h *Header) encode(b []byte) {
	clear(b[:HeaderSize])
	le := binary.LittleEndian
	copy(b, Magic)
	le.PutUint32(b[8:], h.Version)
	le.PutUint32(b[12:], HeaderSize)
	le.PutUint64(b[16:], h.Flags)
	le.PutUint64(b[24:], uint64(h.Nodes))
	le.PutUint64(b[32:], uint64(h.NNZ))
	le.PutUint64(b[40:], uint64(h.SelfLoops))
	le.PutUint64(b[48:], uint64(h.FileSize))
	le.PutUint32(b[56:], uint32(h.Weights))
	le.PutUint32(b[60:], uint32(h.IDs))
	for s, sec := range h.sections {
		e := b[64+24*s:]
		le.PutUint64(e, uint64(sec.Offset))
		le.PutUint64(e[8:], uint64(sec.Length))
		le.PutUint32(e[16:], sec.CRC)
	}
	le.PutUint32(b[252:], crc32.Checksum(b[:252], castagnoli))
}

// decodeHeader parses and checks a header against the size of its file. It
// reads only b, which holds at least HeaderSize bytes.
func decodeHeader(b []byte, fileSize int64) (*Header, error) {
	if string(b[:8]) != Magic {
		return nil, fmt.Errorf("not a gssl graph file: the first 8 bytes are %q, want %q", b[:8], Magic)
	}
	le := binary.LittleEndian
	h := &Header{Version: le.Uint32(b[8:])}
	if h.Version != Version {
		if h.Version > Version {
			return nil, fmt.Errorf("format version %d is newer than the version %d this gssl reads", h.Version, Version)
		}
		return nil, fmt.Errorf("unknown format version %d (this gssl reads version %d)", h.Version, Version)
	}
	if got, want := le.Uint32(b[252:]), crc32.Checksum(b[:252], castagnoli); got != want {
		return nil, fmt.Errorf("header checksum %08x, computed %08x: the header is damaged", got, want)
	}
	if hs := le.Uint32(b[12:]); hs != HeaderSize {
		return nil, fmt.Errorf("header size %d, want %d", hs, HeaderSize)
	}
	h.Flags = le.Uint64(b[16:])
	if h.Flags&^knownFlags != 0 {
		return nil, fmt.Errorf("unknown flags %#x", h.Flags&^knownFlags)
	}
	if err := h.decodeCounts(b, fileSize); err != nil {
		return nil, err
	}
	if err := h.decodeSections(b, fileSize); err != nil {
		return nil, err
	}
	if err := h.checkLayout(); err != nil {
		return nil, err
	}
	return h, nil
}

// decodeCounts reads and checks the node, entry and self-loop counts, the
// file size, and the weight and id types.
func (h *Header) decodeCounts(b []byte, fileSize int64) error {
	un := [4]uint64{le.Uint64(b[24:]), le.Uint64(b[32:]), le.Uint64(b[40:]), le.Uint64(b[48:])}
	if un[0] > math.MaxInt32 {
		return fmt.Errorf("%d nodes, at most %d", un[0], math.MaxInt32)
	}
	// nnz ≤ n² and the file must hold 4 bytes per entry: both keep the
	// arithmetic below far from overflow.
	if un[1] > uint64(fileSize)/4 || un[1] > un[0]*un[0] {
		return fmt.Errorf("%d stored entries do not fit %d nodes in a file of %d bytes", un[1], un[0], fileSize)
	}
	if un[2] > un[0] || un[2] > un[1] {
		return fmt.Errorf("%d self loops, more than the %d nodes or %d stored entries", un[2], un[0], un[1])
	}
	h.Nodes, h.NNZ, h.SelfLoops = int64(un[0]), int64(un[1]), int64(un[2])
	if un[3] != uint64(fileSize) {
		return fmt.Errorf("the header gives a file size of %d bytes, the file has %d (truncated or appended to)", un[3], fileSize)
	}
	h.FileSize = fileSize
	h.Weights, h.IDs = WeightType(le.Uint32(b[56:])), IDType(le.Uint32(b[60:]))
	if h.Weights > WeightsFloat64 {
		return fmt.Errorf("unknown weight type %d", uint32(h.Weights))
	}
	if h.IDs > IDsText {
		return fmt.Errorf("unknown id type %d", uint32(h.IDs))
	}
	if h.Weights == WeightsNone && !h.UnitWeights() {
		return fmt.Errorf("no weights stored but the unit-weights flag is not set")
	}
	return nil
}

// decodeSections reads the section table, each section within the file,
// and checks that the reserved bytes are zero.
func (h *Header) decodeSections(b []byte, fileSize int64) error {
	for s := range h.sections {
		e := b[64+24*s:]
		off, n := le.Uint64(e), le.Uint64(e[8:])
		if off > uint64(fileSize) || n > uint64(fileSize) {
			return fmt.Errorf("section %d (%s) at %d, %d bytes, outside the %d-byte file", s, sectionNames[s], off, n, fileSize)
		}
		h.sections[s] = section{Offset: int64(off), Length: int64(n), CRC: le.Uint32(e[16:])}
		if le.Uint32(e[20:]) != 0 {
			return fmt.Errorf("section %d (%s): reserved field not zero", s, sectionNames[s])
		}
	}
	for _, c := range b[208:252] {
		if c != 0 {
			return fmt.Errorf("reserved header bytes 208..251 not zero")
		}
	}
	return nil
}

// checkLayout checks that the sections are where the counts and types put
// them and end at the end of the file.
func (h *Header) checkLayout() error {
	want := layout(h.Nodes, h.NNZ, h.Weights, h.IDs, h.sections[secIDText].Length)
	for s := range want {
		got := h.sections[s]
		if got.Offset != want[s].Offset || got.Length != want[s].Length {
			return fmt.Errorf("section %d (%s) at %d, %d bytes; %d nodes, %d entries, %s weights and %s ids put it at %d, %d bytes",
				s, sectionNames[s], got.Offset, got.Length, h.Nodes, h.NNZ, h.Weights, h.IDs, want[s].Offset, want[s].Length)
		}
		if got.Length == 0 && got.CRC != 0 {
			return fmt.Errorf("section %d (%s) is empty with a checksum", s, sectionNames[s])
		}
	}
	if end := fileEnd(want); end != h.FileSize {
		return fmt.Errorf("the sections end at byte %d, the file has %d", end, h.FileSize)
	}
	return nil
}

// layout returns the canonical offsets and lengths of the sections; text is
// the length of the id text (used for text ids only).
func layout(n, nnz int64, wt WeightType, it IDType, text int64) [numSections]section {
	var len [numSections]int64
	len[secIndptr] = 8 * (n + 1)
	len[secIndices] = 4 * nnz
	len[secWeights] = wt.size() * nnz
	len[secDegrees] = 8 * n
	switch it {
	case IDsInt64:
		len[secIDs] = 8 * n
	case IDsText:
		len[secIDs] = 8 * (n + 1)
		len[secIDText] = text
	}
	var out [numSections]section
	end := int64(HeaderSize)
	for s := range out {
		if len[s] == 0 {
			continue
		}
		off := (end + align - 1) / align * align
		out[s] = section{Offset: off, Length: len[s]}
		end = off + len[s]
	}
	return out
}

// fileEnd is the end of the last present section.
func fileEnd(secs [numSections]section) int64 {
	end := int64(HeaderSize)
	for _, s := range secs {
		if s.Length > 0 {
			end = s.Offset + s.Length
		}
	}
	return end
}

// crcShift computes the CRC-32C of A‖B from crc1 = CRC(A), crc2 = CRC(B) and
// len2 = |B| (zlib's crc32_combine: crc1 is multiplied by x^(8·len2) modulo
// the polynomial by repeated squaring of the one-zero-bit operator).
func crcCombine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = 0x82f63b78 // reversed Castagnoli polynomial
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four zero bits
	for {
		gf2Square(&even, &odd)
		if len2&1 != 0 {
			crc1 = gf2Times(&even, crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
		gf2Square(&odd, &even)
		if len2&1 != 0 {
			crc1 = gf2Times(&odd, crc1)
		}
		len2 >>= 1
		if len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range square {
		square[n] = gf2Times(mat, mat[n])
	}
}
