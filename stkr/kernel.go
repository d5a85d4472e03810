package stkr

import (
	"fmt"
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// BaseKernel is the normalised Gram operator M = G_K/N of a base kernel K on
// the N nodes visible at fit time (ALGORITHMS.md §4): a symmetric operator
// whose eigenvalues lie in [−Radius(), Radius()].
type BaseKernel interface {
	linop.Operator
	// Radius is an upper bound on the spectral radius of M (1 for a
	// normalised adjacency). Algorithm 1's step and the admissible η of the
	// inverse Laplacian are derived from it.
	Radius() float64
}

// KernelRow is a new point x's row of the base kernel against the visible
// nodes: k(x)_j = K(x_j, x) for j = Index[t], value Value[t]; entries not
// listed are zero. Predictions cost O(len(Index)) per class.
type KernelRow struct {
	Index []int
	Value []float64
}

// GraphKernel is the base kernel of a graph (the STKR paper's eq. 23):
//
//	K(x_i, x_j) = N · W_ij / √(d_i d_j),   so M = G_K/N = S = D^{-1/2} W D^{-1/2}.
//
// A node of degree 0 gets a zero row and column (laplacian.IsolatedZero).
// Its mat-vecs are the graph's parallel CSR products.
type GraphKernel struct {
	s *laplacian.Operator
}

var (
	_ BaseKernel          = (*GraphKernel)(nil)
	_ linop.BlockOperator = (*GraphKernel)(nil)
)

// NewGraphKernel returns the base kernel of g. g must have at least one node.
func NewGraphKernel(g *graph.CSR) (*GraphKernel, error) {
	if g == nil || g.Nodes() == 0 {
		return nil, fmt.Errorf("stkr: graph kernel: the graph has no nodes")
	}
	s, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return nil, fmt.Errorf("stkr: graph kernel: %w", err)
	}
	return &GraphKernel{s: s}, nil
}

// Graph returns the graph the kernel was built on.
func (k *GraphKernel) Graph() *graph.CSR { return k.s.Graph() }

// Dim returns the number of nodes N.
func (k *GraphKernel) Dim() int { return k.s.Dim() }

// Radius returns 1: the eigenvalues of S lie in [−1, 1].
func (k *GraphKernel) Radius() float64 { return 1 }

// IsSymmetric returns true.
func (k *GraphKernel) IsSymmetric() bool { return true }

// MulVecTo sets dst = S·x.
func (k *GraphKernel) MulVecTo(dst, x []float64) { k.s.MulVecTo(dst, x) }

// MulBlockTo sets dst = S·x for N×c blocks.
func (k *GraphKernel) MulBlockTo(dst, x *mat.Dense) { k.s.MulBlockTo(dst, x) }

// NodeRow returns the kernel row of visible node i, k(x_i)_j = N·S_ij.
// Predicting from it gives the transductive prediction of node i.
func (k *GraphKernel) NodeRow(i int) KernelRow {
	cols, ws := k.s.Graph().Row(i)
	row := KernelRow{Index: make([]int, len(cols)), Value: make([]float64, len(cols))}
	inv := k.s.Degrees().InvSqrtD
	n := float64(k.Dim())
	for t, j := range cols {
		row.Index[t] = int(j)
		row.Value[t] = n * ws[t] * inv[i] * inv[j]
	}
	return row
}

// Row returns the kernel row of a new node joined to visible nodes
// neighbours[t] by edges of weight weights[t] (nil weights mean 1):
//
//	k(x)_j = N · w(x, x_j) / √(d_x d_j),   d_x = Σ_t weights[t],
//
// with d_j the degree among the visible nodes (the inductive setting of the
// paper's Appendix D.1). A node with no edge gets an empty row (it predicts
// zero). Neighbours must be visible node ids (repeats are summed) and weights
// finite and non-negative.
func (k *GraphKernel) Row(neighbours []int, weights []float64) (KernelRow, error) {
	if weights != nil && len(weights) != len(neighbours) {
		return KernelRow{}, fmt.Errorf("stkr: kernel row: %d neighbours but %d weights", len(neighbours), len(weights))
	}
	n := k.Dim()
	var dx float64
	for t, j := range neighbours {
		if j < 0 || j >= n {
			return KernelRow{}, fmt.Errorf("stkr: kernel row: neighbour %d (position %d) is not a visible node in [0, %d)", j, t, n)
		}
		w := 1.0
		if weights != nil {
			w = weights[t]
		}
		if !(w >= 0) || math.IsInf(w, 0) {
			return KernelRow{}, fmt.Errorf("stkr: kernel row: weight %v of neighbour %d (position %d) must be finite and non-negative", w, j, t)
		}
		dx += w
	}
	row := KernelRow{Index: make([]int, 0, len(neighbours)), Value: make([]float64, 0, len(neighbours))}
	if dx == 0 {
		return row, nil
	}
	inv := k.s.Degrees().InvSqrtD
	scale := float64(n) / math.Sqrt(dx)
	for t, j := range neighbours {
		w := 1.0
		if weights != nil {
			w = weights[t]
		}
		if w == 0 || inv[j] == 0 {
			continue
		}
		row.Index = append(row.Index, j)
		row.Value = append(row.Value, scale*w*inv[j])
	}
	return row, nil
}

// OperatorKernel is a base kernel given directly by its normalised Gram
// operator M (symmetric, N×N), e.g. the normalised adjacency of a KNN graph
// built elsewhere. New points need their KernelRow computed by the caller.
type OperatorKernel struct {
	M linop.Operator
	// Bound is an upper bound on the spectral radius of M; it must be > 0.
	Bound float64
}

var _ BaseKernel = OperatorKernel{}

// Dim returns M's dimension.
func (k OperatorKernel) Dim() int { return k.M.Dim() }

// Radius returns Bound.
func (k OperatorKernel) Radius() float64 { return k.Bound }

// IsSymmetric reports whether M declares itself symmetric.
func (k OperatorKernel) IsSymmetric() bool { return linop.IsSymmetric(k.M) }

// MulVecTo sets dst = M·x.
func (k OperatorKernel) MulVecTo(dst, x []float64) { k.M.MulVecTo(dst, x) }

// checkKernel validates a base kernel before fitting.
func checkKernel(k BaseKernel) error {
	if k == nil {
		return fmt.Errorf("stkr: base kernel is nil")
	}
	if k.Dim() < 1 {
		return fmt.Errorf("stkr: base kernel has dimension %d; it needs at least one node", k.Dim())
	}
	if r := k.Radius(); !(r > 0) || math.IsInf(r, 0) {
		return fmt.Errorf("stkr: base kernel spectral radius bound %v must be finite and > 0", r)
	}
	if !linop.IsSymmetric(k) {
		return fmt.Errorf("stkr: base kernel operator declares itself non-symmetric; M = G_K/N must be symmetric")
	}
	return nil
}

// counted wraps the base operator and counts its products (one per column),
// the cost measure every solver reports.
type counted struct {
	m linop.Operator
	n *atomic.Int64
}

func (c counted) Dim() int          { return c.m.Dim() }
func (c counted) IsSymmetric() bool { return true }
func (c counted) MulVecTo(dst, x []float64) {
	c.m.MulVecTo(dst, x)
	c.n.Add(1)
}

// MulBlockTo applies M to every column of x (one pass when M is a block
// operator) and counts one product per column.
func (c counted) MulBlockTo(dst, x *mat.Dense) {
	linop.MulBlock(c.m, dst, x)
	_, cols := x.Dims()
	c.n.Add(int64(cols))
}
