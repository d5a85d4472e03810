package graphfile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/nodeids"
)

// WriteOptions controls how Write stores a graph. The zero value stores no
// weights for a graph whose weights are all 1 and float64 weights otherwise,
// which open in place.
type WriteOptions struct {
	// Float32Weights stores the weights of a weighted graph as float32,
	// rounded to nearest: half the size on disk, but Open then converts
	// them into a float64 slice.
	Float32Weights bool
}

// Write stores g and its node ids in a .gsg file at path, atomically (see
// internal/atomicfile): on an error no file is left and an existing file is
// unchanged. A nil ids means Identity. The layout is in the package
// documentation.
func Write(path string, g *graph.CSR, ids *nodeids.Map) error {
	return WriteWith(path, g, ids, WriteOptions{})
}

// WriteWith is Write with options.
func WriteWith(path string, g *graph.CSR, ids *nodeids.Map, opt WriteOptions) error {
	n := g.Nodes()
	if ids == nil {
		ids = nodeids.Identity(n)
	}
	if ids.Len() != n {
		return fmt.Errorf("graphfile: %s: %d ids for a graph of %d nodes", path, ids.Len(), n)
	}
	h, text := newHeader(g, ids, opt)
	want := layout(h.Nodes, h.NNZ, h.Weights, h.IDs, text)
	h.FileSize = fileEnd(want)

	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("graphfile: %w", err)
	}
	defer f.Abort()
	s := &sectionWriter{w: bufio.NewWriterSize(f, 1<<20), buf: make([]byte, 0, 1<<16), h: h}
	s.put(make([]byte, HeaderSize)) // the header, filled in at the end
	s.writeGraph(g.Arrays())
	s.writeIDs(ids, n, text)
	if err := s.w.Flush(); err != nil && s.err == nil {
		s.err = err
	}
	if s.err != nil {
		return fmt.Errorf("graphfile: %s: %w", path, s.err)
	}
	for sec := range want {
		if got := h.sections[sec]; got.Offset != want[sec].Offset && want[sec].Length > 0 || got.Length != want[sec].Length {
			panic(fmt.Sprintf("graphfile: section %d written at %d (%d bytes), layout says %d (%d bytes)", sec, got.Offset, got.Length, want[sec].Offset, want[sec].Length))
		}
	}
	hb := make([]byte, HeaderSize)
	h.encode(hb)
	if _, err := f.WriteAt(hb, 0); err != nil {
		return fmt.Errorf("graphfile: %s: %w", path, err)
	}
	return f.Commit()
}

// le is the byte order of every number in a .gsg file.
var le = binary.LittleEndian

// newHeader is the header of g and ids, without the sections, and the
// length of the id text (text ids only).
func newHeader(g *graph.CSR, ids *nodeids.Map, opt WriteOptions) (*Header, int64) {
	n := g.Nodes()
	h := &Header{Version: Version, Nodes: int64(n), NNZ: int64(g.NNZ()), SelfLoops: int64(g.SelfLoops())}
	switch {
	case g.UnitWeights():
		h.Weights, h.Flags = WeightsNone, flagUnitWeights
	case opt.Float32Weights:
		h.Weights = WeightsFloat32
	default:
		h.Weights = WeightsFloat64
	}
	var text int64
	switch {
	case ids.IsIdentity():
		h.IDs = IDsIdentity
	case ids.IsText():
		h.IDs = IDsText
		for i := 0; i < n; i++ {
			text += int64(len(ids.ID(i)))
		}
	default:
		h.IDs = IDsInt64
	}
	return h, text
}

// emit writes section sec of count items, item i appended to b by put, and
// records it in the header (when it is not empty).
func (s *sectionWriter) emit(sec, count int, put func(b []byte, i int) []byte) {
	if count == 0 {
		return
	}
	s.pad()
	start := s.off
	s.crc = 0
	for i := 0; i < count; i++ {
		s.buf = put(s.buf, i)
		if len(s.buf) >= cap(s.buf)-16 {
			s.flush()
		}
	}
	s.flush()
	if s.off > start {
		s.h.sections[sec] = section{Offset: start, Length: s.off - start, CRC: s.crc}
	}
}

// writeGraph writes the CSR sections: row pointers, column indices, weights
// as the header says, and degrees.
func (s *sectionWriter) writeGraph(a graph.CSRArrays) {
	n := len(a.Indptr) - 1
	s.emit(secIndptr, n+1, func(b []byte, i int) []byte { return le.AppendUint64(b, uint64(a.Indptr[i])) })
	s.emit(secIndices, len(a.Indices), func(b []byte, i int) []byte { return le.AppendUint32(b, uint32(a.Indices[i])) })
	switch s.h.Weights {
	case WeightsFloat32:
		s.emit(secWeights, len(a.Weights), func(b []byte, i int) []byte {
			return le.AppendUint32(b, math.Float32bits(float32(a.Weights[i])))
		})
	case WeightsFloat64:
		s.emit(secWeights, len(a.Weights), func(b []byte, i int) []byte { return le.AppendUint64(b, math.Float64bits(a.Weights[i])) })
	}
	degrees := a.Degrees
	if s.h.Weights == WeightsFloat32 {
		// The degrees are the row sums of the weights as stored.
		degrees = make([]float64, n)
		for i := range degrees {
			var d float64
			for p := a.Indptr[i]; p < a.Indptr[i+1]; p++ {
				d += float64(float32(a.Weights[p]))
			}
			degrees[i] = d
		}
	}
	s.emit(secDegrees, n, func(b []byte, i int) []byte { return le.AppendUint64(b, math.Float64bits(degrees[i])) })
}

// writeIDs writes the id sections the header's id type needs: int64 ids,
// or text ids' offsets and text (text bytes in all).
func (s *sectionWriter) writeIDs(ids *nodeids.Map, n int, text int64) {
	switch s.h.IDs {
	case IDsInt64:
		s.emit(secIDs, n, func(b []byte, i int) []byte {
			v, _ := ids.IntID(i)
			return le.AppendUint64(b, uint64(v))
		})
	case IDsText:
		var off uint64
		s.emit(secIDs, n+1, func(b []byte, i int) []byte {
			b = le.AppendUint64(b, off)
			if i < n {
				off += uint64(len(ids.ID(i)))
			}
			return b
		})
		if text > 0 {
			s.pad()
			start := s.off
			s.crc = 0
			for i := 0; i < n; i++ {
				s.put([]byte(ids.ID(i)))
			}
			s.h.sections[secIDText] = section{Offset: start, Length: s.off - start, CRC: s.crc}
		}
	}
}

// sectionWriter writes sections, tracking the offset and the running
// checksum of the current section; the first error sticks.
type sectionWriter struct {
	h   *Header // the sections written are recorded in it
	w   *bufio.Writer
	off int64
	crc uint32
	buf []byte
	err error
}

func (s *sectionWriter) put(b []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = err
		return
	}
	s.crc = crc32.Update(s.crc, castagnoli, b)
	s.off += int64(len(b))
}

func (s *sectionWriter) flush() {
	s.put(s.buf)
	s.buf = s.buf[:0]
}

// pad writes zeros up to the next multiple of align.
func (s *sectionWriter) pad() {
	var zeros [align]byte
	if r := s.off % align; r != 0 {
		s.put(zeros[:align-r])
	}
}
