// MNIST's IDX files.
//
// The format of the MNIST data (Y. LeCun, C. Cortes, C. J. C. Burges, "The
// MNIST database of handwritten digits", http://yann.lecun.com/exdb/mnist/)
// and of Fashion-MNIST, EMNIST and KMNIST, gzipped or not:
//
//	bytes 0–1   zero
//	byte  2     element type: 0x08 unsigned byte, 0x09 signed byte,
//	            0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64
//	byte  3     number of dimensions d
//	then        d sizes, big-endian uint32
//	then        the elements, big-endian, in row-major order
//
// Images are idx3 files of unsigned bytes (magic 0x00000803: count × rows ×
// cols); labels are idx1 files (magic 0x00000801). The sizes in the header
// are checked against the file's length before anything is allocated (for
// a gzipped file, the bytes are read as they come, up to the declared
// length, and a short or long file is an error).

package loaders

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gssl/gssl/internal/inputfile"
)

// idxTypes maps the element type byte to its size and name.
var idxTypes = map[byte]struct {
	size int
	name string
}{
	0x08: {1, "unsigned byte"},
	0x09: {1, "signed byte"},
	0x0B: {2, "int16"},
	0x0C: {4, "int32"},
	0x0D: {4, "float32"},
	0x0E: {8, "float64"},
}

// idxArray is a decoded IDX file.
type idxArray struct {
	typ  byte
	dims []int
	data []byte // big-endian elements
}

// readIDX opens an IDX file, gzipped or not.
func readIDX(path string) (*idxArray, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	return decodeIDX(f, st.Size(), path)
}

// decodeIDX reads an IDX stream whose file holds size bytes (the
// decompressed length is checked when it is gzipped).
func decodeIDX(r io.Reader, size int64, path string) (*idxArray, error) {
	fail := func(format string, args ...any) (*idxArray, error) {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	raw := bufio.NewReaderSize(r, 64<<10)
	gz := false
	if m, err := raw.Peek(2); err == nil && m[0] == gzipMagic[0] && m[1] == gzipMagic[1] {
		gz = true
	}
	br, err := decompress(raw, path)
	if err != nil {
		return nil, err
	}
	readFull := func(p []byte, what string) error {
		if _, err := io.ReadFull(br, p); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return &ParseError{Path: path, Msg: fmt.Sprintf("file ends in the %s: want an IDX header (magic 0x00000803 for images, 0x00000801 for labels, then big-endian sizes)", what)}
			}
			return &ParseError{Path: path, Msg: "reading the " + what, Err: err}
		}
		return nil
	}
	var magic [4]byte
	if err := readFull(magic[:], "magic number"); err != nil {
		return nil, err
	}
	t, ok := idxTypes[magic[2]]
	if magic[0] != 0 || magic[1] != 0 || !ok || magic[3] == 0 {
		return fail("magic number %#08x at byte 0: want 0x0000TTDD with element type TT in 08, 09, 0B, 0C, 0D, 0E and DD ≥ 1 dimensions (0x00000803 for images, 0x00000801 for labels)", binary.BigEndian.Uint32(magic[:]))
	}
	nd := int(magic[3])
	head := make([]byte, 4*nd)
	if err := readFull(head, "sizes"); err != nil {
		return nil, err
	}
	a := &idxArray{typ: magic[2], dims: make([]int, nd)}
	elems := int64(1)
	for k := range a.dims {
		d := int64(binary.BigEndian.Uint32(head[4*k:]))
		a.dims[k] = int(d)
		if d != 0 && elems > math.MaxInt64/8/d {
			return fail("sizes %v: too many elements", a.dims[:k+1])
		}
		elems *= d
	}
	want := elems * int64(t.size)
	headLen := int64(4 + 4*nd)
	if !gz && headLen+want != size {
		return fail("header declares %v %s elements (%d bytes) after %d header bytes, but the file has %d bytes", a.dims, t.name, want, headLen, size)
	}
	// Read as the bytes come, never more than declared plus one to tell a
	// long file.
	data, err := io.ReadAll(io.LimitReader(br, want+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("truncated gzip stream after %d of the %d declared bytes", len(data), want), Err: err}
		}
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("reading after %d bytes", len(data)), Err: err}
	}
	if int64(len(data)) != want {
		if int64(len(data)) > want {
			return fail("more than the %d bytes the header declares (%v %s elements)", want, a.dims, t.name)
		}
		return fail("%d bytes of elements, but the header declares %v %s elements (%d bytes)", len(data), a.dims, t.name, want)
	}
	a.data = data
	return a, nil
}

// ReadIDXImages reads an IDX file of unsigned bytes with two or more
// dimensions (MNIST's train-images-idx3-ubyte[.gz]: count × 28 × 28) as
// images of the product of the other sizes in pixels each.
func ReadIDXImages(path string) (*Images, error) {
	a, err := readIDX(path)
	if err != nil {
		return nil, err
	}
	if a.typ != 0x08 || len(a.dims) < 2 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d-dimensional %s file: images need unsigned bytes in 2 or more dimensions (magic 0x00000803)", len(a.dims), idxTypes[a.typ].name)}
	}
	pixels := 1
	for _, d := range a.dims[1:] {
		pixels *= d
	}
	if a.dims[0] == 0 || pixels == 0 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("sizes %v: no images", a.dims)}
	}
	return &Images{Count: a.dims[0], Pixels: pixels, Data: a.data}, nil
}

// ReadIDXLabels reads a 1-dimensional IDX file of integers (MNIST's
// train-labels-idx1-ubyte[.gz]: unsigned bytes; signed bytes, int16 and
// int32 are read too).
func ReadIDXLabels(path string) ([]int, error) {
	a, err := readIDX(path)
	if err != nil {
		return nil, err
	}
	if len(a.dims) != 1 || a.typ == 0x0D || a.typ == 0x0E {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d-dimensional %s file: labels need integers in 1 dimension (magic 0x00000801)", len(a.dims), idxTypes[a.typ].name)}
	}
	if a.dims[0] == 0 {
		return nil, &ParseError{Path: path, Msg: "no labels"}
	}
	out := make([]int, a.dims[0])
	for i := range out {
		switch a.typ {
		case 0x08:
			out[i] = int(a.data[i])
		case 0x09:
			out[i] = int(int8(a.data[i]))
		case 0x0B:
			out[i] = int(int16(binary.BigEndian.Uint16(a.data[2*i:])))
		case 0x0C:
			out[i] = int(int32(binary.BigEndian.Uint32(a.data[4*i:])))
		}
	}
	return out, nil
}
