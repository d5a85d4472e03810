package generate

import (
	"context"
	"math/rand/v2"

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

// edgeBuf is one chunk's edges.
type edgeBuf struct {
	src, dst []int32
}

func newEdgeBuf() *edgeBuf {
	return &edgeBuf{src: make([]int32, 0, edgeChunk), dst: make([]int32, 0, edgeChunk)}
}

// generateEdges runs draw for every edge of a chunk, in chunk streams.
func generateEdges(ctx context.Context, seed uint64, m int64, draw func(rng *rand.Rand) (u, v int32), fn func(Edges) error) error {
	return streamChunks(ctx, m, edgeChunk, newEdgeBuf,
		func(k int, lo, hi int64, b *edgeBuf) {
			rng := stream(seed, tagEdges, k)
			b.src, b.dst = b.src[:0], b.dst[:0]
			for e := lo; e < hi; e++ {
				u, v := draw(rng)
				b.src = append(b.src, u)
				b.dst = append(b.dst, v)
			}
		},
		func(b *edgeBuf) error { return fn(Edges{Src: b.src, Dst: b.dst}) })
}
