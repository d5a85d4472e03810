package graph

import (
	"fmt"
	"math"
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

// FromEdges builds a graph on n nodes from an edge list.
func FromEdges(n int, edges []Edge, opt Options) (*CSR, error) {
	rows := make([]int32, len(edges))
	cols := make([]int32, len(edges))
	vals := make([]float64, len(edges))
	if err := checkN(n); err != nil {
		return nil, err
	}
	for k, e := range edges {
		if err := checkEntry(n, k, e.U, e.V, e.W); err != nil {
			return nil, err
		}
		rows[k], cols[k], vals[k] = int32(e.U), int32(e.V), e.W
	}
	return build(n, rows, cols, vals, opt)
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
	r := make([]int32, len(rows))
	c := make([]int32, len(rows))
	v := make([]float64, len(rows))
	for k := range rows {
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		if err := checkEntry(n, k, rows[k], cols[k], w); err != nil {
			return nil, err
		}
		r[k], c[k], v[k] = int32(rows[k]), int32(cols[k]), w
	}
	return build(n, r, c, v, opt)
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

// build assembles validated entries. It owns rows, cols and vals.
func build(n int, rows, cols []int32, vals []float64, opt Options) (*CSR, error) {
	switch opt.Duplicates {
	case DuplicateError, DuplicateSum, DuplicateMax:
	default:
		return nil, fmt.Errorf("graph: unknown duplicate policy %d", int(opt.Duplicates))
	}
	switch opt.SelfLoops {
	case SelfLoopKeep, SelfLoopDrop, SelfLoopError:
	default:
		return nil, fmt.Errorf("graph: unknown self-loop policy %d", int(opt.SelfLoops))
	}
	// Self loops first: they are the same under every symmetrisation.
	k := 0
	for i := range rows {
		if rows[i] == cols[i] {
			switch opt.SelfLoops {
			case SelfLoopError:
				return nil, fmt.Errorf("graph: edge %d is a self loop on node %d (self-loop policy: error)", i, rows[i])
			case SelfLoopDrop:
				continue
			}
		}
		rows[k], cols[k], vals[k] = rows[i], cols[i], vals[i]
		k++
	}
	rows, cols, vals = rows[:k], cols[:k], vals[:k]

	switch opt.Symmetrize {
	case Undirected:
		r, c, v := mirror(rows, cols, vals)
		g, err := assemble(n, r, c, v, opt.Duplicates)
		if err != nil {
			return nil, err
		}
		return g, nil
	case DirectedMax, DirectedSum, DirectedMean, DirectedMutual:
		a, err := assemble(n, rows, cols, vals, opt.Duplicates)
		if err != nil {
			return nil, fmt.Errorf("%w (arcs of directed input)", err)
		}
		return symmetrize(a, opt.Symmetrize), nil
	}
	return nil, fmt.Errorf("graph: unknown symmetrization %d", int(opt.Symmetrize))
}

// mirror returns the entries plus their transposes (self loops once).
func mirror(rows, cols []int32, vals []float64) ([]int32, []int32, []float64) {
	m := 2 * len(rows)
	r := make([]int32, 0, m)
	c := make([]int32, 0, m)
	v := make([]float64, 0, m)
	for k := range rows {
		r, c, v = append(r, rows[k]), append(c, cols[k]), append(v, vals[k])
		if rows[k] != cols[k] {
			r, c, v = append(r, cols[k]), append(c, rows[k]), append(v, vals[k])
		}
	}
	return r, c, v
}

// assemble sorts triplets into CSR order by two stable counting sorts
// (column, then row) and merges repeated entries by the policy. The result
// need not be symmetric; callers ensure it is or symmetrise it.
func assemble(n int, rows, cols []int32, vals []float64, dup DuplicatePolicy) (*CSR, error) {
	m := len(rows)
	// Counting sort by column.
	count := make([]int, n+1)
	for _, c := range cols {
		count[c+1]++
	}
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	r1 := make([]int32, m)
	c1 := make([]int32, m)
	v1 := make([]float64, m)
	for k, c := range cols {
		p := count[c]
		count[c]++
		r1[p], c1[p], v1[p] = rows[k], c, vals[k]
	}
	// Stable counting sort by row.
	indptr := make([]int, n+1)
	for _, r := range r1 {
		indptr[r+1]++
	}
	for i := 0; i < n; i++ {
		indptr[i+1] += indptr[i]
	}
	next := append([]int(nil), indptr[:n]...)
	indices := make([]int32, m)
	weights := make([]float64, m)
	for k, r := range r1 {
		p := next[r]
		next[r]++
		indices[p], weights[p] = c1[k], v1[k]
	}
	// Merge duplicates in place.
	out := 0
	for i := 0; i < n; i++ {
		lo, hi := indptr[i], indptr[i+1]
		indptr[i] = out
		for p := lo; p < hi; p++ {
			if out > indptr[i] && indices[out-1] == indices[p] {
				switch dup {
				case DuplicateError:
					return nil, fmt.Errorf("graph: duplicate edge (%d, %d) (duplicate policy: error; choose sum or max to merge)", i, indices[p])
				case DuplicateSum:
					weights[out-1] += weights[p]
				case DuplicateMax:
					weights[out-1] = math.Max(weights[out-1], weights[p])
				}
				continue
			}
			indices[out], weights[out] = indices[p], weights[p]
			out++
		}
	}
	indptr[n] = out
	return finish(n, indptr, indices[:out:out], weights[:out:out]), nil
}

// finish computes degrees and the self-loop count of assembled arrays.
func finish(n int, indptr []int, indices []int32, weights []float64) *CSR {
	g := &CSR{n: n, indptr: indptr, indices: indices, weights: weights, degree: make([]float64, n), unitWeights: true}
	for _, w := range weights {
		if w != 1 {
			g.unitWeights = false
			break
		}
	}
	for i := 0; i < n; i++ {
		var d float64
		for p := indptr[i]; p < indptr[i+1]; p++ {
			d += weights[p]
			if int(indices[p]) == i {
				g.selfLoops++
			}
		}
		g.degree[i] = d
	}
	return g
}

// symmetrize merges a directed CSR with its transpose.
func symmetrize(a *CSR, how Symmetrization) *CSR {
	t := a.transpose()
	n := a.n
	indptr := make([]int, n+1)
	indices := make([]int32, 0, len(a.indices)+len(t.indices))
	weights := make([]float64, 0, len(a.indices)+len(t.indices))
	for i := 0; i < n; i++ {
		ac, aw := a.Row(i)
		tc, tw := t.Row(i)
		p, q := 0, 0
		for p < len(ac) || q < len(tc) {
			var c int32
			var w float64
			switch {
			case q == len(tc) || (p < len(ac) && ac[p] < tc[q]):
				c, w = ac[p], aw[p]
				p++
				if int(c) != i && how == DirectedMutual {
					continue
				}
				if how == DirectedMean && int(c) != i {
					w /= 2
				}
			case p == len(ac) || tc[q] < ac[p]:
				c, w = tc[q], tw[q]
				q++
				if how == DirectedMutual {
					continue
				}
				if how == DirectedMean {
					w /= 2
				}
			default: // the same column in both
				c = ac[p]
				if int(c) == i { // a self loop is its own transpose
					w = aw[p]
				} else {
					switch how {
					case DirectedMax:
						w = math.Max(aw[p], tw[q])
					case DirectedSum:
						w = aw[p] + tw[q]
					case DirectedMean:
						w = (aw[p] + tw[q]) / 2
					case DirectedMutual:
						w = math.Min(aw[p], tw[q])
					}
				}
				p++
				q++
			}
			indices = append(indices, c)
			weights = append(weights, w)
		}
		indptr[i+1] = len(indices)
	}
	return finish(n, indptr, indices, weights)
}

// transpose returns Aᵀ of a possibly non-symmetric assembled matrix.
func (g *CSR) transpose() *CSR {
	n := g.n
	indptr := make([]int, n+1)
	for _, c := range g.indices {
		indptr[c+1]++
	}
	for i := 0; i < n; i++ {
		indptr[i+1] += indptr[i]
	}
	next := append([]int(nil), indptr[:n]...)
	indices := make([]int32, len(g.indices))
	weights := make([]float64, len(g.indices))
	for i := 0; i < n; i++ {
		for p := g.indptr[i]; p < g.indptr[i+1]; p++ {
			c := g.indices[p]
			q := next[c]
			next[c]++
			indices[q], weights[q] = int32(i), g.weights[p]
		}
	}
	return &CSR{n: n, indptr: indptr, indices: indices, weights: weights}
}
