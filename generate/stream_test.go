package generate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDrawChunkMatchesDraw: the batched draws of drawChunk, which look the
// nodes up after drawing a batch, give the edges of drawing each edge with
// its lookups in turn (draw, the model's definition), from the same
// streams: every class-pair path of the SBM (within, between by the pair
// table and by rejection, equal and power-law degrees, redrawn self loops)
// and R-MAT's permuted nodes.
func TestDrawChunkMatchesDraw(t *testing.T) {
	sbms := []SBM{
		{Nodes: 5000, Classes: 10, Degree: 12, Mixing: 0.3, Seed: 1},
		{Nodes: 5000, Classes: 1, Degree: 12, Seed: 2},
		{Nodes: 5000, Classes: 3, Degree: 12, Mixing: 1, Seed: 3},
		{Nodes: 5000, Classes: 300, Degree: 12, Mixing: 0.5, Seed: 4},
		{Nodes: 5000, Classes: 4, Degree: 12, Mixing: 0.2, Exponent: math.Inf(1), Seed: 5},
		{Nodes: 500, Classes: 4, Degree: 30, Mixing: 0.2, NoSelfLoops: true, Seed: 6},
	}
	type model struct {
		chunk chunkDrawer
		one   func(*rand.Rand) (int32, int32)
	}
	var models []model
	for _, cfg := range sbms {
		g, err := NewSBM(cfg)
		require.NoError(t, err)
		models = append(models, model{g.drawChunk, g.draw})
	}
	r, err := NewRMAT(RMAT{Scale: 12, EdgeFactor: 4, Seed: 7})
	require.NoError(t, err)
	models = append(models, model{r.drawChunk, func(rng *rand.Rand) (int32, int32) {
		i, j := r.draw(rng)
		return r.perm[i], r.perm[j]
	}})
	for k, m := range models {
		for _, count := range []int{1, resolveBatch - 1, 3*resolveBatch + 17} {
			got, want := newEdgeBuf(), newEdgeBuf()
			m.chunk(stream(9, tagEdges, count), count, got)
			perEdge(m.one)(stream(9, tagEdges, count), count, want)
			require.Equal(t, want.src, got.src, "model %d, %d edges", k, count)
			require.Equal(t, want.dst, got.dst, "model %d, %d edges", k, count)
		}
	}
}

// TestGenerateUnordered: the unordered stream delivers Generate's chunks,
// each once, and stops at the first error of the callback.
func TestGenerateUnordered(t *testing.T) {
	saved := edgeChunk
	edgeChunk = 700
	defer func() { edgeChunk = saved }()
	sbm, err := NewSBM(SBM{Nodes: 3000, Classes: 4, Degree: 20, Mixing: 0.2, Seed: 5})
	require.NoError(t, err)
	rmat, err := NewRMAT(RMAT{Scale: 11, EdgeFactor: 9, Seed: 5})
	require.NoError(t, err)
	for _, gen := range []UnorderedGenerator{sbm, rmat} {
		chunks := func(each func(context.Context, func(Edges) error) error) [][2][]int32 {
			var mu sync.Mutex
			var out [][2][]int32
			require.NoError(t, each(context.Background(), func(e Edges) error {
				mu.Lock()
				out = append(out, [2][]int32{slices.Clone(e.Src), slices.Clone(e.Dst)})
				mu.Unlock()
				return nil
			}))
			slices.SortFunc(out, func(a, b [2][]int32) int {
				if c := slices.Compare(a[0], b[0]); c != 0 {
					return c
				}
				return slices.Compare(a[1], b[1])
			})
			return out
		}
		want := chunks(gen.Generate)
		require.Len(t, want, int((gen.NumEdges()+699)/700))
		require.Equal(t, want, chunks(gen.GenerateUnordered))

		stop := errors.New("stop")
		var mu sync.Mutex
		calls := 0
		err := gen.GenerateUnordered(context.Background(), func(Edges) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			return stop
		})
		require.ErrorIs(t, err, stop)
		require.Less(t, calls, len(want))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		require.ErrorIs(t, gen.GenerateUnordered(ctx, func(Edges) error { return nil }), context.Canceled)
	}
}
