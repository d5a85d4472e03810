package graphkernels

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
