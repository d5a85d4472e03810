package loaders

import (
	"archive/zip"
	"bytes"
	"codeberg.org/sbinet/npyio/npy"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// formatsDir holds the files written by testdata/formats/make.py.
var formatsDir = filepath.Join("..", "testdata", "formats")

func formatsFile(name string) string { return filepath.Join(formatsDir, name) }

// expectedFormats reads testdata/formats/expected.json, the values the
// Python writers put in the fixtures.
func expectedFormats(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(formatsFile("expected.json"))
	require.NoError(t, err)
	var out map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// expectedArray is one array of expected.json: its shape and its values in C
// order, null for NaN.
type expectedArray struct {
	Shape  []int
	Values []*float64
}

func expectedNPY(t *testing.T, name string) expectedArray {
	t.Helper()
	var e expectedArray
	require.NoError(t, json.Unmarshal(expectedFormats(t)[name], &e), name)
	return e
}

func (e expectedArray) floats() []float64 {
	out := make([]float64, len(e.Values))
	for i, v := range e.Values {
		out[i] = math.NaN()
		if v != nil {
			out[i] = *v
		}
	}
	return out
}

func TestReadNPYMatrices(t *testing.T) {
	for _, name := range []string{"f64_2d.npy", "f32_2d.npy", "i64_2d.npy", "i16_2d.npy", "u8_3d.npy", "bool_2d.npy", "fortran_2d.npy", "fortran_3d.npy", "big_endian_2d.npy"} {
		t.Run(name, func(t *testing.T) {
			want := expectedNPY(t, name)
			m, err := ReadNPY(formatsFile(name))
			require.NoError(t, err)
			r, c := m.Dims()
			require.Equal(t, want.Shape[0], r)
			cols := 1
			for _, d := range want.Shape[1:] {
				cols *= d
			}
			require.Equal(t, cols, c)
			require.Equal(t, want.floats(), m.RawMatrix().Data)
		})
	}
}

func TestReadNPYVectors(t *testing.T) {
	v, err := ReadNPYVector(formatsFile("targets_f64.npy"))
	require.NoError(t, err)
	want := expectedNPY(t, "targets_f64.npy").floats()
	require.Len(t, v, len(want))
	for i := range want {
		if math.IsNaN(want[i]) {
			assert.True(t, math.IsNaN(v[i]), "element %d: NaN marks an unknown target", i)
		} else {
			assert.Equal(t, want[i], v[i])
		}
	}
	v, err = ReadNPYVector(formatsFile("column_f32.npy"))
	require.NoError(t, err)
	assert.Equal(t, []float64{1.5, 2.5, -3}, v)
	v, err = ReadNPYVector(formatsFile("big_endian_i4.npy"))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -2, 70000}, v)

	l, err := ReadNPYLabels(formatsFile("labels_i64.npy"))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2, 1, -1, 2}, l)
	l, err = ReadNPYLabels(formatsFile("labels_f64_nan.npy"))
	require.NoError(t, err)
	assert.Equal(t, []int{1, -1, 0, 3}, l, "NaN is unlabelled")
	_, err = ReadNPYLabels(formatsFile("targets_f64.npy"))
	requireParseError(t, err, 0, "element 0 = 0.5 is not an integer label")
}

func TestReadNPYRefused(t *testing.T) {
	for name, want := range map[string]string{
		"complex.npy":     `element type "<c16" is not supported`,
		"f16.npy":         `element type "<f2" is not supported`,
		"structured.npy":  "structured arrays",
		"scalar.npy":      "a 0-D array of shape (): a matrix needs 2 dimensions",
		"empty_2d.npy":    "array of shape (0, 3) has no elements",
		"targets_f64.npy": "a 1-D array of shape (4,): a matrix needs 2 dimensions",
	} {
		_, err := ReadNPY(formatsFile(name))
		requireParseError(t, err, 0, want)
		assert.Contains(t, err.Error(), formatsFile(name))
	}
	_, err := ReadNPYVector(formatsFile("f64_2d.npy"))
	requireParseError(t, err, 0, "array of shape (3, 4): want a 1-D array")
	_, err = ReadNPYVector(formatsFile("labels_f64_nan.npy"))
	require.NoError(t, err)
	_, err = ReadNPY(filepath.Join(t.TempDir(), "missing.npy"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// npyBytes writes a .npy version 1.0 file with the given header dict and
// data bytes.
func npyBytes(dict string, data []byte) []byte {
	var b bytes.Buffer
	b.Write(npyMagic)
	b.Write([]byte{1, 0})
	var l [2]byte
	binary.LittleEndian.PutUint16(l[:], uint16(len(dict)+1))
	b.Write(l[:])
	b.WriteString(dict + "\n")
	b.Write(data)
	return b.Bytes()
}

func decodeNPYBytes(data []byte) (*npyArray, error) {
	return decodeNPY(bytes.NewReader(data), int64(len(data)), "x.npy", "")
}

func TestDecodeNPYHeaders(t *testing.T) {
	f8 := make([]byte, 8*6)
	for i := range 6 {
		binary.LittleEndian.PutUint64(f8[8*i:], math.Float64bits(float64(i)))
	}
	// Headers NumPy would not write but that are valid dict literals.
	for _, dict := range []string{
		`{"shape": (2, 3), "fortran_order": False, "descr": "<f8"}`,
		`{'descr':'<f8','fortran_order':False,'shape':(2,3)}`,
		`  { 'descr' : '<f8' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) , }   `,
	} {
		a, err := decodeNPYBytes(npyBytes(dict, f8))
		require.NoError(t, err, dict)
		assert.Equal(t, []int{2, 3}, a.shape)
		assert.Equal(t, []float64{0, 1, 2, 3, 4, 5}, a.floats)
	}
	for dict, want := range map[string]string{
		`{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }`:                         "declares shape (2, 4) of <f8 (8 elements of 8 bytes), but 48 bytes follow",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }`:                         "but 48 bytes follow",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000, 1000000), }`:    "declares shape (1000000, 1000000, 1000000) of <f8",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (10000000, 10000000, 10000000), }`: "shape (10000000, 10000000, 10000000) has too many elements",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 1), }`:               "exceeds 2147483647",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 6), }`:                        "want a non-negative size",
		`{'descr': '<f8', 'fortran_order': False}`:                                            "want key 'shape'",
		`{'descr': '<f8', 'fortran_order': 0, 'shape': (6,)}`:                                 "want a string, True, False or a tuple",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'x': 1}`:                     "want a string, True, False or a tuple",
		`{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'x': 'y'}`:                   `unknown key "x"`,
		`{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}`:             `key "descr" twice`,
		`{'descr': '<x8', 'fortran_order': False, 'shape': (6,)}`:                             `element type "<x8" is not supported`,
		`{'descr': 'f', 'fortran_order': False, 'shape': (6,)}`:                               `type "f": want a byte order`,
		`{'descr': '<f8', 'fortran_order': False, 'shape': (6,)} extra`:                       "unexpected text after the dict",
		`['descr']`:      "want '{'",
		`{'descr': '<f8`: "unterminated string",
	} {
		_, err := decodeNPYBytes(npyBytes(dict, f8))
		requireParseError(t, err, 0, want)
	}
	raw := npyBytes(`{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }`, f8)
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"short":      {raw[:7], "7 bytes: a .npy file starts with"},
		"magic":      {append([]byte("\x93NUMPX"), raw[6:]...), "want the NumPy magic"},
		"version":    {append(append([]byte{}, raw[:6]...), append([]byte{4, 0}, raw[8:]...)...), "format version 4.0 is not supported"},
		"no newline": {bytes.Replace(raw, []byte("}\n"), []byte("} "), 1), "header at byte 10: want a dict literal ended by"},
		"header len": {append(append([]byte{}, raw[:8]...), 0xff, 0xff, '{'), "header length 65535 at byte 8 exceeds the 1 bytes that follow"},
		"non-ASCII":  {npyBytes("{'descr': '<f8\xff', 'fortran_order': False, 'shape': (6,), }", f8), "want ASCII text"},
		"trailing":   {append(append([]byte{}, raw...), 0), "but 49 bytes follow"},
		"empty":      {nil, "0 bytes"},
	} {
		_, err := decodeNPYBytes(c.data)
		_ = name
		requireParseError(t, err, 0, c.want)
	}
}

// TestReadNPYHugeShape: a 100-byte file that declares 10¹² elements is
// refused from its header, without allocating them.
func TestReadNPYHugeShape(t *testing.T) {
	for _, shape := range []string{"(1000000, 1000000)", "(1000000000000,)", "(2147483647, 2147483647)", "(4000, 4000)"} {
		data := npyBytes(fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': %s, }", shape), make([]byte, 16))
		path := writeFile(t, t.TempDir(), "huge.npy", data)
		alloc := allocated(func() {
			_, err := ReadNPY(path)
			require.Error(t, err)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
		})
		assert.Less(t, alloc, uint64(1<<20), "shape %s", shape)
	}
}

func TestReadNPZ(t *testing.T) {
	x := expectedNPY(t, "f64_2d.npy").floats()
	for _, name := range []string{"arrays.npz", "arrays_compressed.npz"} {
		names, err := NPZNames(formatsFile(name))
		require.NoError(t, err)
		assert.Equal(t, []string{"x", "y"}, names)
		m, err := ReadNPZ(formatsFile(name), "x")
		require.NoError(t, err)
		assert.Equal(t, x, m.RawMatrix().Data)
		m, err = ReadNPZ(formatsFile(name), "x.npy")
		require.NoError(t, err)
		assert.Equal(t, x, m.RawMatrix().Data)
		l, err := ReadNPZLabels(formatsFile(name), "y")
		require.NoError(t, err)
		assert.Equal(t, []int{1, 0, 1}, l)
		v, err := ReadNPZVector(formatsFile(name), "y")
		require.NoError(t, err)
		assert.Equal(t, []float64{1, 0, 1}, v)
		_, err = ReadNPZ(formatsFile(name), "")
		requireParseError(t, err, 0, "2 arrays (x, y): name the one to read")
		_, err = ReadNPZ(formatsFile(name), "z")
		requireParseError(t, err, 0, `no array "z": the archive holds x, y`)
		_, err = ReadNPZ(formatsFile(name), "y")
		requireParseError(t, err, 0, `member "y.npy": a 1-D array of shape (3,)`)
	}
	m, err := ReadNPZ(formatsFile("single.npz"), "")
	require.NoError(t, err)
	assert.True(t, mat.Equal(m, mat.NewDense(3, 4, x)))
	_, err = ReadNPZ(formatsFile("f64_2d.npy"), "")
	requireParseError(t, err, 0, "reading the zip archive")
}

// TestReadNPZHugeShape: members whose header, or whose zip sizes, declare
// far more than the archive holds are refused without allocating it.
func TestReadNPZHugeShape(t *testing.T) {
	dir := t.TempDir()
	huge := npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }", make([]byte, 16))
	path := writeFile(t, dir, "huge.npz", zipOf(t, map[string][]byte{"x.npy": huge}, true))
	alloc := allocated(func() {
		_, err := ReadNPZ(path, "x")
		requireParseError(t, err, 0, `member "x.npy": header declares shape (1000000, 1000000)`)
	})
	assert.Less(t, alloc, uint64(1<<20))

	// A member whose local and central headers claim 4 GB.
	z := zipOf(t, map[string][]byte{"x.npy": huge}, true)
	z = patchZipSizes(t, z, 0xfffffff0)
	path = writeFile(t, dir, "lying.npz", z)
	alloc = allocated(func() {
		_, err := ReadNPZ(path, "x")
		require.Error(t, err)
		var pe *ParseError
		require.ErrorAs(t, err, &pe)
	})
	assert.Less(t, alloc, uint64(1<<20))
}

// TestReadNPYRoundTrip writes matrices with npyio and reads them back.
func TestReadNPYRoundTrip(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{1, -2.5, math.Pi, 0, 1e-300, -0})
	var buf bytes.Buffer
	require.NoError(t, npyWrite(&buf, m))
	path := writeFile(t, t.TempDir(), "m.npy", buf.Bytes())
	back, err := ReadNPY(path)
	require.NoError(t, err)
	assert.Equal(t, m.RawMatrix().Data, back.RawMatrix().Data)
	assert.True(t, strings.HasSuffix(path, "m.npy"))
}

func npyWrite(w *bytes.Buffer, m *mat.Dense) error { return npy.Write(w, m) }

// zipOf returns a zip archive of the members, deflated or stored, in name
// order.
func zipOf(t testing.TB, members map[string][]byte, deflate bool) []byte {
	t.Helper()
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		h := &zip.FileHeader{Name: name, Method: zip.Store}
		if deflate {
			h.Method = zip.Deflate
		}
		w, err := zw.CreateHeader(h)
		require.NoError(t, err)
		_, err = w.Write(members[name])
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// patchZipSizes sets the uncompressed size of every member, in the local and
// the central headers, to size.
func patchZipSizes(t testing.TB, z []byte, size uint32) []byte {
	t.Helper()
	z = bytes.Clone(z)
	n := 0
	for i := 0; i+30 <= len(z); i++ {
		switch {
		case bytes.Equal(z[i:i+4], []byte("PK\x03\x04")):
			binary.LittleEndian.PutUint32(z[i+22:], size)
			n++
		case bytes.Equal(z[i:i+4], []byte("PK\x01\x02")):
			binary.LittleEndian.PutUint32(z[i+24:], size)
			n++
		}
	}
	require.Positive(t, n)
	return z
}

// TestReadNPZCorrupt: a member whose bytes were damaged fails the zip
// checksum or inflation with a ParseError naming the member.
func TestReadNPZCorrupt(t *testing.T) {
	x := npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4, 2), }", make([]byte, 64))
	for _, deflate := range []bool{false, true} {
		z := zipOf(t, map[string][]byte{"x.npy": x}, deflate)
		// The member's data starts after the 30-byte local header and its
		// 5-byte name: damage a byte of the array (stored) or of the
		// deflate stream.
		at := 30 + 5 + 100
		if deflate {
			at = 30 + 5 + 3
		}
		z[at] ^= 0xff
		path := writeFile(t, t.TempDir(), "bad.npz", z)
		_, err := ReadNPZ(path, "x")
		requireParseError(t, err, 0, `member "x.npy"`)
	}
}
