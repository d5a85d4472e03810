package knngraph

import (
	"fmt"
	"math"
	"slices"

	"github.com/gssl/gssl/graph"
)

// Kernel says how the edges of a K-nearest-neighbour graph are weighted
// (see the package documentation, "Kernels").
type Kernel int

const (
	// Connectivity (the zero value) gives every edge weight 1 and no self
	// loops: scikit-learn's kernel='knn'.
	Connectivity Kernel = iota
	// Gaussian gives an edge exp(−d²/(2σ²)) for a given σ, or, with σ = 0,
	// the self-tuning exp(−d²/(σ_i σ_j)) of Zelnik-Manor & Perona, σ_i the
	// distance from point i to its LocalScaleNeighbor-th neighbour.
	Gaussian
	// IMGP gives IMGP's density-normalised A = D̃^{-1} Ã D̃^{-1} with
	// Ã = exp(−d²/(2σ²)) on the edges and Ã_ii = 1 (self loops kept); σ = 0
	// means the median distance to the K-th neighbour (Graph.MedianKth).
	IMGP
)

// Kernels lists the kernels by name, in the order of their values.
var Kernels = []string{"connectivity", "gaussian", "imgp"}

func (k Kernel) String() string {
	if k >= 0 && int(k) < len(Kernels) {
		return Kernels[k]
	}
	return fmt.Sprintf("Kernel(%d)", int(k))
}

// ParseKernel returns the kernel named s (one of Kernels).
func ParseKernel(s string) (Kernel, error) {
	for i, name := range Kernels {
		if s == name {
			return Kernel(i), nil
		}
	}
	return 0, fmt.Errorf("knngraph: kernel %q is unknown: use connectivity, gaussian or imgp", s)
}

// LocalScaleNeighbor is the neighbour whose distance is a point's local
// scale σ_i in the self-tuning Gaussian: the 7th, as Zelnik-Manor & Perona
// chose for all their experiments (or the K-th when K < 7).
const LocalScaleNeighbor = 7

// Weighted is a K-nearest-neighbour graph with the weights of one kernel,
// and what weighs the edges of a new point to its nodes the same way
// (Extend).
type Weighted struct {
	// W is the weighted graph (no self loops, except IMGP's Ã_ii).
	W      *graph.CSR
	Kernel Kernel
	K      int
	// Sigma is σ of the Gaussian and IMGP kernels (0 for the self-tuning
	// Gaussian and for Connectivity).
	Sigma float64
	// Scale is per node: the local scale σ_i (self-tuning Gaussian), D̃_ii
	// (IMGP), or nil.
	Scale []float64
	// N is the number of nodes.
	N int
}

// SelfTuning reports whether the weights are the self-tuning Gaussian.
func (w *Weighted) SelfTuning() bool { return w.Kernel == Gaussian && w.Sigma == 0 }

// Weigh weighs the edges of g with the kernel; sigma is σ of the Gaussian
// and IMGP kernels (0: self-tuning, or IMGP's median K-th distance) and
// must be 0 for Connectivity. A node all of whose edge weights underflow to
// 0 (σ too small for its distances) is an error naming it.
func (g *Graph) Weigh(kernel Kernel, sigma float64) (*Weighted, error) {
	if sigma < 0 || math.IsNaN(sigma) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("knngraph: bandwidth σ = %v is invalid: it must be finite and ≥ 0 (0: the default)", sigma)
	}
	w := &Weighted{Kernel: kernel, K: g.K, Sigma: sigma, N: g.Dist2.Nodes()}
	var err error
	switch kernel {
	case Connectivity:
		if sigma != 0 {
			return nil, fmt.Errorf("knngraph: bandwidth σ = %v is given, but connectivity weights have no bandwidth", sigma)
		}
		w.W, err = g.Adjacency()
	case Gaussian:
		if sigma == 0 {
			w.Scale = g.LocalScales()
			s := w.Scale
			w.W, err = g.mapEdges(func(i, j int, d2 float64) float64 { return math.Exp(-d2 / (s[i] * s[j])) })
		} else {
			c := 1 / (2 * sigma * sigma)
			w.W, err = g.mapEdges(func(_, _ int, d2 float64) float64 { return math.Exp(-d2 * c) })
		}
	case IMGP:
		if sigma == 0 {
			w.Sigma = g.MedianKth()
			if w.Sigma == 0 {
				w.Sigma = 1 // every point duplicated: any bandwidth gives the same graph
			}
		}
		var ws *Weights
		if ws, err = g.Weights(GaussianAlpha(w.Sigma)); err == nil {
			w.W, w.Scale = ws.A, ws.DTilde
		}
	default:
		return nil, fmt.Errorf("knngraph: unknown kernel %d", int(kernel))
	}
	if err != nil {
		return nil, err
	}
	if kernel != Connectivity {
		if err := w.checkDegrees(g); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// checkDegrees refuses a node whose every edge weight underflowed to 0
// (IMGP's self loop aside).
func (w *Weighted) checkDegrees(g *Graph) error {
	for i := 0; i < w.W.Nodes(); i++ {
		idx, ws := w.W.Row(i)
		pos := false
		for p, j := range idx {
			if int(j) != i && ws[p] > 0 {
				pos = true
				break
			}
		}
		if !pos && len(idx) > 0 {
			return fmt.Errorf("knngraph: node %d: every edge weight underflows to 0 at bandwidth σ = %g (its nearest neighbour is at distance %g); give a larger bandwidth, or 0 for the default", i, w.Sigma, math.Sqrt(g.nearest(i)))
		}
	}
	return nil
}

// nearest returns the squared distance from node i to its nearest other
// node in the graph.
func (g *Graph) nearest(i int) float64 {
	idx, d2 := g.Dist2.Row(i)
	m := math.Inf(1)
	for p, j := range idx {
		if int(j) != i {
			m = min(m, d2[p])
		}
	}
	return m
}

// mapEdges returns the graph of f(i, j, d²) on the edges, without the self
// loops of Dist2.
func (g *Graph) mapEdges(f func(i, j int, d2 float64) float64) (*graph.CSR, error) {
	n := g.Dist2.Nodes()
	edges := make([]graph.Edge, 0, g.Dist2.Edges())
	g.Dist2.ForEachEdge(func(u, v int, d2 float64) {
		if u != v {
			edges = append(edges, graph.Edge{U: u, V: v, W: f(u, v, d2)})
		}
	})
	out, err := graph.FromEdges(n, edges, graph.Options{})
	if err != nil {
		return nil, fmt.Errorf("knngraph: %w", err)
	}
	return out, nil
}

// LocalScales returns every node's local scale σ_i: the distance to its
// min(K, LocalScaleNeighbor)-th nearest neighbour. A zero scale (a point with
// that many duplicates) is replaced by the smallest positive one (by 1 when
// every scale is zero), so that exp(−d²/(σ_i σ_j)) is defined.
func (g *Graph) LocalScales() []float64 {
	return localScales(g.scale)
}

func localScales(d2 []float64) []float64 {
	s := make([]float64, len(d2))
	floor := math.Inf(1)
	for i, v := range d2 {
		s[i] = math.Sqrt(v)
		if s[i] > 0 {
			floor = min(floor, s[i])
		}
	}
	if math.IsInf(floor, 1) {
		floor = 1
	}
	for i := range s {
		if s[i] == 0 {
			s[i] = floor
		}
	}
	return s
}

// localScaleRank is the 0-based rank of the neighbour that sets σ_i.
func localScaleRank(k int) int { return min(k, LocalScaleNeighbor) - 1 }

// Extend returns the weights of the edges from a new point to its K
// nearest graph nodes, given by index and squared distance in increasing
// order (a row of Query): the kernel of the graph's own edges, with the new
// point's local scale from the same neighbour rank (self-tuning), and
// IMGP's out-of-sample A(x, x_j) = Ã(x, x_j)/(D̃(x) D̃_j) (eq. 9–10). It is
// an error when every weight underflows to 0: the point is too far from the
// graph for the bandwidth.
func (w *Weighted) Extend(index []int32, dist2 []float64) ([]float64, error) {
	if len(index) != len(dist2) || len(index) == 0 {
		return nil, fmt.Errorf("knngraph: Extend: %d neighbours and %d distances; need the same positive number", len(index), len(dist2))
	}
	n := w.N
	for p, j := range index {
		if j < 0 || int(j) >= n {
			return nil, fmt.Errorf("knngraph: Extend: neighbour %d is not a graph node [0, %d)", j, n)
		}
		if d := dist2[p]; !(d >= 0) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("knngraph: Extend: squared distance %v to node %d is invalid; it must be finite and ≥ 0", d, j)
		}
	}
	out := make([]float64, len(index))
	switch w.Kernel {
	case Connectivity:
		for p := range out {
			out[p] = 1
		}
		return out, nil
	case Gaussian:
		if w.Sigma == 0 {
			sx := math.Sqrt(dist2[min(localScaleRank(w.K), len(dist2)-1)])
			if sx == 0 {
				sx = minPositive(w.Scale)
			}
			for p, j := range index {
				out[p] = math.Exp(-dist2[p] / (sx * w.Scale[j]))
			}
		} else {
			c := 1 / (2 * w.Sigma * w.Sigma)
			for p := range index {
				out[p] = math.Exp(-dist2[p] * c)
			}
		}
	case IMGP:
		c := 1 / (2 * w.Sigma * w.Sigma)
		dt := 0.0
		for p := range index {
			out[p] = math.Exp(-dist2[p] * c)
			dt += out[p]
		}
		if dt > 0 {
			for p, j := range index {
				out[p] /= dt * w.Scale[j]
			}
		}
	default:
		return nil, fmt.Errorf("knngraph: unknown kernel %d", int(w.Kernel))
	}
	if slices.Max(out) == 0 {
		return nil, fmt.Errorf("knngraph: every weight to the %d nearest nodes underflows to 0 (nearest squared distance %g, bandwidth σ = %g): the point is too far from the graph for this bandwidth", len(index), minOf(dist2), w.Sigma)
	}
	return out, nil
}

func minPositive(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		if x > 0 {
			m = min(m, x)
		}
	}
	if math.IsInf(m, 1) {
		return 1
	}
	return m
}
