package graph

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gssl/gssl/internal/parallel"
)

// Reachable returns, per node, whether it has a path to one of sources
// along edges of positive weight (those Components follows): the nodes of
// the sources' components, without labelling every component. It is a
// breadth-first search from all the sources at once that switches between
// top-down steps (the frontier's rows, each unseen neighbour marked by an
// atomic OR) and bottom-up steps (every unseen row scanned until it meets a
// seen node), whichever reads fewer entries (S. Beamer, K. Asanović and
// D. Patterson, "Direction-optimizing breadth-first search", SC 2012). On
// the graphs of a few well-connected components it reads a fraction of the
// entries in a few steps; in the worst case, a long path, it is a serial
// search, O(n + nnz). The set does not depend on the order in which the
// steps' work runs, so not on the number of workers. A source out of
// [0, Nodes()) is an error.
func (g *CSR) Reachable(sources []int) ([]bool, error) {
	r, err := g.reach(sources)
	if err != nil {
		return nil, err
	}
	out := make([]bool, g.n)
	parallel.For(g.n, reachGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = r.seen[i/64]&(1<<(i%64)) != 0
		}
	})
	return out, nil
}

// reach runs the search of Reachable.
func (g *CSR) reach(sources []int) (*reachSearch, error) {
	r := &reachSearch{g: g, seen: make([]uint64, (g.n+63)/64), unseenEdges: len(g.indices), listed: true}
	for k, s := range sources {
		if s < 0 || s >= g.n {
			return nil, fmt.Errorf("graph: Reachable: sources[%d] = %d is out of range [0, %d)", k, s, g.n)
		}
		if r.seen[s/64]&(1<<(s%64)) == 0 {
			r.seen[s/64] |= 1 << (s % 64)
			r.front = append(r.front, int32(s))
			r.frontEdges += g.RowLen(s)
		}
	}
	r.frontCount = len(r.front)
	r.unseenEdges -= r.frontEdges
	r.search()
	return r, nil
}

// reachGrain is the least number of nodes (or stored entries, for a
// top-down step) per task of Reachable.
const reachGrain = 1 << 15

// reachWordChunk is the number of 64-node words per task of a bottom-up
// step.
const reachWordChunk = 256

// reachFrontChunk is the number of frontier nodes per task of a parallel
// top-down step.
const reachFrontChunk = 2048

// Beamer et al.'s switching rule, without its memory of the last step: a
// bottom-up step when the frontier's rows hold more than 1/reachAlpha of
// the unseen rows' entries and the frontier is at least n/reachBeta nodes,
// else a top-down one.
const (
	reachAlpha = 14
	reachBeta  = 24
)

// reachSearch is the state of Reachable. seen marks the nodes found (bit
// i%64 of seen[i/64]); the frontier, the last step's frontCount nodes
// whose rows hold frontEdges entries, is listed in front when listed, else
// marked in found; unseenEdges counts the entries of the rows not seen.
type reachSearch struct {
	g                      *CSR
	seen, found            []uint64
	front                  []int32
	listed                 bool
	frontCount, frontEdges int
	unseenEdges            int
	// steps counts the serial and the parallel top-down steps and the
	// bottom-up steps (tests).
	steps [3]int
}

// search runs steps until one finds no node.
func (r *reachSearch) search() {
	for r.frontCount > 0 {
		if r.frontEdges*reachAlpha > r.unseenEdges && r.frontCount*reachBeta >= r.g.n {
			r.steps[2]++
			r.bottomUp()
			continue
		}
		if !r.listed {
			r.frontFromFound()
		}
		r.topDown()
	}
}

// positive reports whether stored entry k is an edge Reachable follows.
func (r *reachSearch) positive(k int) bool {
	return r.g.unitWeights || r.g.weights[k] > 0
}

// topDown marks the unseen neighbours of the listed frontier, which they
// become. Small frontiers run on the calling goroutine, listing the nodes;
// larger ones in parallel, marking them in found.
func (r *reachSearch) topDown() {
	g := r.g
	if r.frontEdges >= 2*reachGrain {
		r.steps[1]++
		r.clearFound()
		parallel.Chunks(len(r.front), reachFrontChunk, func(_, lo, hi int) {
			r.markNeighbours(r.front[lo:hi])
		})
		r.mergeFound()
		return
	}
	r.steps[0]++
	next, edges := r.front[len(r.front):], 0 // after the frontier, in its storage
	for _, u := range r.front {
		for k := g.indptr[u]; k < g.indptr[u+1]; k++ {
			if v := g.indices[k]; r.positive(k) && r.seen[v/64]&(1<<(v%64)) == 0 {
				r.seen[v/64] |= 1 << (v % 64)
				next = append(next, v)
				edges += g.RowLen(int(v))
			}
		}
	}
	r.front = append(r.front[:0], next...)
	r.frontCount, r.frontEdges, r.listed = len(r.front), edges, true
	r.unseenEdges -= edges
}

// clearFound zeroes found, allocating it on first use.
func (r *reachSearch) clearFound() {
	if r.found == nil {
		r.found = make([]uint64, len(r.seen))
	}
	clear(r.found)
}

// markNeighbours sets, by an atomic OR, the bits in found of the unseen
// neighbours of the nodes of front (seen is only read during the step).
func (r *reachSearch) markNeighbours(front []int32) {
	g := r.g
	for _, u := range front {
		for k := g.indptr[u]; k < g.indptr[u+1]; k++ {
			v := g.indices[k]
			if bit := uint64(1) << (v % 64); r.positive(k) && r.seen[v/64]&bit == 0 {
				atomic.OrUint64(&r.found[v/64], bit)
			}
		}
	}
}

// bottomUp marks, in found, every unseen node with a seen neighbour, which
// they become. Each task owns its words of found, and seen is only read
// during the scan.
func (r *reachSearch) bottomUp() {
	g := r.g
	r.clearFound()
	parallel.Chunks(len(r.seen), reachWordChunk, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			var f uint64
			for unseen := ^r.seen[w] & validBits(g.n, w); unseen != 0; unseen &= unseen - 1 {
				if b := bits.TrailingZeros64(unseen); r.hasSeenNeighbour(w*64 + b) {
					f |= 1 << b
				}
			}
			r.found[w] = f
		}
	})
	r.mergeFound()
}

// mergeFound adds the nodes of found to seen and makes them the frontier
// (not listed): it counts them and their rows' entries, per task in order.
func (r *reachSearch) mergeFound() {
	m := parallel.NumChunks(len(r.seen), reachWordChunk)
	counts, edges := make([]int, m), make([]int, m)
	parallel.Chunks(len(r.seen), reachWordChunk, func(t, lo, hi int) {
		for w := lo; w < hi; w++ {
			f := r.found[w]
			r.seen[w] |= f
			counts[t] += bits.OnesCount64(f)
			for ; f != 0; f &= f - 1 {
				edges[t] += r.g.RowLen(w*64 + bits.TrailingZeros64(f))
			}
		}
	})
	r.frontCount, r.frontEdges, r.listed = 0, 0, false
	for t := range counts {
		r.frontCount += counts[t]
		r.frontEdges += edges[t]
	}
	r.unseenEdges -= r.frontEdges
}

// validBits masks the bits of word w that stand for nodes below n.
func validBits(n, w int) uint64 {
	if rest := n - 64*w; rest < 64 {
		return 1<<rest - 1
	}
	return ^uint64(0)
}

// hasSeenNeighbour reports whether node i has a seen neighbour.
func (r *reachSearch) hasSeenNeighbour(i int) bool {
	g := r.g
	for k := g.indptr[i]; k < g.indptr[i+1]; k++ {
		if v := g.indices[k]; r.positive(k) && r.seen[v/64]&(1<<(v%64)) != 0 {
			return true
		}
	}
	return false
}

// frontFromFound lists the frontier marked in found, in node order.
func (r *reachSearch) frontFromFound() {
	r.front = r.front[:0]
	for w, f := range r.found {
		for ; f != 0; f &= f - 1 {
			r.front = append(r.front, int32(w*64+bits.TrailingZeros64(f)))
		}
	}
	r.listed = true
}
