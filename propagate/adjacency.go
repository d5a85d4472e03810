package propagate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/loaders"
)

// rowGrain is the number of rows a goroutine handles at least in the row
// passes of this package (sparse products and the Chebyshev update).
const rowGrain = 64

// Adjacency is the normalised adjacency S_σ = D̃^{-1/2}(W + σI)D̃^{-1/2},
// D̃ = D + σI, of a graph, applied through the graph's CSR arrays. It is
// immutable and safe for concurrent use.
type Adjacency struct {
	g    *graph.CSR
	loop float64
	t    []float64 // D̃^{-1/2}, 0 for an isolated node when σ = 0
	sc   graph.Scaling
}

var (
	_ linop.BlockOperator = (*Adjacency)(nil)
	_ linop.Symmetric     = (*Adjacency)(nil)
)

// GCN returns S̃ = D̃^{-1/2}(W + I)D̃^{-1/2}, the renormalised adjacency of
// GCN and SGC. Every node has D̃_ii ≥ 1, so isolated nodes need no policy.
func GCN(g *graph.CSR) *Adjacency { return NewAdjacency(g, 1) }

// Symmetric returns S = D^{-1/2} W D^{-1/2} with a zero row and column for
// an isolated node (laplacian.IsolatedZero), the operator of label spreading
// and of Correct & Smooth.
func Symmetric(g *graph.CSR) *Adjacency { return NewAdjacency(g, 0) }

// NewAdjacency returns S_σ for the self-loop weight σ = loop. It panics if
// loop is negative or not finite.
func NewAdjacency(g *graph.CSR, loop float64) *Adjacency {
	if !(loop >= 0) || math.IsInf(loop, 0) {
		panic(fmt.Sprintf("propagate: self-loop weight %v must be finite and ≥ 0", loop))
	}
	n := g.Nodes()
	a := &Adjacency{g: g, loop: loop, t: make([]float64, n)}
	for i := range a.t {
		if d := g.Degree(i) + loop; d > 0 {
			a.t[i] = 1 / math.Sqrt(d)
		}
	}
	a.sc = graph.Scaling{Left: a.t, Right: a.t}
	if loop != 0 {
		a.sc.Diag = make([]float64, n)
		for i, t := range a.t {
			a.sc.Diag[i] = loop * t * t
		}
	}
	return a
}

// Graph returns the graph of W.
func (a *Adjacency) Graph() *graph.CSR { return a.g }

// Loop returns the self-loop weight σ.
func (a *Adjacency) Loop() float64 { return a.loop }

// Dim returns the number of nodes.
func (a *Adjacency) Dim() int { return a.g.Nodes() }

// IsSymmetric is true: S_σ is symmetric.
func (a *Adjacency) IsSymmetric() bool { return true }

// MulVecTo sets dst = S_σ·x.
func (a *Adjacency) MulVecTo(dst, x []float64) {
	linop.CheckVec("propagate", a.Dim(), dst, x)
	a.g.ScaledMulVecTo(dst, x, a.sc)
}

// MulBlockTo sets dst = S_σ·x for n×c blocks (dst and x must not overlap).
func (a *Adjacency) MulBlockTo(dst, x *mat.Dense) { a.g.ScaledMulBlockTo(dst, x, a.sc) }

// mulRowsTo sets row k of dst (len(rows)×c) to row rows[k] of S_σ·x for an
// n×c block x, in parallel over the rows: bitwise the rows of MulBlockTo's
// product (graph.CSR.ScaledMulBlockRowsInto), at their cost only.
func (a *Adjacency) mulRowsTo(dst, x *mat.Dense, rows []int) {
	_, c := x.Dims()
	if r, dc := dst.Dims(); r != len(rows) || dc != c {
		panic(fmt.Sprintf("propagate: dimension mismatch: %d rows of a product with %d columns into %d×%d", len(rows), c, r, dc))
	}
	raw := dst.RawMatrix()
	parallel.For(len(rows), 8, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			row := mat.NewDense(1, c, raw.Data[k*raw.Stride:k*raw.Stride+c])
			a.g.ScaledMulBlockRowsInto(row, x, a.sc, rows[k], rows[k]+1)
		}
	})
}

// MulSparseTo sets dst = scale·S_σ·X for a sparse n×d X, row by row from
// X's CSR arrays: row i is scale·(σ t_i² X_i + Σ_j t_i W_ij t_j X_j), the
// sparse rows of i's neighbours scattered into dst's row. It costs
// O(Σ_i Σ_{j~i} nnz(X_j)) and allocates nothing. It panics if dst is not
// n×d.
func (a *Adjacency) MulSparseTo(dst *mat.Dense, x *loaders.Sparse, scale float64) {
	n := a.Dim()
	if r, c := dst.Dims(); x.Rows != n || r != n || c != x.Cols {
		panic(fmt.Sprintf("propagate: dimension mismatch: graph has %d nodes, X is %d×%d, dst is %d×%d", n, x.Rows, x.Cols, r, c))
	}
	raw := dst.RawMatrix()
	d := x.Cols
	parallel.For(n, rowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+d]
			clear(row)
			ti := a.t[i]
			if ti == 0 {
				continue
			}
			if a.loop != 0 {
				scatter(row, x, i, scale*a.loop*ti*ti)
			}
			cols, ws := a.g.Row(i)
			for k, j := range cols {
				w := 1.0
				if ws != nil {
					w = ws[k]
				}
				scatter(row, x, int(j), scale*ti*w*a.t[j])
			}
		}
	})
}

// scatter adds c·X_i to the dense row.
func scatter(row []float64, x *loaders.Sparse, i int, c float64) {
	lo, hi := x.Indptr[i], x.Indptr[i+1]
	vals := x.Values[lo:hi]
	for k, col := range x.Indices[lo:hi] {
		row[col] += c * vals[k]
	}
}

// Dense returns S_σ as a dense n×n matrix: the explicit O(n²) path for
// tests and small graphs.
func (a *Adjacency) Dense() *mat.Dense {
	n := a.Dim()
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		cols, ws := a.g.Row(i)
		for k, j := range cols {
			w := 1.0
			if ws != nil {
				w = ws[k]
			}
			m.Set(i, int(j), m.At(i, int(j))+a.t[i]*w*a.t[j])
		}
		m.Set(i, i, m.At(i, i)+a.loop*a.t[i]*a.t[i])
	}
	return m
}
