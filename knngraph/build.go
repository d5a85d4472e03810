package knngraph

import (
	"fmt"
	"math"
	"sort"

	"github.com/gssl/gssl/graph"
)

// Rule says which pairs of the K-nearest-neighbour lists become edges.
type Rule int

const (
	// Or (the zero value) joins i and j when j is among the K nearest of i
	// or i among the K nearest of j: IMGP's S_K (graph.DirectedMax).
	Or Rule = iota
	// Mutual joins them only when both hold (graph.DirectedMutual).
	Mutual
)

func (r Rule) String() string {
	switch r {
	case Or:
		return "or"
	case Mutual:
		return "mutual"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Graph is a symmetric K-nearest-neighbour graph that stores squared
// distances, so that weights for any bandwidth are derived without searching
// again. Dist2 holds W_ij = ‖x_i − x_j‖² on every edge (an explicit zero for
// duplicate points) and a zero diagonal entry on every node, which become the
// self loops Ã_ii = exp(0) = 1 of IMGP.
type Graph struct {
	Dist2 *graph.CSR
	Rule  Rule
	K     int

	kth   []float64 // squared distance of each node to its K-th neighbour
	scale []float64 // squared distance to the neighbour of rank localScaleRank(K)
}

// NewGraph symmetrises neighbour lists of a point cloud with itself (from
// Exact or Approximate: nb.N points, indices into the same points).
func NewGraph(nb *Neighbors, rule Rule) (*Graph, error) {
	if nb == nil || nb.N == 0 || nb.K == 0 {
		return nil, fmt.Errorf("knngraph: NewGraph: no neighbours")
	}
	var sym graph.Symmetrization
	switch rule {
	case Or:
		sym = graph.DirectedMax
	case Mutual:
		sym = graph.DirectedMutual
	default:
		return nil, fmt.Errorf("knngraph: NewGraph: unknown rule %d (use Or or Mutual)", int(rule))
	}
	n, k := nb.N, nb.K
	rows := make([]int, 0, n*(k+1))
	cols := make([]int, 0, n*(k+1))
	ws := make([]float64, 0, n*(k+1))
	kth := make([]float64, n)
	scale := make([]float64, n)
	for i := 0; i < n; i++ {
		rows, cols, ws = append(rows, i), append(cols, i), append(ws, 0)
		idx, d2 := nb.Row(i)
		for p, j := range idx {
			if int(j) == i || j < 0 || int(j) >= n {
				return nil, fmt.Errorf("knngraph: NewGraph: row %d lists neighbour %d; neighbours must be other points in [0, %d)", i, j, n)
			}
			if d2[p] < 0 || math.IsNaN(d2[p]) || math.IsInf(d2[p], 0) {
				return nil, fmt.Errorf("knngraph: NewGraph: row %d, neighbour %d has squared distance %v", i, j, d2[p])
			}
			rows, cols, ws = append(rows, i), append(cols, int(j)), append(ws, d2[p])
		}
		kth[i] = d2[k-1]
		scale[i] = d2[localScaleRank(k)]
	}
	g, err := graph.FromCOO(n, rows, cols, ws, graph.Options{Symmetrize: sym})
	if err != nil {
		return nil, fmt.Errorf("knngraph: NewGraph: %w", err)
	}
	return &Graph{Dist2: g, Rule: rule, K: k, kth: kth, scale: scale}, nil
}

// MedianKth returns the median over nodes of the distance (not squared) to
// the K-th nearest neighbour: the default bandwidth scale (the lower median
// for an even number of nodes).
func (g *Graph) MedianKth() float64 {
	v := append([]float64(nil), g.kth...)
	sort.Float64s(v)
	return math.Sqrt(v[(len(v)-1)/2])
}

// DefaultAlpha is the bandwidth used when none is given: α = σ/√2 with σ =
// MedianKth(), so that IMGP's exp(−d²/(4α²)) equals the Gaussian
// exp(−d²/(2σ²)) with σ the median distance to the K-th neighbour (the rule
// shared/bench/peers/eigs.py uses). It is a starting value: IMGP fits α by
// maximising the marginal likelihood. It returns 1 when every K-th distance
// is zero (all points duplicated), where any bandwidth gives the same graph.
func (g *Graph) DefaultAlpha() float64 {
	s := g.MedianKth()
	if s == 0 {
		return 1
	}
	return s / math.Sqrt2
}

// GaussianAlpha converts the bandwidth σ of exp(−d²/(2σ²)) into IMGP's α of
// exp(−d²/(4α²)): α = σ/√2.
func GaussianAlpha(sigma float64) float64 { return sigma / math.Sqrt2 }

func checkAlpha(alpha float64) error {
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return fmt.Errorf("knngraph: bandwidth α = %v is invalid: it must be finite and > 0", alpha)
	}
	return nil
}

// Affinity returns Ã with Ã_ij = exp(−‖x_i − x_j‖²/(4α²)) on the edges and
// Ã_ii = 1 (IMGP eq. 7). Use GaussianAlpha(σ) for exp(−d²/(2σ²)).
func (g *Graph) Affinity(alpha float64) (*graph.CSR, error) {
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	c := 1 / (4 * alpha * alpha)
	return g.Dist2.MapWeights(func(d2 float64) float64 { return math.Exp(-d2 * c) })
}

// Adjacency returns the unweighted graph: W_ij = 1 on every edge and no self
// loops, the 0/1 adjacency on which graph methods written for citation
// graphs (label propagation, STKR's base kernel) run unchanged.
func (g *Graph) Adjacency() (*graph.CSR, error) {
	n := g.Dist2.Nodes()
	edges := make([]graph.Edge, 0, g.Dist2.Edges())
	g.Dist2.ForEachEdge(func(u, v int, _ float64) {
		if u != v {
			edges = append(edges, graph.Edge{U: u, V: v, W: 1})
		}
	})
	a, err := graph.FromEdges(n, edges, graph.Options{})
	if err != nil {
		return nil, fmt.Errorf("knngraph: Adjacency: %w", err)
	}
	return a, nil
}

// AffinityDerivative returns ∂Ã/∂α, entrywise Ã_ij·‖x_i − x_j‖²/(2α³) (zero
// on the diagonal), for gradients of IMGP's marginal likelihood.
func (g *Graph) AffinityDerivative(alpha float64) (*graph.CSR, error) {
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	c := 1 / (4 * alpha * alpha)
	s := 1 / (2 * alpha * alpha * alpha)
	return g.Dist2.MapWeights(func(d2 float64) float64 { return math.Exp(-d2*c) * d2 * s })
}

// Weights is the graph at one bandwidth α (IMGP eq. 7 and ALGORITHMS.md §2):
//
//	Ã = exp(−d²/(4α²)) on edges, Ã_ii = 1,  D̃ = diag(Ã1),
//	A = D̃^{-1} Ã D̃^{-1},  D = diag(A1).
type Weights struct {
	Alpha  float64
	Tilde  *graph.CSR // Ã
	DTilde []float64  // D̃_ii = Σ_j Ã_ij ≥ 1 (the self loop)
	A      *graph.CSR // density-normalised weights
	D      []float64  // D_ii = Σ_j A_ij
}

// Weights builds Ã, D̃, A and D for bandwidth α.
func (g *Graph) Weights(alpha float64) (*Weights, error) {
	at, err := g.Affinity(alpha)
	if err != nil {
		return nil, err
	}
	dt := at.Degrees()
	inv := make([]float64, len(dt))
	for i, v := range dt {
		inv[i] = 1 / v // v ≥ Ã_ii = 1
	}
	a, err := at.SymmetricScale(inv)
	if err != nil {
		return nil, fmt.Errorf("knngraph: density normalisation: %w", err)
	}
	return &Weights{Alpha: alpha, Tilde: at, DTilde: dt, A: a, D: a.Degrees()}, nil
}

// Extension holds the weights between a new point x and its neighbourhood
// among the graph nodes (ALGORITHMS.md §2, IMGP eq. 9–10):
//
//	Ã(x, x_j) = exp(−‖x − x_j‖²/(4α²)),  D̃(x) = Σ_j Ã(x, x_j),
//	A(x, x_j) = Ã(x, x_j)/(D̃(x) D̃_j),   D(x) = Σ_j A(x, x_j).
//
// With the K nearest nodes of x as the neighbourhood (what Extend is given
// from Query) this is IMGP's definition, S_K(x, x_j) = 1 for x_j ∈ KNN(x). For
// x = x_i, a graph node, it reproduces row i of A exactly only when the
// neighbourhood is node i's own graph row (itself at distance 0 plus its
// symmetrised neighbours, see Graph.NodeNeighbourhood); its K nearest points
// alone (no self loop, no reverse neighbours) give an approximation.
type Extension struct {
	Index        []int32   // neighbouring graph nodes
	Tilde        []float64 // Ã(x, x_j)
	A            []float64 // A(x, x_j)
	DTilde, D    float64   // D̃(x), D(x)
	MeanDistance float64   // mean ‖x − x_j‖ over the neighbourhood: IMGP's dist(x, M)
}

// Extend computes the extension weights of one new point from its
// neighbourhood: graph node indices and squared distances to them.
func (w *Weights) Extend(index []int32, dist2 []float64) (Extension, error) {
	if len(index) != len(dist2) || len(index) == 0 {
		return Extension{}, fmt.Errorf("knngraph: Extend: %d neighbours and %d distances; need the same positive number", len(index), len(dist2))
	}
	n := len(w.DTilde)
	e := Extension{Index: append([]int32(nil), index...), Tilde: make([]float64, len(index)), A: make([]float64, len(index))}
	c := 1 / (4 * w.Alpha * w.Alpha)
	for p, j := range index {
		if j < 0 || int(j) >= n {
			return Extension{}, fmt.Errorf("knngraph: Extend: neighbour %d is not a graph node [0, %d)", j, n)
		}
		d2 := dist2[p]
		if !(d2 >= 0) || math.IsInf(d2, 0) {
			return Extension{}, fmt.Errorf("knngraph: Extend: squared distance %v to node %d is invalid; it must be finite and ≥ 0", d2, j)
		}
		e.Tilde[p] = math.Exp(-d2 * c)
		e.DTilde += e.Tilde[p]
		e.MeanDistance += math.Sqrt(d2)
	}
	e.MeanDistance /= float64(len(index))
	if e.DTilde == 0 {
		return Extension{}, fmt.Errorf("knngraph: Extend: every weight exp(−d²/(4α²)) underflows to 0 at α = %v (nearest squared distance %v); the point is too far from the graph for this bandwidth", w.Alpha, minOf(dist2))
	}
	for p, j := range index {
		e.A[p] = e.Tilde[p] / (e.DTilde * w.DTilde[j])
		e.D += e.A[p]
	}
	return e, nil
}

// ExtendAll extends every row of a Query result.
func (w *Weights) ExtendAll(nb *Neighbors) ([]Extension, error) {
	out := make([]Extension, nb.N)
	for i := range out {
		idx, d2 := nb.Row(i)
		e, err := w.Extend(idx, d2)
		if err != nil {
			return nil, fmt.Errorf("query %d: %w", i, err)
		}
		out[i] = e
	}
	return out, nil
}

// NodeNeighbourhood returns node i's graph row (itself at distance 0 and its
// symmetrised neighbours) as the index and squared-distance lists Extend
// takes: the neighbourhood with which the extension reproduces row i of A.
func (g *Graph) NodeNeighbourhood(i int) ([]int32, []float64) {
	idx, d2 := g.Dist2.Row(i)
	return append([]int32(nil), idx...), append([]float64(nil), d2...)
}

func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = min(m, x)
	}
	return m
}
