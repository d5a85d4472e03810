package generate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gssl/gssl/internal/hugepage"
)

// Defaults of the SBM's zero fields.
const (
	// DefaultDegree is the mean degree D = 2m/n.
	DefaultDegree = 10
	// DefaultExponent is the power-law exponent γ of the expected degrees.
	DefaultExponent = 2.5
	// DefaultMixing is the CLI's mixing parameter μ (the library's zero
	// value means μ = 0: no edges between classes).
	DefaultMixing = 0.3
	// DefaultClasses is the CLI's number of classes.
	DefaultClasses = 5
)

// SBM configures a degree-corrected stochastic block model (see the package
// documentation). The zero values of Degree and Exponent mean their
// defaults.
type SBM struct {
	// Nodes is n ≥ 1.
	Nodes int
	// Classes is the number of planted classes C ≥ 1; with Sizes it may be
	// 0 or len(Sizes).
	Classes int
	// Sizes are the class sizes (positive, summing to Nodes); nil means
	// sizes as equal as possible (the first n mod C classes one larger).
	Sizes []int
	// Degree is the mean degree D > 0: m = round(n·D/2) edges. 0 means
	// DefaultDegree.
	Degree float64
	// Exponent is the power-law exponent γ > 2 of the expected degrees;
	// math.Inf(1) gives equal expected degrees. 0 means DefaultExponent.
	Exponent float64
	// Mixing is μ in [0, 1], each node's expected fraction of edges that
	// leave its class. μ > 0 needs two classes or more.
	Mixing float64
	// NoSelfLoops redraws edges from a node to itself.
	NoSelfLoops bool
	// Seed selects the graph: the same seed gives the same graph.
	Seed uint64
}

// Validate checks the configuration.
func (s *SBM) Validate() error {
	if s.Nodes < 1 || s.Nodes > math.MaxInt32 {
		return fmt.Errorf("generate: sbm: nodes=%d is invalid: it must be in [1, %d]", s.Nodes, math.MaxInt32)
	}
	if s.Sizes != nil {
		if s.Classes != 0 && s.Classes != len(s.Sizes) {
			return fmt.Errorf("generate: sbm: classes=%d but %d sizes given", s.Classes, len(s.Sizes))
		}
		sum := 0
		for c, z := range s.Sizes {
			if z < 1 {
				return fmt.Errorf("generate: sbm: size %d of class %d is invalid: sizes must be ≥ 1", z, c)
			}
			sum += z
		}
		if sum != s.Nodes {
			return fmt.Errorf("generate: sbm: class sizes sum to %d, want nodes=%d", sum, s.Nodes)
		}
	} else if s.Classes < 1 || s.Classes > s.Nodes {
		return fmt.Errorf("generate: sbm: classes=%d is invalid: it must be in [1, nodes=%d]", s.Classes, s.Nodes)
	}
	if d := s.degree(); !(d > 0) || math.IsInf(d, 0) || d*float64(s.Nodes)/2 > math.MaxInt64/2 {
		return fmt.Errorf("generate: sbm: degree=%v is invalid: it must be finite and > 0", s.Degree)
	}
	if s.Degree >= float64(s.Nodes) {
		return fmt.Errorf("generate: sbm: degree=%v is invalid: it must be below nodes=%d (a mean degree of n or more asks for more edges than node pairs: an edge stream without end)", s.Degree, s.Nodes)
	}
	if g := s.exponent(); !(g > 2) {
		return fmt.Errorf("generate: sbm: exponent=%v is invalid: it must be > 2 (finite mean degree), or +Inf for equal degrees", s.Exponent)
	}
	if !(s.Mixing >= 0 && s.Mixing <= 1) {
		return fmt.Errorf("generate: sbm: mixing=%v is invalid: it must be in [0, 1]", s.Mixing)
	}
	if s.Mixing > 0 && s.classes() < 2 {
		return fmt.Errorf("generate: sbm: mixing=%v needs at least 2 classes", s.Mixing)
	}
	return nil
}

func (s *SBM) classes() int {
	if s.Sizes != nil {
		return len(s.Sizes)
	}
	return s.Classes
}

func (s *SBM) degree() float64 {
	if s.Degree == 0 {
		return DefaultDegree
	}
	return s.Degree
}

func (s *SBM) exponent() float64 {
	if s.Exponent == 0 {
		return DefaultExponent
	}
	return s.Exponent
}

// SBMGraph is a drawn SBM: the classes and degree parameters of its nodes,
// and the sampling tables its edges are drawn from. It is safe for
// concurrent use.
type SBMGraph struct {
	cfg    SBM
	m      int64
	labels []int32   // class of each node
	theta  []float64 // degree parameter of each node
	kappa  []float64 // Σθ per class
	sizes  []int
	// slots[start[r]:start[r+1]] are the nodes of class r, ascending, with
	// their alias table (sampled ∝ θ): one 16-byte slot per node, so that a
	// draw reads one cache line of a table far larger than the caches.
	slots []nodeSlot
	start []int
	intra *aliasTable // class of a within-class edge, ∝ κ_r
	pairs *aliasTable // ordered class pair (r, s ≠ r) of a between-class edge (C ≤ maxPairTable)
	inter *aliasTable // class of each end, rejecting equal classes (C > maxPairTable)
}

// maxPairTable is the number of classes up to which between-class pairs
// are drawn from a table of the C(C−1) ordered pairs, without rejection.
const maxPairTable = 256

// NewSBM draws the classes and degree parameters of the nodes.
func NewSBM(cfg SBM) (*SBMGraph, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n, C := cfg.Nodes, cfg.classes()
	g := &SBMGraph{cfg: cfg, m: int64(math.Round(float64(n) * cfg.degree() / 2))}
	g.sizes = cfg.Sizes
	if g.sizes == nil {
		g.sizes = make([]int, C)
		for c := range g.sizes {
			g.sizes[c] = n / C
			if c < n%C {
				g.sizes[c]++
			}
		}
	} else {
		g.sizes = append([]int(nil), g.sizes...)
	}
	rng := stream(cfg.Seed, tagSetup, 0)
	// Classes in blocks, then shuffled.
	g.labels = make([]int32, n)
	i := 0
	for c, z := range g.sizes {
		for k := 0; k < z; k++ {
			g.labels[i] = int32(c)
			i++
		}
	}
	rng.Shuffle(n, func(a, b int) { g.labels[a], g.labels[b] = g.labels[b], g.labels[a] })
	g.drawTheta(rng)
	g.buildNodeTables()
	if err := g.buildClassTables(); err != nil {
		return nil, err
	}
	return g, nil
}

// drawTheta draws the degree parameters: Pareto with the configured
// exponent (1 when it is infinite), capped so that no expected degree
// exceeds n − 1.
func (g *SBMGraph) drawTheta(rng *rand.Rand) {
	cfg := g.cfg
	n := cfg.Nodes
	g.theta = make([]float64, n)
	gamma := cfg.exponent()
	var sum float64
	for i := range g.theta {
		t := 1.0
		if !math.IsInf(gamma, 1) {
			t = math.Pow(1-rng.Float64(), -1/(gamma-1))
		}
		g.theta[i] = t
		sum += t
	}
	if limit := sum / float64(n) * float64(n-1) / cfg.degree(); limit >= 1 {
		for i, t := range g.theta {
			g.theta[i] = min(t, limit)
		}
	}
}

// buildNodeTables lists the members of each class, ascending, with their
// alias tables (∝ θ) in slots, and sets κ.
func (g *SBMGraph) buildNodeTables() {
	n, C := g.cfg.Nodes, len(g.sizes)
	g.start = make([]int, C+1)
	for c, z := range g.sizes {
		g.start[c+1] = g.start[c] + z
	}
	members := make([]int32, n)
	next := append([]int(nil), g.start[:C]...)
	for i, c := range g.labels {
		members[next[c]] = int32(i)
		next[c]++
	}
	prob := make([]float64, n)
	alias := make([]int32, n)
	g.kappa = make([]float64, C)
	maxSize := 0
	for _, z := range g.sizes {
		maxSize = max(maxSize, z)
	}
	w := make([]float64, maxSize)
	small, large := make([]int32, 0, maxSize), make([]int32, 0, maxSize)
	for c := 0; c < C; c++ {
		lo, hi := g.start[c], g.start[c+1]
		w = w[:hi-lo]
		for k, node := range members[lo:hi] {
			w[k] = g.theta[node]
			g.kappa[c] += w[k]
		}
		buildAlias(prob[lo:hi], alias[lo:hi], w, small, large)
	}
	g.slots = hugepage.Slice[nodeSlot](n) // read at random by every draw
	for c := 0; c < C; c++ {
		lo, hi := g.start[c], g.start[c+1]
		for k := lo; k < hi; k++ {
			g.slots[k] = nodeSlot{prob: prob[k], self: members[k], other: members[lo+int(alias[k])]}
		}
	}
}

// buildClassTables builds the alias tables of the class of a within-class
// edge (∝ κ) and of the classes of a between-class edge.
func (g *SBMGraph) buildClassTables() error {
	cfg, C := g.cfg, len(g.sizes)
	intraW := append([]float64(nil), g.kappa...)
	if cfg.NoSelfLoops {
		// A class of one node has no edge inside it but self loops.
		for c, z := range g.sizes {
			if z == 1 {
				intraW[c] = 0
			}
		}
	}
	if cfg.Mixing < 1 {
		positive := false
		for _, v := range intraW {
			positive = positive || v > 0
		}
		if !positive {
			return fmt.Errorf("generate: sbm: no class has two nodes, so within-class edges would all be self loops (NoSelfLoops is set and mixing=%v < 1)", cfg.Mixing)
		}
		g.intra = newAlias(intraW)
	}
	if cfg.Mixing > 0 {
		x := pairWeights(g.kappa)
		if C <= maxPairTable {
			pw := make([]float64, 0, C*(C-1))
			for r := 0; r < C; r++ {
				for s := 0; s < C; s++ {
					if s != r {
						pw = append(pw, x[r]*x[s])
					}
				}
			}
			g.pairs = newAlias(pw)
		} else {
			g.inter = newAlias(x)
		}
	}
	return nil
}

// pairWeights solves x_r(1 − x_r) = λ q_r, Σ x_r = 1, with q = κ/Σκ, so
// that ordered pairs drawn ∝ x_r x_s (r ≠ s) give class r a share q_r of
// the ends: the smaller root for every class, or the larger one for the
// largest class when the smaller roots cannot reach a sum of 1. When no
// solution exists (a class holds half of the mass or more) it returns q.
func pairWeights(kappa []float64) []float64 {
	C := len(kappa)
	var K float64
	for _, k := range kappa {
		K += k
	}
	q := make([]float64, C)
	big := 0
	for r, k := range kappa {
		q[r] = k / K
		if q[r] > q[big] {
			big = r
		}
	}
	// When a class is so heavy that no exact solution exists, fall back
	// to q itself.
	const margin = 1e-9
	if q[big] >= 0.5-margin {
		return q
	}
	x := make([]float64, C)
	roots := func(lambda float64, largeBig bool) float64 {
		var sum float64
		for r := range q {
			d := math.Sqrt(math.Max(0, 1-4*lambda*q[r]))
			if largeBig && r == big {
				x[r] = (1 + d) / 2
			} else {
				x[r] = (1 - d) / 2
			}
			sum += x[r]
		}
		return sum
	}
	lmax := 1 / (4 * q[big])
	largeBig := roots(lmax, false) < 1
	// With small roots the sum increases with λ; with the large root for
	// the largest class it decreases (near the solution). Bisect on λ.
	lo, hi := 0.0, lmax
	for it := 0; it < 200; it++ {
		mid := (lo + hi) / 2
		s := roots(mid, largeBig)
		if (s < 1) != largeBig {
			lo = mid
		} else {
			hi = mid
		}
	}
	roots((lo+hi)/2, largeBig)
	return append([]float64(nil), x...)
}

// Nodes returns n.
func (g *SBMGraph) Nodes() int { return len(g.labels) }

// NumEdges returns the number of edges m = round(n·D/2).
func (g *SBMGraph) NumEdges() int64 { return g.m }

// Classes returns the number of classes.
func (g *SBMGraph) Classes() int { return len(g.sizes) }

// Sizes returns the class sizes (a copy).
func (g *SBMGraph) Sizes() []int { return append([]int(nil), g.sizes...) }

// Labels returns the class of every node (a new slice).
func (g *SBMGraph) Labels() []int {
	out := make([]int, len(g.labels))
	for i, c := range g.labels {
		out[i] = int(c)
	}
	return out
}

// Label returns the class of node i.
func (g *SBMGraph) Label(i int) int { return int(g.labels[i]) }

// ExpectedDegree returns the expected degree of node i, 2m·θ_i/K.
func (g *SBMGraph) ExpectedDegree(i int) float64 {
	var K float64
	for _, k := range g.kappa {
		K += k
	}
	return 2 * float64(g.m) * g.theta[i] / K
}

// nodeSlot is position k of a class's alias table: its acceptance
// probability, its node and the node of its alias.
type nodeSlot struct {
	prob        float64
	self, other int32
}

// node draws a node of class r ∝ θ: sampleAlias on the class's slots (the
// same draws from rng, the same node).
func (g *SBMGraph) node(r int32, rng *rand.Rand) int32 {
	k, u := g.slot(r, rng)
	return g.slots[k].pick(u)
}

// draw draws one edge: its classes, then a node of each ∝ θ.
func (g *SBMGraph) draw(rng *rand.Rand) (int32, int32) {
	r, s := g.classes(rng)
	if r != s {
		return g.node(r, rng), g.node(s, rng)
	}
	u, v := g.node(r, rng), g.node(r, rng)
	for g.cfg.NoSelfLoops && u == v {
		u, v = g.node(r, rng), g.node(r, rng)
	}
	return u, v
}

// classes draws the classes of one edge's ends, as draw does before its
// nodes.
func (g *SBMGraph) classes(rng *rand.Rand) (r, s int32) {
	if g.cfg.Mixing > 0 && (g.intra == nil || rng.Float64() < g.cfg.Mixing) {
		if g.pairs != nil {
			C := int32(len(g.sizes))
			k := g.pairs.sample(rng)
			r, s = k/(C-1), k%(C-1)
			if s >= r {
				s++
			}
			return r, s
		}
		for r == s {
			r, s = g.inter.sample(rng), g.inter.sample(rng)
		}
		return r, s
	}
	r = g.intra.sample(rng)
	return r, r
}

// resolveBatch is the number of edges drawChunk draws before it looks their
// nodes up.
const resolveBatch = 256

// drawChunk draws count edges into b, the edges draw gives from the same
// stream. A node is drawn as a slot of its class's alias table and a
// uniform number (node's two draws), and the slot, read where the number
// decides between its node and its alias, is looked up later, for a batch
// of edges at a time: the slots of a large graph are far larger than the
// caches, and the lookups of a batch, independent of each other, wait for
// memory together instead of one after the other. With NoSelfLoops the
// nodes decide whether an edge is drawn again, so it draws edge by edge.
func (g *SBMGraph) drawChunk(rng *rand.Rand, count int, b *edgeBuf) {
	if g.cfg.NoSelfLoops {
		perEdge(g.draw)(rng, count, b)
		return
	}
	if cap(b.fu) < resolveBatch {
		b.fu, b.fv = make([]float64, resolveBatch), make([]float64, resolveBatch)
	}
	b.src, b.dst = b.src[:count], b.dst[:count]
	for lo := 0; lo < count; lo += resolveBatch {
		src, dst := b.src[lo:min(lo+resolveBatch, count)], b.dst[lo:min(lo+resolveBatch, count)]
		fu, fv := b.fu[:len(src)], b.fv[:len(src)]
		for e := range src {
			r, s := g.classes(rng)
			src[e], fu[e] = g.slot(r, rng)
			dst[e], fv[e] = g.slot(s, rng)
		}
		for e, k := range src {
			src[e] = g.slots[k].pick(fu[e])
			dst[e] = g.slots[dst[e]].pick(fv[e])
		}
	}
}

// slot draws a slot of class r's alias table and the uniform number that
// picks its node or its alias (node's draws, in node's order).
func (g *SBMGraph) slot(r int32, rng *rand.Rand) (int32, float64) {
	lo, hi := g.start[r], g.start[r+1]
	k := lo + rng.IntN(hi-lo)
	return int32(k), rng.Float64()
}

// pick returns the slot's node when u < its acceptance probability, else
// its alias.
func (sl *nodeSlot) pick(u float64) int32 {
	v := sl.other
	if u < sl.prob {
		v = sl.self
	}
	return v
}

// Generate streams the m edges to fn in chunks (see Generator).
func (g *SBMGraph) Generate(ctx context.Context, fn func(Edges) error) error {
	return generateEdges(ctx, g.cfg.Seed, g.m, g.drawChunk, fn)
}

// GenerateUnordered streams the chunks of Generate to fn from several
// goroutines (see UnorderedGenerator).
func (g *SBMGraph) GenerateUnordered(ctx context.Context, fn func(Edges) error) error {
	return generateUnordered(ctx, g.cfg.Seed, g.m, g.drawChunk, fn)
}

var _ UnorderedGenerator = (*SBMGraph)(nil)
