package graph

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/gssl/gssl/internal/parallel"
)

// Subgraph is the graph induced by a subset of a parent graph's nodes, with
// the map between the two numberings. Node i of Graph is node Original[i] of
// the parent.
type Subgraph struct {
	*CSR
	Original []int
	local    []int32 // parent id -> local id, -1 when absent
}

// Local returns the subgraph id of parent node p and whether p is in the
// subgraph.
func (s *Subgraph) Local(p int) (int, bool) {
	if p < 0 || p >= len(s.local) || s.local[p] < 0 {
		return -1, false
	}
	return int(s.local[p]), true
}

// Induced returns the subgraph induced by nodes: node i of the result is
// nodes[i] of g, and it keeps exactly the edges of g between listed nodes.
// Degrees are those of the subgraph. nodes must be distinct and in range.
func (g *CSR) Induced(nodes []int) (*Subgraph, error) {
	local := make([]int32, g.n)
	for i := range local {
		local[i] = -1
	}
	for i, p := range nodes {
		if p < 0 || p >= g.n {
			return nil, fmt.Errorf("graph: induced subgraph: node %d (position %d) out of range [0, %d)", p, i, g.n)
		}
		if local[p] >= 0 {
			return nil, fmt.Errorf("graph: induced subgraph: node %d listed twice (positions %d and %d)", p, local[p], i)
		}
		local[p] = int32(i)
	}
	m := len(nodes)
	indptr := make([]int, m+1)
	for i, p := range nodes {
		cols, _ := g.Row(p)
		c := 0
		for _, q := range cols {
			if local[q] >= 0 {
				c++
			}
		}
		indptr[i+1] = indptr[i] + c
	}
	indices := make([]int32, indptr[m])
	var weights []float64
	if !g.unitWeights {
		weights = make([]float64, indptr[m])
	}
	for i, p := range nodes {
		cols, ws := g.Row(p)
		out := indptr[i]
		for k, q := range cols {
			if l := local[q]; l >= 0 {
				indices[out] = l
				if weights != nil {
					weights[out] = ws[k]
				}
				out++
			}
		}
		if weights == nil {
			slices.Sort(indices[indptr[i]:out])
		} else {
			sortRow(indices[indptr[i]:out], weights[indptr[i]:out])
		}
	}
	return &Subgraph{CSR: finish(m, indptr, indices, weights), Original: append([]int(nil), nodes...), local: local}, nil
}

// sortRow sorts a row by column (insertion sort: rows are short and, when the
// node list is ascending, already sorted).
func sortRow(cols []int32, ws []float64) {
	for i := 1; i < len(cols); i++ {
		c, w := cols[i], ws[i]
		j := i - 1
		for j >= 0 && cols[j] > c {
			cols[j+1], ws[j+1] = cols[j], ws[j]
			j--
		}
		cols[j+1], ws[j+1] = c, w
	}
}

// Components labels the connected components: comp[i] is the component of
// node i, numbered 0, 1, … in order of their smallest node. It returns the
// labels and the number of components. Components follow the edges of
// positive weight, those the Laplacian sees: a stored weight 0 connects
// nothing, so every node of Isolated (degree 0) is its own component, and the
// components are exactly the blocks of L = D − W.
//
// The labels come from a concurrent union–find, Afforest (M. Sutton, T.
// Ben-Nun and A. Barak, "Optimizing parallel graph connectivity computation
// via subgraph sampling", IPDPS 2018, Alg. 2 and 3): every node is first
// linked to its first two neighbours, which on most graphs already joins
// the largest component; then only the nodes outside the most frequent
// root (estimated from a fixed sample of nodes) link their other
// neighbours. A tree's root is always its smallest node (links hang the
// larger root under the smaller), so the labels do not depend on the order
// of the links or the number of workers. It holds 4n bytes beside the 8n of
// comp, and reads the graph about once.
func (g *CSR) Components() (comp []int, count int) {
	n := g.n
	parent := make([]atomic.Int32, n)
	parallel.Chunks(n, componentChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			parent[i].Store(int32(i))
		}
	})
	positive := func(k int) bool { return g.unitWeights || g.weights[k] > 0 }
	for r := 0; r < componentSampleRounds; r++ {
		parallel.Chunks(n, componentChunk, func(_, lo, hi int) {
			for u := lo; u < hi; u++ {
				if k := g.indptr[u] + r; k < g.indptr[u+1] && positive(k) {
					link(parent, int32(u), g.indices[k])
				}
			}
		})
		compress(parent)
	}
	big := frequentRoot(parent)
	parallel.Chunks(n, componentChunk, func(_, lo, hi int) {
		for u := lo; u < hi; u++ {
			if parent[u].Load() == big {
				continue
			}
			for k := g.indptr[u] + componentSampleRounds; k < g.indptr[u+1]; k++ {
				if positive(k) {
					link(parent, int32(u), g.indices[k])
				}
			}
		}
	})
	compress(parent)
	comp = make([]int, n)
	for i := range comp {
		if r := int(parent[i].Load()); r == i {
			comp[i] = count
			count++
		} else {
			comp[i] = comp[r] // r < i: labelled already
		}
	}
	return comp, count
}

// componentChunk is the number of nodes per task of Components.
const componentChunk = 1 << 14

// componentSampleRounds is the number of neighbours per node Components
// links before it estimates the largest component (Afforest's neighbour
// rounds; the paper finds two enough on every graph it tries).
const componentSampleRounds = 2

// link joins the trees of u and v, hanging the larger root under the
// smaller one (Afforest's Link, a compare-and-swap on the root).
func link(parent []atomic.Int32, u, v int32) {
	p1, p2 := parent[u].Load(), parent[v].Load()
	for p1 != p2 {
		high, low := max(p1, p2), min(p1, p2)
		ph := parent[high].Load()
		if ph == low || (ph == high && parent[high].CompareAndSwap(high, low)) {
			return
		}
		p1, p2 = parent[parent[high].Load()].Load(), parent[low].Load()
	}
}

// compress points every node at its root.
func compress(parent []atomic.Int32) {
	parallel.Chunks(len(parent), componentChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			p := parent[i].Load()
			for {
				pp := parent[p].Load()
				if pp == p {
					break
				}
				p = pp
			}
			parent[i].Store(p)
		}
	})
}

// frequentRoot returns the most frequent root among up to 1024 nodes at a
// fixed stride (the smallest such root on ties), or −1 for no nodes. Any
// answer gives the same components; a good one skips most of the work.
func frequentRoot(parent []atomic.Int32) int32 {
	n := len(parent)
	if n == 0 {
		return -1
	}
	step := max(n/1024, 1)
	count := make(map[int32]int)
	best, most := int32(-1), 0
	for i := 0; i < n; i += step {
		r := parent[i].Load()
		count[r]++
		if c := count[r]; c > most || (c == most && r < best) {
			best, most = r, c
		}
	}
	return best
}

// MapWeights returns a graph with the same edges and weights f(W_ij). The
// structure is shared with g (both are immutable). f must return finite,
// non-negative values; it sees the stored weight only, so symmetry is kept.
// f is called concurrently from several goroutines on large graphs, so it
// must be safe for concurrent use (a pure function of w is).
func (g *CSR) MapWeights(f func(w float64) float64) (*CSR, error) {
	ws := make([]float64, len(g.indices))
	// the first entry of each chunk whose mapped weight is invalid, or −1
	chunks := parallel.NumChunks(len(ws), mapChunk)
	bad := make([]int, chunks)
	parallel.Chunks(len(ws), mapChunk, func(k, lo, hi int) {
		bad[k] = -1
		for p := lo; p < hi; p++ {
			v := f(g.weight(p))
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				bad[k] = p
				return
			}
			ws[p] = v
		}
	})
	for _, p := range bad {
		if p >= 0 {
			w := g.weight(p)
			return nil, fmt.Errorf("graph: MapWeights: weight %v mapped to %v; mapped weights must be finite and ≥ 0", w, f(w))
		}
	}
	return finish(g.n, g.indptr, g.indices, ws), nil
}

// mapChunk is the number of weights MapWeights maps per task.
const mapChunk = 1 << 14

// SymmetricScale returns the graph diag(s)·W·diag(s), sharing g's structure.
// Entries of s must be finite and non-negative (the density normalisation
// A = D̃^{-1} Ã D̃^{-1} of IMGP is SymmetricScale with s = 1/d̃).
func (g *CSR) SymmetricScale(s []float64) (*CSR, error) {
	if len(s) != g.n {
		return nil, fmt.Errorf("graph: SymmetricScale: scale vector has length %d, graph has %d nodes", len(s), g.n)
	}
	for i, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("graph: SymmetricScale: scale of node %d is %v; it must be finite and ≥ 0", i, v)
		}
	}
	ws := make([]float64, len(g.indices))
	for i := 0; i < g.n; i++ {
		for p := g.indptr[i]; p < g.indptr[i+1]; p++ {
			ws[p] = s[i] * g.weight(p) * s[g.indices[p]]
		}
	}
	return finish(g.n, g.indptr, g.indices, ws), nil
}

// LargestComponent returns the subgraph induced by the largest connected
// component of g (the one with the smallest component id on ties, i.e. the
// one containing the smallest node), with the map back to g's ids. A
// connected graph gives all of g.
func (g *CSR) LargestComponent() (*Subgraph, error) {
	comp, count := g.Components()
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
	}
	big := 0
	for c, s := range sizes {
		if s > sizes[big] {
			big = c
		}
	}
	nodes := make([]int, 0, sizes[big])
	for i, c := range comp {
		if c == big {
			nodes = append(nodes, i)
		}
	}
	return g.Induced(nodes)
}
