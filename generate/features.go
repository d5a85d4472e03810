package generate

import (
	"context"
	"fmt"
	"slices"
)

// Defaults of the feature options.
const (
	// DefaultFeaturesPerNode is the number of feature draws per node.
	DefaultFeaturesPerNode = 16
	// DefaultTopicProb is the CLI's probability p that a draw comes from the
	// node's class topics (the library's zero value means p = 0: features
	// unrelated to the classes).
	DefaultTopicProb = 0.5
)

// Features configures the sparse binary features of an SBM's nodes (see the
// package documentation).
type Features struct {
	// Columns is the number of features F ≥ 1.
	Columns int
	// PerNode is the number of draws per node, in [1, Columns]; 0 means
	// min(DefaultFeaturesPerNode, Columns).
	PerNode int
	// TopicSize is the number T of topic columns of each class, in
	// [1, Columns]; 0 means max(1, Columns/C).
	TopicSize int
	// TopicProb is the probability p in [0, 1] that a draw is one of the
	// class's topic columns.
	TopicProb float64
}

func (f Features) resolve(classes int) (Features, error) {
	if f.Columns < 1 {
		return f, fmt.Errorf("generate: features: columns=%d is invalid: it must be ≥ 1", f.Columns)
	}
	if f.PerNode == 0 {
		f.PerNode = min(DefaultFeaturesPerNode, f.Columns)
	}
	if f.TopicSize == 0 {
		f.TopicSize = max(1, f.Columns/classes)
	}
	switch {
	case f.PerNode < 1 || f.PerNode > f.Columns:
		return f, fmt.Errorf("generate: features: per-node draws %d is invalid: it must be in [1, columns=%d]", f.PerNode, f.Columns)
	case f.TopicSize < 1 || f.TopicSize > f.Columns:
		return f, fmt.Errorf("generate: features: topic size %d is invalid: it must be in [1, columns=%d]", f.TopicSize, f.Columns)
	case !(f.TopicProb >= 0 && f.TopicProb <= 1):
		return f, fmt.Errorf("generate: features: topic probability %v is invalid: it must be in [0, 1]", f.TopicProb)
	}
	return f, nil
}

// FeatureRows is a chunk of feature rows: row First+k has ones at the
// columns Cols[Indptr[k]:Indptr[k+1]], ascending. The slices are reused
// once the callback returns.
type FeatureRows struct {
	First  int
	Indptr []int
	Cols   []int32
}

// Rows returns the number of rows in the chunk.
func (r FeatureRows) Rows() int { return len(r.Indptr) - 1 }

// featureChunk is the number of nodes whose features one stream draws.
const featureChunk = 4096

// Features streams every node's features to fn, in node order, in chunks.
func (g *SBMGraph) Features(ctx context.Context, f Features, fn func(FeatureRows) error) error {
	f, err := f.resolve(g.Classes())
	if err != nil {
		return err
	}
	// Topic columns: windows of a random permutation of the columns.
	rng := stream(g.cfg.Seed, tagFeatures, -1)
	perm := make([]int32, f.Columns)
	for k := range perm {
		perm[k] = int32(k)
	}
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	C := g.Classes()
	topics := make([]int32, C*f.TopicSize)
	for c := 0; c < C; c++ {
		for k := 0; k < f.TopicSize; k++ {
			topics[c*f.TopicSize+k] = perm[(c*f.TopicSize+k)%f.Columns]
		}
	}
	n := g.Nodes()
	type buf struct {
		first  int
		indptr []int
		cols   []int32
	}
	return streamChunks(ctx, int64(n), featureChunk,
		func() *buf {
			return &buf{indptr: make([]int, 0, featureChunk+1), cols: make([]int32, 0, featureChunk*f.PerNode)}
		},
		func(k int, lo, hi int64, b *buf) {
			rng := stream(g.cfg.Seed, tagFeatures, k)
			b.first = int(lo)
			b.indptr = append(b.indptr[:0], 0)
			b.cols = b.cols[:0]
			for i := lo; i < hi; i++ {
				start := len(b.cols)
				mine := topics[int(g.labels[i])*f.TopicSize:][:f.TopicSize]
				for d := 0; d < f.PerNode; d++ {
					if rng.Float64() < f.TopicProb {
						b.cols = append(b.cols, mine[rng.IntN(len(mine))])
					} else {
						b.cols = append(b.cols, int32(rng.IntN(f.Columns)))
					}
				}
				row := b.cols[start:]
				slices.Sort(row)
				row = slices.Compact(row)
				b.cols = b.cols[:start+len(row)]
				b.indptr = append(b.indptr, len(b.cols))
			}
		},
		func(b *buf) error { return fn(FeatureRows{First: b.first, Indptr: b.indptr, Cols: b.cols}) })
}
