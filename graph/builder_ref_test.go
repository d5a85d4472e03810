package graph

// The triplet-sorting construction that FromEdges and FromCOO used before
// the Builder, kept as an independent reference for the equivalence tests
// in builder_test.go. It holds the triplets, sorts them by two stable
// counting sorts, merges repeats in input order and symmetrises directed
// input through an explicit transpose.

import (
	"fmt"
	"math"
)

// refCSR is the reference's assembled graph.
type refCSR struct {
	n           int
	indptr      []int
	indices     []int32
	weights     []float64
	degree      []float64
	selfLoops   int
	unitWeights bool
}

func (g *refCSR) row(i int) ([]int32, []float64) {
	lo, hi := g.indptr[i], g.indptr[i+1]
	return g.indices[lo:hi:hi], g.weights[lo:hi:hi]
}

// refFromEdges builds a graph on n nodes from an edge list.
func refFromEdges(n int, edges []Edge, opt Options) (*refCSR, error) {
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
	return refBuild(n, rows, cols, vals, opt)
}

// refFromCOO builds a graph on n nodes from coordinate triplets (rows[k],
// cols[k], weights[k]). A nil weights slice means every weight is 1. The input
// slices are not modified.
func refFromCOO(n int, rows, cols []int, weights []float64, opt Options) (*refCSR, error) {
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
	return refBuild(n, r, c, v, opt)
}

// build assembles validated entries. It owns rows, cols and vals.
func refBuild(n int, rows, cols []int32, vals []float64, opt Options) (*refCSR, error) {
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
		r, c, v := refMirror(rows, cols, vals)
		g, err := refAssemble(n, r, c, v, opt.Duplicates)
		if err != nil {
			return nil, err
		}
		return g, nil
	case DirectedMax, DirectedSum, DirectedMean, DirectedMutual:
		a, err := refAssemble(n, rows, cols, vals, opt.Duplicates)
		if err != nil {
			return nil, fmt.Errorf("%w (arcs of directed input)", err)
		}
		return refSymmetrize(a, opt.Symmetrize), nil
	}
	return nil, fmt.Errorf("graph: unknown symmetrization %d", int(opt.Symmetrize))
}

// mirror returns the entries plus their transposes (self loops once).
func refMirror(rows, cols []int32, vals []float64) ([]int32, []int32, []float64) {
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
func refAssemble(n int, rows, cols []int32, vals []float64, dup DuplicatePolicy) (*refCSR, error) {
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
	return refFinish(n, indptr, indices[:out:out], weights[:out:out]), nil
}

// finish computes degrees and the self-loop count of assembled arrays.
func refFinish(n int, indptr []int, indices []int32, weights []float64) *refCSR {
	g := &refCSR{n: n, indptr: indptr, indices: indices, weights: weights, degree: make([]float64, n), unitWeights: true}
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
func refSymmetrize(a *refCSR, how Symmetrization) *refCSR {
	t := a.refTranspose()
	n := a.n
	indptr := make([]int, n+1)
	indices := make([]int32, 0, len(a.indices)+len(t.indices))
	weights := make([]float64, 0, len(a.indices)+len(t.indices))
	for i := 0; i < n; i++ {
		ac, aw := a.row(i)
		tc, tw := t.row(i)
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
	return refFinish(n, indptr, indices, weights)
}

// transpose returns Aᵀ of a possibly non-symmetric assembled matrix.
func (g *refCSR) refTranspose() *refCSR {
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
	return &refCSR{n: n, indptr: indptr, indices: indices, weights: weights}
}
