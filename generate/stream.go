package generate

import (
	"context"
	"math/rand/v2"
	"sync/atomic"

	"github.com/gssl/gssl/internal/parallel"
)

// Edges is a chunk of generated edges: edge k joins Src[k] and Dst[k]. The
// slices are reused once the callback returns.
type Edges struct {
	Src, Dst []int32
}

// Len returns the number of edges in the chunk.
func (e Edges) Len() int { return len(e.Src) }

// Generator is a random graph model that streams its edges.
type Generator interface {
	// Nodes returns the number of nodes n.
	Nodes() int
	// NumEdges returns the number of edges m that Generate produces.
	NumEdges() int64
	// Generate calls fn with every edge, in chunks, in the same order for
	// the same seed. It stops at the first error of fn or of ctx.
	Generate(ctx context.Context, fn func(Edges) error) error
}

// edgeChunk is the number of edges drawn from one random stream (a variable
// for the tests; changing it changes the graphs of every seed): large
// enough that streams are cheap to start, small enough that a batch of
// chunks in flight stays a few megabytes.
var edgeChunk = 1 << 16

// Stream tags keep the random streams of different uses apart.
const (
	tagSetup uint64 = iota + 1
	tagEdges
	tagFeatures
)

// stream returns the random stream of chunk k for the given use.
func stream(seed, tag uint64, k int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, mix64((tag<<48^uint64(k))+0x9e3779b97f4a7c15)))
}

func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// streamChunks draws total items in chunks of size: fill(k, lo, hi, buf)
// draws chunk k into buf (reused per slot) in parallel batches, and emit
// delivers the chunks in order on the calling goroutine.
func streamChunks[B any](ctx context.Context, total int64, size int, newBuf func() B,
	fill func(k int, lo, hi int64, buf B), emit func(buf B) error) error {
	chunks := int((total + int64(size) - 1) / int64(size))
	batch := 4 * parallel.Workers()
	bufs := make([]B, min(batch, chunks))
	for i := range bufs {
		bufs[i] = newBuf()
	}
	for first := 0; first < chunks; first += batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		count := min(batch, chunks-first)
		parallel.Chunks(count, 1, func(j, _, _ int) {
			k := first + j
			lo := int64(k) * int64(size)
			fill(k, lo, min(lo+int64(size), total), bufs[j])
		})
		for j := 0; j < count; j++ {
			if err := emit(bufs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// edgeBuf is one chunk's edges, and the scratch of the draws that resolve
// their nodes in batches (see SBMGraph.drawChunk).
type edgeBuf struct {
	src, dst []int32
	fu, fv   []float64
}

func newEdgeBuf() *edgeBuf {
	return &edgeBuf{src: make([]int32, 0, edgeChunk), dst: make([]int32, 0, edgeChunk)}
}

// chunkDrawer draws count edges from rng into b.src and b.dst, the same
// edges in the same order for the same stream.
type chunkDrawer func(rng *rand.Rand, count int, b *edgeBuf)

// perEdge is the chunkDrawer of a function that draws one edge at a time.
func perEdge(draw func(rng *rand.Rand) (u, v int32)) chunkDrawer {
	return func(rng *rand.Rand, count int, b *edgeBuf) {
		b.src, b.dst = b.src[:0], b.dst[:0]
		for range count {
			u, v := draw(rng)
			b.src = append(b.src, u)
			b.dst = append(b.dst, v)
		}
	}
}

// generateEdges draws the m edges in chunk streams and delivers them to fn
// in order on the calling goroutine.
func generateEdges(ctx context.Context, seed uint64, m int64, draw chunkDrawer, fn func(Edges) error) error {
	return streamChunks(ctx, m, edgeChunk, newEdgeBuf,
		func(k int, lo, hi int64, b *edgeBuf) { draw(stream(seed, tagEdges, k), int(hi-lo), b) },
		func(b *edgeBuf) error { return fn(Edges{Src: b.src, Dst: b.dst}) })
}

// UnorderedGenerator is a Generator that can also deliver its chunks from
// several goroutines at once, in no fixed order: for consumers whose result
// does not depend on the order of the edges (a graph.Builder's count and
// fill), so that the callback runs on every core beside the draws instead
// of on one goroutine after them.
type UnorderedGenerator interface {
	Generator
	// GenerateUnordered calls fn with every chunk of edges that Generate
	// delivers, the same chunks, concurrently and in any order; fn must be
	// safe for concurrent use. It stops at the first error of fn or of ctx
	// (chunks already under way finish).
	GenerateUnordered(ctx context.Context, fn func(Edges) error) error
}

// generateUnordered is generateEdges with fn called on the drawing
// goroutines, each chunk as soon as it is drawn.
func generateUnordered(ctx context.Context, seed uint64, m int64, draw chunkDrawer, fn func(Edges) error) error {
	chunks := int((m + int64(edgeChunk) - 1) / int64(edgeChunk))
	bufs := parallel.FreeList[*edgeBuf]{New: newEdgeBuf}
	var failed atomic.Bool
	errs := make([]error, chunks)
	parallel.Chunks(chunks, 1, func(k, _, _ int) {
		if failed.Load() {
			return
		}
		if errs[k] = ctx.Err(); errs[k] == nil {
			b := bufs.Get()
			lo := int64(k) * int64(edgeChunk)
			draw(stream(seed, tagEdges, k), int(min(lo+int64(edgeChunk), m)-lo), b)
			errs[k] = fn(Edges{Src: b.src, Dst: b.dst})
			bufs.Put(b)
		}
		if errs[k] != nil {
			failed.Store(true)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
