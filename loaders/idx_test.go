package loaders

import (
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadIDX(t *testing.T) {
	var want struct {
		Count, Rows, Cols int
		Pixels            []byte
		Labels            []int
	}
	require.NoError(t, json.Unmarshal(expectedFormats(t)["idx"], &want))
	for _, name := range []string{"images-idx3-ubyte", "images-idx3-ubyte.gz"} {
		im, err := ReadIDXImages(formatsFile(name))
		require.NoError(t, err, name)
		assert.Equal(t, want.Count, im.Count)
		assert.Equal(t, want.Rows*want.Cols, im.Pixels)
		assert.Equal(t, want.Pixels, im.Data)
	}
	for _, name := range []string{"labels-idx1-ubyte", "labels-idx1-ubyte.gz"} {
		l, err := ReadIDXLabels(formatsFile(name))
		require.NoError(t, err, name)
		assert.Equal(t, want.Labels, l)
	}
	_, err := ReadIDXImages(formatsFile("labels-idx1-ubyte"))
	requireParseError(t, err, 0, "1-dimensional unsigned byte file: images need unsigned bytes in 2 or more dimensions")
	_, err = ReadIDXLabels(formatsFile("images-idx3-ubyte.gz"))
	requireParseError(t, err, 0, "3-dimensional unsigned byte file: labels need integers in 1 dimension")
}

// idxBytes writes an IDX header and data.
func idxBytes(typ byte, dims []uint32, data []byte) []byte {
	out := []byte{0, 0, typ, byte(len(dims))}
	for _, d := range dims {
		out = binary.BigEndian.AppendUint32(out, d)
	}
	return append(out, data...)
}

func TestReadIDXLabelTypes(t *testing.T) {
	dir := t.TempDir()
	l, err := ReadIDXLabels(writeFile(t, dir, "s8", idxBytes(0x09, []uint32{3}, []byte{0xff, 1, 0x80})))
	require.NoError(t, err)
	assert.Equal(t, []int{-1, 1, -128}, l)
	l, err = ReadIDXLabels(writeFile(t, dir, "i16", idxBytes(0x0B, []uint32{2}, []byte{0xff, 0xfe, 1, 0})))
	require.NoError(t, err)
	assert.Equal(t, []int{-2, 256}, l)
	l, err = ReadIDXLabels(writeFile(t, dir, "i32", idxBytes(0x0C, []uint32{1}, []byte{0, 1, 0, 0})))
	require.NoError(t, err)
	assert.Equal(t, []int{65536}, l)
	_, err = ReadIDXLabels(writeFile(t, dir, "f32", idxBytes(0x0D, []uint32{1}, []byte{0, 0, 0, 0})))
	requireParseError(t, err, 0, "1-dimensional float32 file: labels need integers")
}

// TestReadIDXHostile: sizes that the file does not hold are refused before
// anything of that size is allocated, gzipped or not.
func TestReadIDXHostile(t *testing.T) {
	dir := t.TempDir()
	huge := idxBytes(0x08, []uint32{60000 * 1000, 28, 28}, make([]byte, 100))
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"huge":         {huge, "header declares [60000000 28 28] unsigned byte elements (47040000000 bytes) after 16 header bytes, but the file has 116 bytes"},
		"huge.gz":      {gzipped(t, huge), "100 bytes of elements, but the header declares [60000000 28 28]"},
		"max dims":     {idxBytes(0x0E, []uint32{0xffffffff, 0xffffffff, 0xffffffff}, nil), "too many elements"},
		"long":         {idxBytes(0x08, []uint32{2}, []byte{1, 2, 3}), "header declares [2] unsigned byte elements (2 bytes) after 8 header bytes, but the file has 11 bytes"},
		"long.gz":      {gzipped(t, idxBytes(0x08, []uint32{2}, []byte{1, 2, 3})), "more than the 2 bytes the header declares"},
		"truncated.gz": {gzipped(t, idxBytes(0x08, []uint32{2000}, make([]byte, 2000)))[:40], "truncated gzip stream"},
		"magic":        {[]byte{0, 0, 0x07, 1, 0, 0, 0, 0}, "magic number 0x00000701 at byte 0"},
		"no dims":      {[]byte{0, 0, 0x08, 0}, "magic number 0x00000800"},
		"short":        {[]byte{0, 0}, "file ends in the magic number"},
		"short sizes":  {[]byte{0, 0, 8, 3, 0, 0, 0, 1}, "file ends in the sizes"},
		"empty":        {[]byte{}, "empty file"},
		"no images":    {idxBytes(0x08, []uint32{0, 28, 28}, nil), "sizes [0 28 28]: no images"},
	} {
		path := writeFile(t, dir, name, c.data)
		alloc := allocated(func() {
			_, err := ReadIDXImages(path)
			requireParseError(t, err, 0, c.want)
		})
		assert.Less(t, alloc, uint64(1<<20), name)
	}
}
