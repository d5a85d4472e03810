package modelfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testMeta struct {
	Alpha   float64  `json:"alpha"`
	Classes []string `json:"classes"`
	Graph   GraphRef `json:"graph"`
}

// sample is a small file with a section of every type.
func sample(t testing.TB) *File {
	f := New("test.Model", 2)
	f.Writer = "gssl test"
	require.NoError(t, f.SetMetadata(testMeta{Alpha: 0.9, Classes: []string{"a", "β"}, Graph: GraphRef{Nodes: 3, Edges: 2, Stored: true}}))
	f.PutFloat64s("scores", []float64{1.5, math.Copysign(0, -1), math.Inf(1), math.Float64frombits(0x7ff8000000000123)})
	f.PutInt32s("cols", []int32{-1, 0, math.MaxInt32})
	f.PutInt64s("ids", []int64{math.MinInt64, 7})
	f.PutStrings("names", []string{"", "paper_1", "日本"})
	f.PutBytes("raw", []byte{0, 1, 2})
	f.PutFloat64s("empty", nil)
	return f
}

func TestRoundTrip(t *testing.T) {
	f := sample(t)
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	g, err := Unmarshal(b)
	require.NoError(t, err)
	assert.Equal(t, "test.Model", g.Kind)
	assert.Equal(t, 2, g.KindVersion)
	assert.Equal(t, "gssl test", g.Writer)
	var m testMeta
	require.NoError(t, g.DecodeMetadata(&m))
	assert.Equal(t, testMeta{Alpha: 0.9, Classes: []string{"a", "β"}, Graph: GraphRef{Nodes: 3, Edges: 2, Stored: true}}, m)
	want, _ := f.Float64sNonFinite("scores")
	got, err := g.Float64sNonFinite("scores")
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "bits of scores[%d]", i)
	}
	i32, _ := g.Int32s("cols")
	assert.Equal(t, []int32{-1, 0, math.MaxInt32}, i32)
	i64, _ := g.Int64s("ids")
	assert.Equal(t, []int64{math.MinInt64, 7}, i64)
	s, _ := g.Strings("names")
	assert.Equal(t, []string{"", "paper_1", "日本"}, s)
	raw, _ := g.Bytes("raw")
	assert.Equal(t, []byte{0, 1, 2}, raw)
	e, err := g.Float64s("empty")
	require.NoError(t, err)
	assert.Empty(t, e)
	assert.Equal(t, []SectionInfo{{"scores", Float64s, 4}, {"cols", Int32s, 3}, {"ids", Int64s, 2}, {"names", Strings, 3}, {"raw", Bytes, 3}, {"empty", Float64s, 0}}, g.Sections())
	// Re-encoding what was read gives the same bytes.
	b2, err := g.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, b, b2)

	_, err = g.Float64s("cols")
	assert.ErrorIs(t, err, ErrSection)
	assert.ErrorContains(t, err, `section "cols" of the test.Model model holds int32, not float64`)
	_, err = g.Strings("nope")
	assert.ErrorIs(t, err, ErrSection)
	assert.NoError(t, g.Expect("test.Model", 2))
	err = g.Expect("labelprop.Spreading", 1)
	assert.ErrorIs(t, err, ErrKind)
	assert.ErrorContains(t, err, "holds a test.Model model, not labelprop.Spreading")
	err = g.Expect("test.Model", 1)
	assert.ErrorIs(t, err, ErrVersion)
	assert.ErrorContains(t, err, "layout version 2")
}

// TestLayout checks the header fields at the offsets the package doc gives.
func TestLayout(t *testing.T) {
	b, err := sample(t).MarshalBinary()
	require.NoError(t, err)
	le := binary.LittleEndian
	assert.Equal(t, "GSSLMODL", string(b[:8]))
	assert.Equal(t, uint32(1), le.Uint32(b[8:]))
	assert.Equal(t, uint64(len(b)), le.Uint64(b[16:]))
	assert.Equal(t, uint32(2), le.Uint32(b[24:]))
	assert.Equal(t, uint32(6), le.Uint32(b[28:]))
	assert.Equal(t, uint16(len("test.Model")), le.Uint16(b[32:]))
	assert.Equal(t, "test.Model", string(b[44:54]))
}

func TestMetadataUnknownFieldRefused(t *testing.T) {
	f := New("test.Model", 1)
	require.NoError(t, f.SetMetadata(map[string]any{"alpha": 0.5, "future": 1}))
	var m testMeta
	err := f.DecodeMetadata(&m)
	assert.ErrorIs(t, err, ErrFormat)
	assert.ErrorContains(t, err, "future")
	assert.Error(t, f.SetMetadata([]int{1}))
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gssl")
	require.NoError(t, WriteFile(path, sample(t)))
	g, err := ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "test.Model", g.Kind)
	// A failed write leaves the old file as it was and no temporary file.
	bad := New("bad kind!", 1)
	require.Error(t, WriteFile(path, bad))
	_, err = ReadFile(path)
	require.NoError(t, err)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1)
	// Damage names the path.
	b, _ := os.ReadFile(path)
	require.NoError(t, os.WriteFile(path, b[:len(b)-1], 0o644))
	_, err = ReadFile(path)
	assert.ErrorContains(t, err, path+": model file")
	assert.ErrorContains(t, err, "truncated")
	sum, err := FileSHA256(path)
	require.NoError(t, err)
	assert.Len(t, sum, 64)
}

func TestWriterFilled(t *testing.T) {
	f := New("test.Model", 1)
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	g, err := Unmarshal(b)
	require.NoError(t, err)
	assert.Equal(t, BuildVersion(), g.Writer)
	assert.Contains(t, g.Writer, "gssl ")
}

// TestEveryFlipAndCut: flipping any bit pattern of any byte, or cutting the
// file at any length, is an error wrapping ErrFormat or ErrVersion — never a
// panic, never accepted.
func TestEveryFlipAndCut(t *testing.T) {
	b, err := sample(t).MarshalBinary()
	require.NoError(t, err)
	for i := range b {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			d := bytes.Clone(b)
			d[i] ^= x
			_, err := Unmarshal(d)
			require.Error(t, err, "byte %d ^ %#x accepted", i, x)
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrVersion) {
				t.Fatalf("byte %d ^ %#x: %v is neither ErrFormat nor ErrVersion", i, x, err)
			}
		}
	}
	for n := 0; n < len(b); n++ {
		_, err := Unmarshal(b[:n])
		require.Error(t, err, "cut at %d accepted", n)
		require.ErrorIs(t, err, ErrFormat, "cut at %d", n)
	}
	_, err = Unmarshal(append(bytes.Clone(b), 0))
	assert.ErrorContains(t, err, "bytes after the end")
}

func TestNewerVersionRefused(t *testing.T) {
	b, err := sample(t).MarshalBinary()
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(b[8:], 2)
	_, err = Unmarshal(b)
	assert.ErrorIs(t, err, ErrVersion)
	assert.ErrorContains(t, err, "format version 2 is newer than this gssl")
	_, err = Unmarshal([]byte("PK\x03\x04 not a model"))
	assert.ErrorContains(t, err, "not a gssl model file")
}

// refix recomputes every checksum of a file whose fields were edited, so
// that the length checks themselves are reached.
func refix(b []byte) {
	le := binary.LittleEndian
	le.PutUint64(b[16:], uint64(len(b)))
	le.PutUint32(b[40:], crc32c(b[:40]))
	kl, wl, ml := int(le.Uint16(b[32:])), int(le.Uint16(b[34:])), int(le.Uint32(b[36:]))
	if e := headerSize + kl + wl + ml; e+4 <= len(b) {
		le.PutUint32(b[e:], crc32c(b[headerSize:e]))
	}
	end := len(b) - trailerSize
	sum := sha256sum(b[:end])
	copy(b[end:], sum)
}

// fixSection recomputes the CRC of a section at sec whose name and payload
// lengths are still those written.
func fixSection(b []byte, sec int) {
	end := len(b) - trailerSize - 4
	binary.LittleEndian.PutUint32(b[end:], crc32c(b[sec:end]))
}

// TestHugeDeclaredSizes: sizes that claim far more than the file holds are
// refused before anything that size is allocated.
func TestHugeDeclaredSizes(t *testing.T) {
	f := New("test.Model", 1)
	f.PutFloat64s("x", []float64{1, 2})
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	le := binary.LittleEndian
	sec := headerSize + len("test.Model") + len(f.Writer) + 2 + 4
	cases := map[string]func(d []byte){
		"count 2^60":         func(d []byte) { le.PutUint64(d[sec+8:], 1<<60) },
		"payload 2^62":       func(d []byte) { le.PutUint64(d[sec+16:], 1<<62) },
		"both 2^61 elements": func(d []byte) { le.PutUint64(d[sec+8:], 1<<61); le.PutUint64(d[sec+16:], 1<<64-8) },
		"sections 2^31":      func(d []byte) { le.PutUint32(d[28:], 1<<31) },
		"metadata 2^32-1":    func(d []byte) { le.PutUint32(d[36:], math.MaxUint32) },
		"strings 2^40": func(d []byte) {
			d[sec+2] = byte(Strings)
			le.PutUint64(d[sec+8:], 1<<40)
		},
	}
	for name, edit := range cases {
		d := bytes.Clone(b)
		edit(d)
		fixSection(d, sec)
		refix(d)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Unmarshal(d)
		runtime.ReadMemStats(&after)
		require.ErrorIs(t, err, ErrFormat, name)
		assert.NotContains(t, err.Error(), "checksum", "%s: the length check must be reached: %v", name, err)
		t.Logf("%s: %v", name, err)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), "%s: allocated %d bytes", name, after.TotalAlloc-before.TotalAlloc)
	}
	// A strings section whose strings claim more than its payload.
	g := New("test.Model", 1)
	g.Writer = "w"
	g.PutStrings("s", []string{"ab"})
	d, err := g.MarshalBinary()
	require.NoError(t, err)
	sec = headerSize + len("test.Model") + 1 + 2 + 4
	le.PutUint32(d[sec+sectionHeaderSize+1:], 1<<31)
	le.PutUint32(d[len(d)-trailerSize-4:], crc32c(d[sec:len(d)-trailerSize-4]))
	refix(d)
	_, err = Unmarshal(d)
	assert.ErrorContains(t, err, "length 2147483648 runs past the payload")
}

// TestAllocationBounded: decoding allocates a small multiple of the file
// size (the decoded arrays and a map), however the bytes are damaged.
func TestAllocationBounded(t *testing.T) {
	f := New("test.Model", 1)
	f.PutFloat64s("x", make([]float64, 4096))
	f.PutStrings("s", make([]string, 1024))
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Unmarshal(b)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(5*len(b)+4096))
}

func TestPutPanicsOnMisuse(t *testing.T) {
	f := New("test.Model", 1)
	f.PutInt32s("a", nil)
	assert.PanicsWithValue(t, `modelfile: section "a" put twice`, func() { f.PutInt32s("a", nil) })
	assert.Panics(t, func() { f.PutInt32s("a b", nil) })
	f2 := New("test.Model", 1)
	f2.PutStrings("s", []string{"\xff"})
	_, err := f2.MarshalBinary()
	assert.ErrorContains(t, err, "not valid UTF-8")
	_, err = New("test.Model", 0).MarshalBinary()
	assert.ErrorContains(t, err, "KindVersion = 0")
}

// TestNonFiniteRefused: a NaN planted in a section of a well-formed file
// (every checksum right, as a writer other than gssl would leave it) is an
// error naming the section and the element when the section is read;
// Float64sNonFinite returns it as stored.
func TestNonFiniteRefused(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
		f := New("test.Model", 1)
		f.PutFloat64s("scores", []float64{0.25, 0.75, bad, 0.5})
		b, err := f.MarshalBinary()
		require.NoError(t, err)
		g, err := Unmarshal(b)
		require.NoError(t, err, "the container itself is well formed")
		_, err = g.Float64s("scores")
		require.Error(t, err)
		var fe *Error
		require.True(t, errors.As(err, &fe), "%v", err)
		assert.Equal(t, "scores", fe.Section)
		assert.ErrorIs(t, err, ErrFormat)
		assert.Contains(t, err.Error(), "element 2 of 4")
		v, err := g.Float64sNonFinite("scores")
		require.NoError(t, err)
		assert.Equal(t, math.Float64bits(bad), math.Float64bits(v[2]))
	}
}
