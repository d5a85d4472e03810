package graph

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/internal/parallel"
)

// DuplicatePolicy says what to do when the same (row, column) entry is given
// more than once.
type DuplicatePolicy int

const (
	// DuplicateError rejects a repeated edge with an error naming it. It is the
	// zero value: an edge list with repeats is usually a mistake worth seeing.
	DuplicateError DuplicatePolicy = iota
	// DuplicateSum adds the weights of repeated entries (scipy's COO rule).
	DuplicateSum
	// DuplicateMax keeps the largest weight; for 0/1 graphs it merges repeats.
	DuplicateMax
)

func (p DuplicatePolicy) String() string {
	switch p {
	case DuplicateError:
		return "error"
	case DuplicateSum:
		return "sum"
	case DuplicateMax:
		return "max"
	}
	return fmt.Sprintf("DuplicatePolicy(%d)", int(p))
}

// SelfLoopPolicy says what to do with edges from a node to itself.
type SelfLoopPolicy int

const (
	// SelfLoopKeep stores self loops as diagonal entries (the zero value).
	SelfLoopKeep SelfLoopPolicy = iota
	// SelfLoopDrop silently removes them.
	SelfLoopDrop
	// SelfLoopError rejects them with an error naming the node.
	SelfLoopError
)

func (p SelfLoopPolicy) String() string {
	switch p {
	case SelfLoopKeep:
		return "keep"
	case SelfLoopDrop:
		return "drop"
	case SelfLoopError:
		return "error"
	}
	return fmt.Sprintf("SelfLoopPolicy(%d)", int(p))
}

// Symmetrization says how input edges become the symmetric matrix W.
type Symmetrization int

const (
	// Undirected input (the zero value): each edge (u, v, w) sets W_uv = W_vu = w.
	// Listing both (u, v) and (v, u) is then a duplicate.
	Undirected Symmetrization = iota
	// DirectedMax treats edges as arcs A_uv and sets W = max(A, Aᵀ) entrywise:
	// an arc in either direction makes an edge (the KNN "or" rule).
	DirectedMax
	// DirectedSum sets W = A + Aᵀ.
	DirectedSum
	// DirectedMean sets W = (A + Aᵀ)/2.
	DirectedMean
	// DirectedMutual keeps only pairs with arcs both ways, with weight
	// min(A_uv, A_vu) (the KNN "and" rule). Self loops are kept as given.
	DirectedMutual
)

func (s Symmetrization) String() string {
	switch s {
	case Undirected:
		return "undirected"
	case DirectedMax:
		return "max"
	case DirectedSum:
		return "sum"
	case DirectedMean:
		return "mean"
	case DirectedMutual:
		return "mutual"
	}
	return fmt.Sprintf("Symmetrization(%d)", int(s))
}

// Options controls how an edge list becomes a graph. The zero value reads
// undirected edges, rejects duplicates and keeps self loops.
type Options struct {
	Duplicates DuplicatePolicy
	SelfLoops  SelfLoopPolicy
	Symmetrize Symmetrization
}

// Edge is one weighted edge (or arc, for directed input).
type Edge struct {
	U, V int
	W    float64
}

// batch is the number of edges FromEdges and FromCOO hand to a Builder at a
// time: small enough for the int32 copies to stay in cache.
const batch = 4096

// FromEdges builds a graph on n nodes from an edge list with a Builder: the
// memory of the result plus O(n) (see Builder for the peak).
func FromEdges(n int, edges []Edge, opt Options) (*CSR, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	loop, weighted := -1, false
	for k, e := range edges {
		if err := checkEntry(n, k, e.U, e.V, e.W); err != nil {
			return nil, err
		}
		if e.U == e.V && loop < 0 {
			loop = k
		}
		weighted = weighted || e.W != 1
	}
	return fromEntries(n, len(edges), weighted, loop, opt, func(k int) (int, int, float64) {
		e := edges[k]
		return e.U, e.V, e.W
	})
}

// FromCOO builds a graph on n nodes from coordinate triplets (rows[k],
// cols[k], weights[k]). A nil weights slice means every weight is 1. The input
// slices are not modified.
func FromCOO(n int, rows, cols []int, weights []float64, opt Options) (*CSR, error) {
	if len(rows) != len(cols) || (weights != nil && len(weights) != len(rows)) {
		return nil, fmt.Errorf("graph: COO slices differ in length: %d rows, %d cols, %d weights", len(rows), len(cols), len(weights))
	}
	if err := checkN(n); err != nil {
		return nil, err
	}
	loop, weighted := -1, false
	for k := range rows {
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		if err := checkEntry(n, k, rows[k], cols[k], w); err != nil {
			return nil, err
		}
		if rows[k] == cols[k] && loop < 0 {
			loop = k
		}
		weighted = weighted || w != 1
	}
	return fromEntries(n, len(rows), weighted, loop, opt, func(k int) (int, int, float64) {
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		return rows[k], cols[k], w
	})
}

// fromEntries runs the two passes of a Builder over m validated entries,
// handed over in batches; loop is the first self loop (−1 for none), for the
// message of SelfLoopError.
func fromEntries(n, m int, weighted bool, loop int, opt Options, entry func(k int) (u, v int, w float64)) (*CSR, error) {
	b, err := NewBuilder(n, weighted, opt)
	if err != nil {
		return nil, err
	}
	if opt.SelfLoops == SelfLoopError && loop >= 0 {
		u, _, _ := entry(loop)
		return nil, fmt.Errorf("graph: edge %d is a self loop on node %d (self-loop policy: error)", loop, u)
	}
	src := make([]int32, min(m, batch))
	dst := make([]int32, len(src))
	var w []float64
	if weighted {
		w = make([]float64, len(src))
	}
	for pass := 0; pass < 2; pass++ {
		for lo := 0; lo < m; lo += batch {
			hi := min(lo+batch, m)
			for k := lo; k < hi; k++ {
				u, v, x := entry(k)
				src[k-lo], dst[k-lo] = int32(u), int32(v)
				if w != nil {
					w[k-lo] = x
				}
			}
			if pass == 0 {
				err = b.CountChunk(src[:hi-lo], dst[:hi-lo])
			} else {
				err = b.FillChunk(src[:hi-lo], dst[:hi-lo], w[:min(len(w), hi-lo)])
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return b.Build()
}

func checkN(n int) error {
	if n < 0 || n > math.MaxInt32 {
		return fmt.Errorf("graph: node count %d out of range [0, %d]", n, math.MaxInt32)
	}
	return nil
}

func checkEntry(n, k, u, v int, w float64) error {
	switch {
	case u < 0 || u >= n:
		return fmt.Errorf("graph: edge %d: node %d out of range [0, %d)", k, u, n)
	case v < 0 || v >= n:
		return fmt.Errorf("graph: edge %d: node %d out of range [0, %d)", k, v, n)
	case math.IsNaN(w) || math.IsInf(w, 0):
		return fmt.Errorf("graph: edge %d (%d, %d): weight %v is not finite", k, u, v, w)
	case w < 0:
		return fmt.Errorf("graph: edge %d (%d, %d): weight %v is negative; weights must be ≥ 0", k, u, v, w)
	}
	return nil
}

// checkOptions rejects policies outside their enumerations.
func checkOptions(opt Options) error {
	switch opt.Duplicates {
	case DuplicateError, DuplicateSum, DuplicateMax:
	default:
		return fmt.Errorf("graph: unknown duplicate policy %d", int(opt.Duplicates))
	}
	switch opt.SelfLoops {
	case SelfLoopKeep, SelfLoopDrop, SelfLoopError:
	default:
		return fmt.Errorf("graph: unknown self-loop policy %d", int(opt.SelfLoops))
	}
	switch opt.Symmetrize {
	case Undirected, DirectedMax, DirectedSum, DirectedMean, DirectedMutual:
	default:
		return fmt.Errorf("graph: unknown symmetrization %d", int(opt.Symmetrize))
	}
	return nil
}

// finishRows is the number of rows per task of finish.
const finishRows = 1 << 13

// finish makes a CSR of assembled arrays: it computes the degrees and the
// self-loop count, and drops weights that are all 1 (weights nil means unit
// weights).
func finish(n int, indptr []int, indices []int32, weights []float64) *CSR {
	return finishLoops(n, indptr, indices, weights, -1)
}

// finishLoops is finish for a caller that counted the self loops already
// (selfLoops ≥ 0), which spares a pass over the indices; selfLoops < 0
// counts them.
func finishLoops(n int, indptr []int, indices []int32, weights []float64, selfLoops int) *CSR {
	g := &CSR{n: n, indptr: indptr, indices: indices, weights: weights, degree: make([]float64, n)}
	chunks := parallel.NumChunks(n, finishRows)
	loops := make([]int, chunks)
	unit := make([]bool, chunks)
	parallel.Chunks(n, finishRows, func(k, lo, hi int) {
		u := true
		if weights != nil {
			for _, w := range weights[indptr[lo]:indptr[hi]] {
				if w != 1 {
					u = false
					break
				}
			}
		}
		unit[k] = u
		for i := lo; i < hi; i++ {
			a, b := indptr[i], indptr[i+1]
			var d float64
			if weights == nil {
				d = float64(b - a) // the exact sum of b − a ones
			} else {
				for _, w := range weights[a:b] {
					d += w
				}
			}
			if selfLoops < 0 {
				for _, c := range indices[a:b] {
					if int(c) == i {
						loops[k]++
					}
				}
			}
			g.degree[i] = d
		}
	})
	g.unitWeights = true
	g.selfLoops = max(selfLoops, 0)
	for k := range loops {
		g.selfLoops += loops[k]
		g.unitWeights = g.unitWeights && unit[k]
	}
	g.dropUnitWeights()
	return g
}
