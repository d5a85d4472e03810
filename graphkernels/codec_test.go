package graphkernels

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/modelfile"
)

// TestWLClassifierFileDictionarySize: a model file whose dictionary size
// is not its round-0 labels plus its signatures is refused, and a size
// near 2³¹ costs no allocation of that size (the file's arrays bound it).
func TestWLClassifierFileDictionarySize(t *testing.T) {
	train, labels := shapes(t, []int{4, 5, 6})
	c := &WLClassifier{H: 2, C: 1}
	require.NoError(t, c.Fit(context.Background(), train, labels))
	for _, size := range []int{math.MaxInt32, c.wl.Dimension() + 1, c.wl.Dimension() - 1} {
		f, err := c.ModelFile()
		require.NoError(t, err)
		var meta map[string]any
		require.NoError(t, f.DecodeMetadata(&meta))
		meta["dictionary_size"] = size
		require.NoError(t, f.SetMetadata(meta))
		data, err := f.MarshalBinary()
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = (&WLClassifier{}).UnmarshalBinary(data)
		runtime.ReadMemStats(&after)
		require.Error(t, err, "size %d", size)
		assert.ErrorContains(t, err, "dictionary of", "size %d", size)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "size %d: allocated %d bytes", size, after.TotalAlloc-before.TotalAlloc)
	}
}

// replaceSection returns a copy of f with section name put by put instead.
func replaceSection(t *testing.T, f *modelfile.File, name string, put func(g *modelfile.File)) *modelfile.File {
	t.Helper()
	g := modelfile.New(f.Kind, f.KindVersion)
	g.Metadata = f.Metadata
	copiers := map[modelfile.Type]func(string){
		modelfile.Bytes:    func(n string) { copySection(t, f.Bytes, g.PutBytes, n) },
		modelfile.Int32s:   func(n string) { copySection(t, f.Int32s, g.PutInt32s, n) },
		modelfile.Int64s:   func(n string) { copySection(t, f.Int64s, g.PutInt64s, n) },
		modelfile.Float64s: func(n string) { copySection(t, f.Float64s, g.PutFloat64s, n) },
	}
	for _, s := range f.Sections() {
		if s.Name == name {
			put(g)
			continue
		}
		cp, ok := copiers[s.Type]
		require.True(t, ok, "section %q of type %v", s.Name, s.Type)
		cp(s.Name)
	}
	return g
}

func copySection[T any](t *testing.T, get func(string) ([]T, error), put func(string, []T), name string) {
	v, err := get(name)
	require.NoError(t, err)
	put(name, v)
}

// TestWLClassifierFileOffsetsPastTheEnd: a model file whose signature or
// feature offsets run past the end of their section, before coming back to
// it, is refused (it once panicked slicing the section).
func TestWLClassifierFileOffsetsPastTheEnd(t *testing.T) {
	train, labels := shapes(t, []int{4, 5, 6})
	c := &WLClassifier{H: 2, C: 1}
	require.NoError(t, c.Fit(context.Background(), train, labels))
	f, err := c.ModelFile()
	require.NoError(t, err)
	for _, name := range []string{"wl.key_offsets", "wl.train_offsets"} {
		offs, err := f.Int64s(name)
		require.NoError(t, err)
		require.Greater(t, len(offs), 2, name)
		bad := append([]int64(nil), offs...)
		bad[1] = 1 << 33
		g := replaceSection(t, f, name, func(g *modelfile.File) { g.PutInt64s(name, bad) })
		var got WLClassifier
		err = got.ReadModelFile(g)
		require.Error(t, err, name)
		assert.ErrorContains(t, err, "the model file's", name)
		assert.Nil(t, got.svc, name)
	}
}
