package graphfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strconv"
	"unsafe"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/nodeids"
)

// Verify says how much of a file Open checks beyond its header (see the
// package documentation).
type Verify int

const (
	// VerifyAll checks the section checksums, then the structure: the
	// default.
	VerifyAll Verify = iota
	// VerifyStructure checks the structure of the graph and the ids but not
	// the checksums.
	VerifyStructure
	// VerifyNone trusts the arrays; only the header and the ids are
	// checked.
	VerifyNone
)

func (v Verify) String() string {
	switch v {
	case VerifyAll:
		return "all"
	case VerifyStructure:
		return "structure"
	case VerifyNone:
		return "none"
	}
	return fmt.Sprintf("Verify(%d)", int(v))
}

// OpenOptions controls Open. The zero value verifies everything.
type OpenOptions struct {
	Verify Verify
	// Shared maps the file read-only and shared instead of reading a
	// private snapshot: no copy, and the pages are shared by every process
	// that maps the file, but the file must then not be truncated or
	// rewritten while it is open (a truncated page faults with SIGBUS and
	// kills the process; a rewritten one changes the graph under the
	// reader). For files that nothing replaces while they are in use.
	Shared bool
}

// File is an open .gsg file. Graph and IDs are valid until Close; IDs hold
// their own memory, the Graph's arrays are the file's snapshot (or, with
// OpenOptions.Shared, its mapped pages).
type File struct {
	Header Header
	Graph  *graph.CSR
	IDs    *nodeids.Map

	path    string
	release []func() error
}

// Open reads a private snapshot of the .gsg file at path and returns its
// graph and ids, after the checks of VerifyAll.
func Open(path string) (*File, error) { return OpenWith(path, OpenOptions{}) }

// OpenWith is Open with options.
func OpenWith(path string, opt OpenOptions) (*File, error) {
	if opt.Verify < VerifyAll || opt.Verify > VerifyNone {
		return nil, fmt.Errorf("graphfile: unknown verification level %d", int(opt.Verify))
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("graphfile: %w", err)
	}
	defer f.Close()
	h, size, err := readHeader(f)
	if err != nil {
		return nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	load := snapshotFile
	if opt.Shared {
		load = mapFile
	}
	data, unmap, err := load(f, size)
	if err != nil {
		return nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	gf := &File{Header: *h, path: path, release: []func() error{unmap}}
	if err := gf.decode(data, opt); err != nil {
		_ = gf.Close()
		return nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	return gf, nil
}

// Read reads the .gsg file at path into memory (no mapping: the graph stays
// valid without a Close), with the checks of VerifyAll.
func Read(path string) (*graph.CSR, *nodeids.Map, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("graphfile: %w", err)
	}
	defer f.Close()
	h, size, err := readHeader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	data, err := readAll(f, size)
	if err != nil {
		return nil, nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	gf := &File{Header: *h, path: path}
	if err := gf.decode(data, OpenOptions{}); err != nil {
		return nil, nil, fmt.Errorf("graphfile: %s: %w", inputfile.Display(path), err)
	}
	return gf.Graph, gf.IDs, nil
}

// IsGraphFile reports whether the file at path starts with the .gsg magic.
func IsGraphFile(path string) bool {
	f, err := inputfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(Magic))
	_, err = io.ReadFull(f, b)
	return err == nil && HasMagic(b)
}

// HasMagic reports whether b starts with the .gsg magic bytes.
func HasMagic(b []byte) bool { return len(b) >= len(Magic) && string(b[:len(Magic)]) == Magic }

// Close releases the mapping. The graph must not be used afterwards.
func (f *File) Close() error {
	var err error
	for k := len(f.release) - 1; k >= 0; k-- {
		if e := f.release[k](); e != nil && err == nil {
			err = fmt.Errorf("graphfile: %s: %w", inputfile.Display(f.path), e)
		}
	}
	f.release = nil
	f.Graph = nil
	return err
}

// readHeader reads and checks the header of f.
func readHeader(f *os.File) (*Header, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		return nil, 0, errors.New("not a regular file")
	}
	b := make([]byte, HeaderSize)
	if size < HeaderSize {
		n, _ := io.ReadFull(f, b)
		if HasMagic(b[:n]) || n < len(Magic) {
			return nil, 0, fmt.Errorf("the file has %d bytes, fewer than the %d-byte header (truncated?)", size, HeaderSize)
		}
		return nil, 0, fmt.Errorf("not a gssl graph file: the first 8 bytes are %q, want %q", b[:8], Magic)
	}
	if _, err := f.ReadAt(b, 0); err != nil {
		return nil, 0, err
	}
	h, err := decodeHeader(b, size)
	return h, size, err
}

// readAll reads size bytes of f into 8-byte aligned memory.
func readAll(f *os.File, size int64) ([]byte, error) {
	if int64(int(size)) != size {
		return nil, fmt.Errorf("the file's %d bytes exceed the address space", size)
	}
	words := make([]uint64, (size+7)/8)
	data := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)[:size]
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, err
	}
	return data, nil
}

// inPlace reports whether the arrays can be used where they lie: int is 64
// bits and the byte order little-endian. Tests turn it off to exercise the
// copying path.
var inPlace = strconv.IntSize == 64 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// checksumChunk is the number of bytes one goroutine checksums at a time
// (a variable for the tests).
var checksumChunk = int64(4 << 20)

// decode checks data (the whole file, header already checked) and builds
// the graph and ids.
func (f *File) decode(data []byte, opt OpenOptions) error {
	h := &f.Header
	if opt.Verify == VerifyAll {
		if err := verifyChecksums(h, data); err != nil {
			return err
		}
	}
	n, nnz := int(h.Nodes), int(h.NNZ)
	sec := func(s int) []byte { return data[h.sections[s].Offset : h.sections[s].Offset+h.sections[s].Length] }
	a := graph.CSRArrays{
		Indptr:  int64sAsInts(sec(secIndptr)),
		Indices: int32s(sec(secIndices)),
		Degrees: float64s(sec(secDegrees)),
	}
	switch h.Weights {
	case WeightsFloat64:
		a.Weights = float64s(sec(secWeights))
	case WeightsFloat32:
		b := sec(secWeights)
		a.Weights = make([]float64, nnz)
		for k := range a.Weights {
			a.Weights[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		}
	case WeightsNone:
		// nil: a graph of unit weights stores none (Row returns shared ones).
	}
	var err error
	if opt.Verify == VerifyNone {
		f.Graph, err = graph.FromCSRArraysTrusted(n, a, int(h.SelfLoops), h.UnitWeights())
	} else {
		f.Graph, err = graph.FromCSRArrays(n, a)
		if err == nil && int64(f.Graph.SelfLoops()) != h.SelfLoops {
			err = fmt.Errorf("the header counts %d self loops, the graph has %d", h.SelfLoops, f.Graph.SelfLoops())
		}
		if err == nil && f.Graph.UnitWeights() != h.UnitWeights() {
			err = fmt.Errorf("the header's unit-weights flag is %v, the weights say %v", h.UnitWeights(), f.Graph.UnitWeights())
		}
	}
	if err != nil {
		f.Graph = nil
		return err
	}
	f.IDs, err = decodeIDs(h, sec(secIDs), sec(secIDText))
	if err != nil {
		f.Graph = nil
	}
	return err
}

// verifyChecksums checks every section's CRC-32C, in parallel chunks, and
// that the bytes between sections are zero.
func verifyChecksums(h *Header, data []byte) error {
	type task struct {
		sec    int
		lo, hi int64
	}
	var tasks []task
	prevEnd := int64(HeaderSize)
	for s, sc := range h.sections {
		if sc.Length == 0 {
			continue
		}
		for _, c := range data[prevEnd:sc.Offset] {
			if c != 0 {
				return fmt.Errorf("the padding before section %d (%s) is not zero: the file is damaged", s, sectionNames[s])
			}
		}
		for lo := sc.Offset; lo < sc.Offset+sc.Length; lo += checksumChunk {
			tasks = append(tasks, task{s, lo, min(lo+checksumChunk, sc.Offset+sc.Length)})
		}
		prevEnd = sc.Offset + sc.Length
	}
	crcs := make([]uint32, len(tasks))
	parallel.Chunks(len(tasks), 1, func(k, _, _ int) {
		crcs[k] = crc32.Checksum(data[tasks[k].lo:tasks[k].hi], castagnoli)
	})
	var got [numSections]uint32
	for k, t := range tasks {
		got[t.sec] = crcCombine(got[t.sec], crcs[k], t.hi-t.lo)
	}
	for s, sc := range h.sections {
		if got[s] != sc.CRC {
			return fmt.Errorf("section %d (%s): checksum %08x, computed %08x: the file is damaged", s, sectionNames[s], sc.CRC, got[s])
		}
	}
	return nil
}

// decodeIDs builds the id map from its sections.
func decodeIDs(h *Header, ids, text []byte) (*nodeids.Map, error) {
	n := int(h.Nodes)
	switch h.IDs {
	case IDsInt64:
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(binary.LittleEndian.Uint64(ids[8*i:]))
		}
		m, err := nodeids.FromInts(v)
		if err != nil {
			return nil, fmt.Errorf("ids: %w", err)
		}
		return m, nil
	case IDsText:
		// One copy of the text that every id string points into: the ids
		// outlive the mapping.
		own := bytes.Clone(text)
		names := make([]string, n)
		prev := binary.LittleEndian.Uint64(ids)
		if prev != 0 {
			return nil, fmt.Errorf("ids: the first text offset is %d, want 0", prev)
		}
		for i := range names {
			next := binary.LittleEndian.Uint64(ids[8*(i+1):])
			if next < prev || next > uint64(len(own)) {
				return nil, fmt.Errorf("ids: text offsets of node %d run from %d to %d, outside [%d, %d]", i, prev, next, prev, len(own))
			}
			if next > prev {
				names[i] = unsafe.String(&own[prev], int(next-prev))
			}
			prev = next
		}
		if prev != uint64(len(own)) {
			return nil, fmt.Errorf("ids: the text offsets end at %d, the text has %d bytes", prev, len(own))
		}
		m, err := nodeids.FromStrings(names)
		if err != nil {
			return nil, fmt.Errorf("ids: %w", err)
		}
		return m, nil
	}
	return nodeids.Identity(n), nil
}

// int64sAsInts returns the little-endian int64s of b as []int: the bytes
// themselves when inPlace, a decoded copy otherwise.
func int64sAsInts(b []byte) []int {
	n := len(b) / 8
	if n == 0 {
		return []int{}
	}
	if inPlace {
		return unsafe.Slice((*int)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]int, n)
	for i := range out {
		out[i] = int(int64(binary.LittleEndian.Uint64(b[8*i:])))
	}
	return out
}

func int32s(b []byte) []int32 {
	n := len(b) / 4
	if n == 0 {
		return []int32{}
	}
	if inPlace {
		return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func float64s(b []byte) []float64 {
	n := len(b) / 8
	if n == 0 {
		return []float64{}
	}
	if inPlace {
		return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}
