package stkr

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/propagate"
)

// FeatureKernel is a base kernel that combines the graph with the node
// features (the feature kernels of the STKR paper's KRR baselines):
//
//	M = (S + γ·X̂X̂ᵀ/N)/(1 + γ),
//
// S = D^{-1/2}WD^{-1/2} the graph kernel's operator and X̂ the features with
// every non-zero row scaled to unit Euclidean norm, so that X̂X̂ᵀ is the
// cosine (normalised linear) kernel: K_f(i, i) = 1 and the eigenvalues of
// X̂X̂ᵀ/N lie in [0, tr(X̂X̂ᵀ)/N] ⊂ [0, 1]. The spectrum of M is therefore in
// [−1, 1] and Radius is 1, as for the graph alone. γ = 0 is the graph
// kernel.
//
// The N×N feature Gram matrix is never formed: a product costs
// O(nnz(W) + nnz(X)) time for sparse features (O(nnz(W) + N·d) dense),
// X̂(X̂ᵀv) with a d-vector in between, and the kernel holds one scaled copy of
// X's values. Predictions are those on the visible nodes
// (Scores); NodeRow of new nodes is not provided.
type FeatureKernel struct {
	g     *GraphKernel
	gamma float64
	xs    *loaders.Sparse
	xd    *mat.Dense
}

var (
	_ BaseKernel          = (*FeatureKernel)(nil)
	_ linop.BlockOperator = (*FeatureKernel)(nil)
)

// NewFeatureKernel returns the kernel of the graph g combined with the
// features x (one row per node) with weight gamma ≥ 0.
func NewFeatureKernel(g *graph.CSR, x propagate.Features, gamma float64) (*FeatureKernel, error) {
	gk, err := NewGraphKernel(g)
	if err != nil {
		return nil, err
	}
	if !(gamma >= 0) || math.IsInf(gamma, 0) {
		return nil, fmt.Errorf("stkr: feature kernel: gamma=%v is invalid: it must be finite and ≥ 0", gamma)
	}
	if (x.Dense == nil) == (x.Sparse == nil) {
		return nil, fmt.Errorf("stkr: feature kernel: exactly one of Dense and Sparse features must be set")
	}
	if r, _ := x.Dims(); r != g.Nodes() {
		return nil, fmt.Errorf("stkr: feature kernel: features have %d rows, the graph has %d nodes", r, g.Nodes())
	}
	k := &FeatureKernel{g: gk, gamma: gamma}
	if s := x.Sparse; s != nil {
		vals := make([]float64, len(s.Values))
		for i := 0; i < s.Rows; i++ {
			lo, hi := s.Indptr[i], s.Indptr[i+1]
			var ss float64
			for _, v := range s.Values[lo:hi] {
				ss += v * v
			}
			if ss > 0 {
				inv := 1 / math.Sqrt(ss)
				for t := lo; t < hi; t++ {
					vals[t] = s.Values[t] * inv
				}
			}
		}
		k.xs = &loaders.Sparse{Rows: s.Rows, Cols: s.Cols, Indptr: s.Indptr, Indices: s.Indices, Values: vals}
	} else {
		k.xd = mat.DenseCopyOf(x.Dense)
		r, _ := k.xd.Dims()
		for i := 0; i < r; i++ {
			row := k.xd.RawRowView(i)
			if nrm := mat.Norm(mat.NewVecDense(len(row), row), 2); nrm > 0 {
				for j := range row {
					row[j] /= nrm
				}
			}
		}
	}
	return k, nil
}

// Graph returns the graph.
func (k *FeatureKernel) Graph() *graph.CSR { return k.g.Graph() }

// Dim returns the number of nodes.
func (k *FeatureKernel) Dim() int { return k.g.Dim() }

// Radius returns 1.
func (k *FeatureKernel) Radius() float64 { return 1 }

// IsSymmetric is true.
func (k *FeatureKernel) IsSymmetric() bool { return true }

// MulVecTo sets dst = M·x.
func (k *FeatureKernel) MulVecTo(dst, x []float64) {
	linop.CheckVec("stkr: feature kernel", k.Dim(), dst, x)
	k.g.MulVecTo(dst, x)
	if k.gamma == 0 {
		return
	}
	xm := mat.NewDense(len(x), 1, x)
	f := k.featureProduct(xm)
	c := k.gamma / float64(k.Dim())
	inv := 1 / (1 + k.gamma)
	for i := range dst {
		dst[i] = inv * (dst[i] + c*f.At(i, 0))
	}
}

// MulBlockTo sets dst = M·x for N×c blocks.
func (k *FeatureKernel) MulBlockTo(dst, x *mat.Dense) {
	k.g.MulBlockTo(dst, x)
	if k.gamma == 0 {
		return
	}
	f := k.featureProduct(x)
	f.Scale(k.gamma/float64(k.Dim()), f)
	dst.Add(dst, f)
	dst.Scale(1/(1+k.gamma), dst)
}

// featureProduct returns X̂(X̂ᵀ x) for an N×c block x.
func (k *FeatureKernel) featureProduct(x *mat.Dense) *mat.Dense {
	n, c := x.Dims()
	if k.xd != nil {
		var t mat.Dense
		t.Mul(k.xd.T(), x)
		out := mat.NewDense(n, c, nil)
		out.Mul(k.xd, &t)
		return out
	}
	f := propagate.Features{Sparse: k.xs}
	// X̂ᵀx (d×c) by rows of x scattered into the d rows, then X̂ times it.
	t := mat.NewDense(k.xs.Cols, c, nil)
	tm := t.RawMatrix()
	for i := 0; i < n; i++ {
		xi := x.RawRowView(i)
		cols, vals := k.xs.Row(i)
		for p, col := range cols {
			row := tm.Data[int(col)*tm.Stride : int(col)*tm.Stride+c]
			for j, v := range xi {
				row[j] += vals[p] * v
			}
		}
	}
	return f.Mul(t)
}
