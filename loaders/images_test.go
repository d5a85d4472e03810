package loaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scaleTol allows for b·(1/255) and b/255 differing in the last bit.
const scaleTol = 1e-15

func TestReadImages(t *testing.T) {
	data := make([]byte, 3*4) // three 2×2 images
	for i := range data {
		data[i] = byte(i * 20)
	}
	data[11] = 255
	dir := t.TempDir()
	for _, path := range []string{writeFile(t, dir, "images_u8.bin", data), writeFile(t, dir, "images_u8.bin.gz", gzipped(t, data))} {
		im, err := ReadImages(path, 4)
		require.NoError(t, err, path)
		assert.Equal(t, 3, im.Count)
		assert.Equal(t, 4, im.Pixels)
		assert.Equal(t, data, im.Data)
		assert.Equal(t, data[8:12], im.Image(2))

		x := im.Dense(nil)
		r, c := x.Dims()
		require.Equal(t, 3, r)
		require.Equal(t, 4, c)
		for k := 0; k < 3; k++ {
			for p := 0; p < 4; p++ {
				assert.InDelta(t, float64(data[4*k+p])/255, x.At(k, p), scaleTol)
			}
		}
		assert.Equal(t, 1.0, x.At(2, 3))

		sub := im.Dense([]int{2, 0})
		assert.Equal(t, x.RawRowView(2), sub.RawRowView(0))
		assert.Equal(t, x.RawRowView(0), sub.RawRowView(1))
		head := im.DenseRange(0, 2)
		assert.Equal(t, x.RawRowView(1), head.RawRowView(1))
		assert.True(t, im.DenseRange(1, 1).IsEmpty())
		assert.True(t, im.Dense([]int{}).IsEmpty())
		// the bytes themselves: 255 times the scaled pixels
		raw := im.BytesRange(1, 3)
		for r := 0; r < 2; r++ {
			for c, b := range im.Image(r + 1) {
				assert.Equal(t, float64(b), raw.At(r, c))
			}
		}
		assert.True(t, im.BytesRange(2, 2).IsEmpty())
		assert.Panics(t, func() { im.BytesRange(0, im.Count+1) })
	}
}

func TestReadImagesBadInput(t *testing.T) {
	data := make([]byte, 784*50)
	for i := range data {
		data[i] = byte(i * 7)
	}
	gz := gzipped(t, data)
	t.Run("size not a multiple", func(t *testing.T) {
		_, err := ReadImages(writeFile(t, t.TempDir(), "im.bin.gz", gzipped(t, data[:784*3+5])), 784)
		requireParseError(t, err, 0, "2357 bytes is not a multiple of 784 pixels per image")
	})
	t.Run("truncated gzip", func(t *testing.T) {
		_, err := ReadImages(writeFile(t, t.TempDir(), "im.bin.gz", gz[:len(gz)/2]), 784)
		requireParseError(t, err, 0, "unexpected EOF")
	})
	t.Run("truncated gzip trailer", func(t *testing.T) {
		_, err := ReadImages(writeFile(t, t.TempDir(), "im.bin.gz", gz[:len(gz)-3]), 784)
		requireParseError(t, err, 0, "unexpected EOF")
	})
	t.Run("empty file", func(t *testing.T) {
		_, err := ReadImages(writeFile(t, t.TempDir(), "im.bin", nil), 784)
		requireParseError(t, err, 0, "empty file")
	})
	t.Run("empty gzip", func(t *testing.T) {
		_, err := ReadImages(writeFile(t, t.TempDir(), "im.bin.gz", gzipped(t, nil)), 784)
		requireParseError(t, err, 0, "empty file")
	})
	t.Run("missing file", func(t *testing.T) {
		_, err := ReadImages("no/such/images.bin", 784)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no/such/images.bin")
	})
	t.Run("programmer errors panic", func(t *testing.T) {
		im := &Images{Count: 1, Pixels: 2, Data: []byte{1, 2}}
		assert.Panics(t, func() { im.Image(1) })
		assert.Panics(t, func() { im.Dense([]int{-1}) })
		assert.Panics(t, func() { im.DenseRange(0, 2) })
	})
}

func TestReadIntsFloats(t *testing.T) {
	ints, err := ReadInts(tempFile(t, "labels.txt", "# digits\n3\n-1\n 7 \n\n\n"))
	require.NoError(t, err)
	assert.Equal(t, []int{3, -1, 7}, ints, "trailing blank lines end the file")

	floats, err := ReadFloats(tempFile(t, "angles.txt", "-44.955000\n0\n1e-3\r\n"))
	require.NoError(t, err)
	assert.Equal(t, []float64{-44.955, 0, 1e-3}, floats)
}

func TestReadIntsFloatsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		floats  bool
		line    int
		want    string
	}{
		{"int not an integer", "1\n2.5\n", false, 2, `value "2.5" is not an integer`},
		{"int two fields", "1\n2 3\n", false, 2, `value "2 3" is not an integer`},
		{"int out of range", "1\n99999999999\n", false, 2, "out of range"},
		{"int blank inside", "1\n\n2\n", false, 2, "blank line"},
		{"int empty", "", false, 0, "empty file"},
		{"int only comments", "# nothing\n", false, 0, "no values"},
		{"float NaN", "1\nNaN\n", true, 2, "value NaN is not finite"},
		{"float Inf", "-inf\n", true, 1, "value -inf is not finite"},
		{"float text", "1\nx\n", true, 2, `value "x" is not a number`},
		{"float blank inside", "1\n \n2\n", true, 2, "blank line"},
		{"float empty", "", true, 0, "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tempFile(t, "values.txt", tc.content)
			var err error
			if tc.floats {
				_, err = ReadFloats(path)
			} else {
				_, err = ReadInts(path)
			}
			requireParseError(t, err, tc.line, tc.want)
		})
	}
}

func TestReadIntsTruncatedGzip(t *testing.T) {
	var content []byte
	for i := 0; i < 10000; i++ {
		content = append(content, byte('0'+i%10), '\n')
	}
	gz := gzipped(t, content)
	_, err := ReadInts(writeFile(t, t.TempDir(), "labels.txt", gz[:len(gz)/2]))
	require.Error(t, err)
	var pe *ParseError
	require.ErrorAs(t, err, &pe)
	assert.Positive(t, pe.Line, "the error names the line being read")
}
