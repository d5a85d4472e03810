package generate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Graph500 parameters of R-MAT.
const (
	DefaultEdgeFactor = 16
	DefaultA          = 0.57
	DefaultB          = 0.19
	DefaultC          = 0.19
	DefaultD          = 0.05
)

// MaxScale is the largest R-MAT scale: node indices are int32.
const MaxScale = 30

// RMAT configures an R-MAT graph (see the package documentation). The zero
// values of EdgeFactor and of A, B, C, D (all four zero) mean the Graph500
// parameters.
type RMAT struct {
	// Scale gives n = 2^Scale nodes, 1 ≤ Scale ≤ MaxScale.
	Scale int
	// EdgeFactor gives m = EdgeFactor·n edges; 0 means DefaultEdgeFactor.
	EdgeFactor int
	// A, B, C, D are the quadrant probabilities (non-negative, summing to
	// 1): A the top-left, B top-right, C bottom-left, D bottom-right.
	A, B, C, D float64
	// NoSelfLoops redraws edges from a node to itself.
	NoSelfLoops bool
	// Seed selects the graph.
	Seed uint64
}

func (r *RMAT) params() (a, b, c, d float64, ef int) {
	a, b, c, d = r.A, r.B, r.C, r.D
	if a == 0 && b == 0 && c == 0 && d == 0 {
		a, b, c, d = DefaultA, DefaultB, DefaultC, DefaultD
	}
	ef = r.EdgeFactor
	if ef == 0 {
		ef = DefaultEdgeFactor
	}
	return
}

// Validate checks the configuration.
func (r *RMAT) Validate() error {
	if r.Scale < 1 || r.Scale > MaxScale {
		return fmt.Errorf("generate: rmat: scale=%d is invalid: it must be in [1, %d]", r.Scale, MaxScale)
	}
	a, b, c, d, ef := r.params()
	if ef < 1 || int64(ef) > math.MaxInt64>>r.Scale {
		return fmt.Errorf("generate: rmat: edge factor %d is invalid: it must be ≥ 1", r.EdgeFactor)
	}
	if r.Scale < 31 && ef > 1<<r.Scale {
		return fmt.Errorf("generate: rmat: edge factor %d is invalid: it must be in [1, 2^scale] (more edges per node than nodes is an edge stream without end)", r.EdgeFactor)
	}
	for _, p := range []float64{a, b, c, d} {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("generate: rmat: a=%v, b=%v, c=%v, d=%v are invalid: each must be in [0, 1]", a, b, c, d)
		}
	}
	if s := a + b + c + d; math.Abs(s-1) > 1e-9 {
		return fmt.Errorf("generate: rmat: a=%v, b=%v, c=%v, d=%v sum to %v, want 1", a, b, c, d, s)
	}
	if r.NoSelfLoops && b+c == 0 {
		return fmt.Errorf("generate: rmat: with b = c = 0 every edge is a self loop, so NoSelfLoops cannot hold")
	}
	return nil
}

// RMATGraph is a drawn R-MAT model: its parameters and vertex permutation.
type RMATGraph struct {
	cfg       RMAT
	n         int
	m         int64
	ab, cNorm float64 // P(row bit 0) = a+b; P(column bit 0 | row bit 1) = c/(c+d)
	aNorm     float64 // P(column bit 0 | row bit 0) = a/(a+b)
	perm      []int32
}

// NewRMAT draws the vertex permutation.
func NewRMAT(cfg RMAT) (*RMATGraph, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a, b, c, d, ef := cfg.params()
	n := 1 << cfg.Scale
	g := &RMATGraph{cfg: cfg, n: n, m: int64(ef) * int64(n), ab: a + b}
	if a+b > 0 {
		g.aNorm = a / (a + b)
	}
	if c+d > 0 {
		g.cNorm = c / (c + d)
	}
	g.perm = make([]int32, n)
	for i := range g.perm {
		g.perm[i] = int32(i)
	}
	rng := stream(cfg.Seed, tagSetup, 0)
	rng.Shuffle(n, func(i, j int) { g.perm[i], g.perm[j] = g.perm[j], g.perm[i] })
	return g, nil
}

// Nodes returns n = 2^scale.
func (g *RMATGraph) Nodes() int { return g.n }

// NumEdges returns m = edge factor · n.
func (g *RMATGraph) NumEdges() int64 { return g.m }

// draw places one edge by descending the scale levels, as Graph500's
// reference generator does: the row bit is 1 with probability c + d, then
// the column bit is 1 with probability b/(a+b) or d/(c+d). The nodes are
// those of the matrix, before the permutation.
func (g *RMATGraph) draw(rng *rand.Rand) (int32, int32) {
	for {
		var i, j int32
		for level := 0; level < g.cfg.Scale; level++ {
			var ib, jb int32
			if rng.Float64() >= g.ab {
				ib = 1
			}
			if ib == 1 {
				if rng.Float64() >= g.cNorm {
					jb = 1
				}
			} else if rng.Float64() >= g.aNorm {
				jb = 1
			}
			i |= ib << level
			j |= jb << level
		}
		if !g.cfg.NoSelfLoops || i != j {
			return i, j
		}
	}
}

// drawChunk draws count edges into b, then permutes their nodes: the
// lookups of a chunk, independent of each other, wait for memory together.
func (g *RMATGraph) drawChunk(rng *rand.Rand, count int, b *edgeBuf) {
	perEdge(g.draw)(rng, count, b)
	for e, i := range b.src {
		b.src[e], b.dst[e] = g.perm[i], g.perm[b.dst[e]]
	}
}

// Generate streams the m edges to fn in chunks (see Generator).
func (g *RMATGraph) Generate(ctx context.Context, fn func(Edges) error) error {
	return generateEdges(ctx, g.cfg.Seed, g.m, g.drawChunk, fn)
}

// GenerateUnordered streams the chunks of Generate to fn from several
// goroutines (see UnorderedGenerator).
func (g *RMATGraph) GenerateUnordered(ctx context.Context, fn func(Edges) error) error {
	return generateUnordered(ctx, g.cfg.Seed, g.m, g.drawChunk, fn)
}

var _ UnorderedGenerator = (*RMATGraph)(nil)
