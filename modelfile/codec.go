package modelfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"unicode/utf8"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/internal/inputfile"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var le = binary.LittleEndian

// MarshalBinary encodes the file. It fills Writer with BuildVersion when it
// is empty.
func (f *File) MarshalBinary() ([]byte, error) {
	if err := checkKind(f.Kind); err != nil {
		return nil, fmt.Errorf("modelfile: %w", err)
	}
	if f.KindVersion < 1 || f.KindVersion > math.MaxUint32 {
		return nil, fmt.Errorf("modelfile: KindVersion = %d is invalid: it must be ≥ 1", f.KindVersion)
	}
	if f.Writer == "" {
		f.Writer = BuildVersion()
	}
	if len(f.Writer) > MaxWriterLen || !utf8.ValidString(f.Writer) {
		return nil, fmt.Errorf("modelfile: Writer must be valid UTF-8 of at most %d bytes", MaxWriterLen)
	}
	meta := f.Metadata
	if len(meta) == 0 {
		meta = []byte("{}")
	}
	if err := checkMetadata(meta); err != nil {
		return nil, fmt.Errorf("modelfile: %s", err)
	}
	if len(meta) > math.MaxUint32 {
		return nil, fmt.Errorf("modelfile: the metadata has %d bytes, more than 2³²−1", len(meta))
	}
	if len(f.sections) > MaxSections {
		return nil, fmt.Errorf("modelfile: %d sections, more than MaxSections = %d", len(f.sections), MaxSections)
	}
	size := headerSize + len(f.Kind) + len(f.Writer) + len(meta) + crcSize + trailerSize
	for i := range f.sections {
		s := &f.sections[i]
		p, err := s.payloadLen()
		if err != nil {
			return nil, err
		}
		size += sectionHeaderSize + len(s.name) + p + crcSize
	}
	buf := make([]byte, 0, size)
	buf = append(buf, Magic...)
	buf = le.AppendUint32(buf, FormatVersion)
	buf = le.AppendUint32(buf, 0)
	buf = le.AppendUint64(buf, uint64(size))
	buf = le.AppendUint32(buf, uint32(f.KindVersion))
	buf = le.AppendUint32(buf, uint32(len(f.sections)))
	buf = le.AppendUint16(buf, uint16(len(f.Kind)))
	buf = le.AppendUint16(buf, uint16(len(f.Writer)))
	buf = le.AppendUint32(buf, uint32(len(meta)))
	buf = le.AppendUint32(buf, crc32.Checksum(buf, castagnoli))
	start := len(buf)
	buf = append(buf, f.Kind...)
	buf = append(buf, f.Writer...)
	buf = append(buf, meta...)
	buf = le.AppendUint32(buf, crc32.Checksum(buf[start:], castagnoli))
	for i := range f.sections {
		s := &f.sections[i]
		p, _ := s.payloadLen()
		start := len(buf)
		buf = le.AppendUint16(buf, uint16(len(s.name)))
		buf = append(buf, byte(s.typ), 0, 0, 0, 0, 0)
		buf = le.AppendUint64(buf, uint64(s.len()))
		buf = le.AppendUint64(buf, uint64(p))
		buf = append(buf, s.name...)
		buf = s.appendPayload(buf)
		buf = le.AppendUint32(buf, crc32.Checksum(buf[start:], castagnoli))
	}
	sum := sha256.Sum256(buf)
	buf = append(buf, sum[:]...)
	if len(buf) != size {
		panic(fmt.Sprintf("modelfile: wrote %d bytes, planned %d", len(buf), size))
	}
	return buf, nil
}

func (s *section) payloadLen() (int, error) {
	if s.typ != Strings {
		return s.len() * s.typ.size(), nil
	}
	p := 4 * len(s.str)
	for k, v := range s.str {
		if !utf8.ValidString(v) {
			return 0, fmt.Errorf("modelfile: section %q: string %d is not valid UTF-8", s.name, k)
		}
		if len(v) > math.MaxUint32 {
			return 0, fmt.Errorf("modelfile: section %q: string %d is longer than 2³²−1 bytes", s.name, k)
		}
		p += len(v)
	}
	return p, nil
}

func (s *section) appendPayload(buf []byte) []byte {
	switch s.typ {
	case Bytes:
		buf = append(buf, s.b...)
	case Int32s:
		for _, v := range s.i32 {
			buf = le.AppendUint32(buf, uint32(v))
		}
	case Int64s:
		for _, v := range s.i64 {
			buf = le.AppendUint64(buf, uint64(v))
		}
	case Float64s:
		for _, v := range s.f64 {
			buf = le.AppendUint64(buf, math.Float64bits(v))
		}
	case Strings:
		for _, v := range s.str {
			buf = le.AppendUint32(buf, uint32(len(v)))
			buf = append(buf, v...)
		}
	}
	return buf
}

// checkMetadata checks that meta is one JSON object.
func checkMetadata(meta []byte) error {
	t := bytes.TrimLeft(meta, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !jsonValid(meta) {
		return fmt.Errorf("the metadata is not a JSON object")
	}
	return nil
}

// WriteTo writes the encoded file to w.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	b, err := f.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// WriteFile writes f to path atomically: readers see the old file or the
// whole new one, never a part.
func WriteFile(path string, f *File) error {
	b, err := f.MarshalBinary()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// ReadFile reads and checks the model file at path; errors name the path.
// It allocates the file's size and what decoding needs (at most a few times
// that), nothing a header declares beyond it.
func ReadFile(path string) (*File, error) {
	fh, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Read(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Read reads a whole model file from r and checks it. It reads the fixed
// start of the header first and then exactly the size the header declares
// (one byte more is an error), so that a stream of unknown length (a
// device such as /dev/zero, a FIFO) is refused by its first bytes instead
// of read to its end.
func Read(r io.Reader) (*File, error) {
	head := make([]byte, 24)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if n < len(Magic) || string(head[:len(Magic)]) != Magic || n < len(head) {
		return Unmarshal(head) // the error names what is missing
	}
	size := le.Uint64(head[16:])
	if size < uint64(len(head)) || size > maxFileSize {
		return nil, formatErr(16, "", "the header declares %d bytes, outside %d..%d", size, len(head), uint64(maxFileSize))
	}
	// Grow with what arrives rather than trust the declared size up front.
	var buf bytes.Buffer
	if fh, ok := r.(*os.File); ok {
		if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() && uint64(st.Size()) == size {
			buf.Grow(int(size) + 1) // a regular file of the declared size: one allocation
		}
	}
	buf.Write(head)
	if _, err := io.Copy(&buf, io.LimitReader(r, int64(size)-int64(len(head))+1)); err != nil {
		return nil, err
	}
	return Unmarshal(buf.Bytes())
}

// maxFileSize bounds the size a header may declare (2⁴⁰ bytes, far beyond
// any model gssl writes), so that a damaged size is refused before reading.
const maxFileSize = 1 << 40

// FileSHA256 returns the hex SHA-256 of the file at path (for GraphRef).
func FileSHA256(path string) (string, error) {
	fh, err := inputfile.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func formatErr(off int, section, format string, args ...any) error {
	return &Error{Offset: int64(off), Section: section, Msg: fmt.Sprintf(format, args...), Err: ErrFormat}
}

// Unmarshal decodes and checks a model file (see the package documentation
// for the checks and their order). The returned file does not share memory
// with data.
func Unmarshal(data []byte) (*File, error) {
	if err := checkHeader(data); err != nil {
		return nil, err
	}
	f, pos, err := readHead(data)
	if err != nil {
		return nil, err
	}
	n := len(data)
	end := n - trailerSize // where the sections stop
	count := int(le.Uint32(data[28:]))
	for k := 0; k < count; k++ {
		s, next, err := readSection(data, pos, end, k)
		if err != nil {
			return nil, err
		}
		if _, dup := f.index[s.name]; dup {
			return nil, formatErr(pos, s.name, "section name repeated")
		}
		f.index[s.name] = len(f.sections)
		f.sections = append(f.sections, s)
		pos = next
	}
	if pos != end {
		return nil, formatErr(pos, "", "%d bytes between the last of the %d sections and the checksum trailer", end-pos, count)
	}
	if sum := sha256.Sum256(data[:end]); !bytes.Equal(sum[:], data[end:]) {
		return nil, formatErr(end, "", "SHA-256 mismatch (the file is damaged)")
	}
	return f, nil
}

// checkHeader checks the fixed header: magic, format version, size
// (truncation, bytes after the end), flags and checksum, and that the file
// is at least minSize long.
func checkHeader(data []byte) error {
	n := len(data)
	if n < len(Magic) || string(data[:len(Magic)]) != Magic {
		return formatErr(0, "", "not a gssl model file (no %q magic at the start)", Magic)
	}
	if n < 12 {
		return formatErr(n, "", "truncated: %d bytes, the header alone has %d", n, headerSize)
	}
	if v := le.Uint32(data[8:]); v != FormatVersion {
		if v > FormatVersion {
			return &Error{Offset: 8, Msg: fmt.Sprintf("format version %d is newer than this gssl (%s) reads (%d): use a newer gssl", v, BuildVersion(), FormatVersion), Err: ErrVersion}
		}
		return formatErr(8, "", "format version %d is invalid", v)
	}
	if n < headerSize {
		return formatErr(n, "", "truncated: %d bytes, the header alone has %d", n, headerSize)
	}
	if fl := le.Uint32(data[12:]); fl != 0 {
		return formatErr(12, "", "unknown flags %#x", fl)
	}
	if size := le.Uint64(data[16:]); size != uint64(n) {
		if size > uint64(n) {
			return formatErr(n, "", "truncated: the file has %d bytes, its header says %d", n, size)
		}
		return formatErr(int(size), "", "the file has %d bytes, its header says %d: bytes after the end", n, size)
	}
	if want, got := le.Uint32(data[40:]), crc32.Checksum(data[:40], castagnoli); want != got {
		return formatErr(40, "", "header checksum mismatch (damaged header)")
	}
	if n < minSize {
		return formatErr(n, "", "%d bytes is shorter than the smallest model file (%d)", n, minSize)
	}
	return nil
}

// readHead checks the header's counts and lengths and decodes the kind,
// writer and metadata block that follows the header, into a File without
// sections; it returns where the sections start.
func readHead(data []byte) (*File, int, error) {
	end := len(data) - trailerSize
	kindVersion := le.Uint32(data[24:])
	count := le.Uint32(data[28:])
	kl, wl, ml := int(le.Uint16(data[32:])), int(le.Uint16(data[34:])), uint64(le.Uint32(data[36:]))
	if kindVersion == 0 {
		return nil, 0, formatErr(24, "", "kind version 0 is invalid")
	}
	if count > MaxSections {
		return nil, 0, formatErr(28, "", "%d sections declared, more than MaxSections = %d", count, MaxSections)
	}
	if kl == 0 || kl > MaxKindLen {
		return nil, 0, formatErr(32, "", "kind length %d is outside 1..%d", kl, MaxKindLen)
	}
	if wl > MaxWriterLen {
		return nil, 0, formatErr(34, "", "writer length %d is more than %d", wl, MaxWriterLen)
	}
	// Every length is checked against what remains before it is used.
	if uint64(kl)+uint64(wl)+ml+crcSize > uint64(end-headerSize) {
		return nil, 0, formatErr(36, "", "kind, writer and metadata lengths (%d + %d + %d bytes) exceed the %d bytes left", kl, wl, ml, end-headerSize-crcSize)
	}
	pos := headerSize
	blockEnd := pos + kl + wl + int(ml)
	if want, got := le.Uint32(data[blockEnd:]), crc32.Checksum(data[pos:blockEnd], castagnoli); want != got {
		return nil, 0, formatErr(blockEnd, "", "checksum mismatch of the kind, writer and metadata (damaged)")
	}
	kind := string(data[pos : pos+kl])
	if err := checkKind(kind); err != nil {
		return nil, 0, formatErr(pos, "", "%v", err)
	}
	pos += kl
	writer := string(data[pos : pos+wl])
	if !utf8.ValidString(writer) {
		return nil, 0, formatErr(pos, "", "the writer is not valid UTF-8")
	}
	pos += wl
	meta := data[pos:blockEnd]
	if err := checkMetadata(meta); err != nil {
		return nil, 0, formatErr(pos, "", "%v", err)
	}
	f := &File{Kind: kind, KindVersion: int(kindVersion), Writer: writer, Metadata: append([]byte(nil), meta...), index: make(map[string]int, count)}
	return f, blockEnd + crcSize, nil
}

// readSection decodes the section k starting at pos; the sections must end
// by end.
func readSection(data []byte, pos, end, k int) (section, int, error) {
	var s section
	left := end - pos
	if left < sectionHeaderSize+1+crcSize {
		return s, 0, formatErr(pos, "", "section %d: %d bytes left before the trailer, too few for a section", k, left)
	}
	h := data[pos : pos+sectionHeaderSize]
	nl := int(le.Uint16(h))
	s.typ = Type(h[2])
	for i := 3; i < 8; i++ {
		if h[i] != 0 {
			return s, 0, formatErr(pos+i, "", "section %d: reserved byte %d is not zero", k, i)
		}
	}
	count, plen := le.Uint64(h[8:]), le.Uint64(h[16:])
	if nl == 0 || nl > MaxNameLen {
		return s, 0, formatErr(pos, "", "section %d: name length %d is outside 1..%d", k, nl, MaxNameLen)
	}
	avail := uint64(left - sectionHeaderSize - crcSize)
	if uint64(nl) > avail || plen > avail-uint64(nl) {
		return s, 0, formatErr(pos+16, "", "section %d: name and payload (%d + %d bytes) exceed the %d bytes left", k, nl, plen, avail)
	}
	body := pos + sectionHeaderSize
	stop := body + nl + int(plen)
	s.name = string(data[body : body+nl])
	if want, got := le.Uint32(data[stop:]), crc32.Checksum(data[pos:stop], castagnoli); want != got {
		return s, 0, formatErr(stop, s.name, "section checksum mismatch (damaged)")
	}
	if err := checkName(s.name); err != nil {
		return s, 0, formatErr(body, "", "section %d: %v", k, err)
	}
	p := data[body+nl : stop]
	var err error
	switch s.typ {
	case Bytes, Int32s, Int64s, Float64s:
		err = s.decodeFixed(p, count, pos)
	case Strings:
		err = s.decodeStrings(p, count, pos, body+nl)
	default:
		err = formatErr(pos+2, s.name, "unknown element type %d", uint8(s.typ))
	}
	if err != nil {
		return s, 0, err
	}
	return s, stop + crcSize, nil
}

// decodeFixed decodes the payload p of count fixed-size elements of the
// section at pos.
func (s *section) decodeFixed(p []byte, count uint64, pos int) error {
	plen := uint64(len(p))
	sz := uint64(s.typ.size())
	if count > plen/sz || count*sz != plen {
		return formatErr(pos+8, s.name, "%d %s elements do not fill %d payload bytes", count, s.typ, plen)
	}
	c := int(count)
	switch s.typ {
	case Bytes:
		s.b = append([]byte(nil), p...)
	case Int32s:
		s.i32 = make([]int32, c)
		for i := range s.i32 {
			s.i32[i] = int32(le.Uint32(p[4*i:]))
		}
	case Int64s:
		s.i64 = make([]int64, c)
		for i := range s.i64 {
			s.i64[i] = int64(le.Uint64(p[8*i:]))
		}
	case Float64s:
		s.f64 = make([]float64, c)
		for i := range s.f64 {
			s.f64[i] = math.Float64frombits(le.Uint64(p[8*i:]))
		}
	}
	return nil
}

// decodeStrings decodes the payload p, at offset off of the file, of count
// length-prefixed strings of the section at pos.
func (s *section) decodeStrings(p []byte, count uint64, pos, off int) error {
	plen := uint64(len(p))
	if count > plen/4 {
		return formatErr(pos+8, s.name, "%d strings cannot fit in %d payload bytes", count, plen)
	}
	s.str = make([]string, int(count))
	q := 0
	for i := range s.str {
		if len(p)-q < 4 {
			return formatErr(off+q, s.name, "string %d: its length runs past the payload", i)
		}
		l := uint64(le.Uint32(p[q:]))
		q += 4
		if l > uint64(len(p)-q) {
			return formatErr(off+q-4, s.name, "string %d: length %d runs past the payload (%d bytes left)", i, l, len(p)-q)
		}
		v := p[q : q+int(l)]
		if !utf8.Valid(v) {
			return formatErr(off+q, s.name, "string %d is not valid UTF-8", i)
		}
		s.str[i] = string(v)
		q += int(l)
	}
	if q != len(p) {
		return formatErr(off+q, s.name, "%d payload bytes after the last of %d strings", len(p)-q, count)
	}
	return nil
}
