package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

// KernelPCA is kernel principal component analysis of the graph kernel
// K(x_i, x_j) = N·W_ij/√(d_i d_j) (STKR, Zhai et al. 2024, eq. 23; gssl
// ALGORITHMS.md §4), whose Gram matrix over the N graph nodes is N·S with
// S = D^{-1/2} W D^{-1/2}. Fit computes the top Dim eigenpairs S u_l = μ_l u_l
// (not centred, as in STKR's "topd" representation); the features of node i
// are (u_1(i), …, u_Dim(i)). Extend maps a new node, given its edge weights
// w_j to graph nodes, by the Nyström formula
//
//	u_l(x) = (1/μ_l) Σ_j K(x, x_j) u_l(j) / N = (1/μ_l) Σ_j w_j/√(d_x d_j) u_l(j),   d_x = Σ_j w_j,
//
// which reproduces u_l(i) exactly when x is node i with its own row of W.
// The kernel PCA projections of the usual normalisation are √(N μ_l)·u_l.
type KernelPCA struct {
	// Dim is the number of components d ≥ 1; 0 means DefaultKernelPCADim.
	Dim int
	// Isolated says what to do with nodes of degree zero. Under the zero
	// value, laplacian.IsolatedComponent, and under laplacian.IsolatedZero
	// (the same S) an isolated node has features 0 and contributes nothing
	// to extensions; laplacian.IsolatedError reports it.
	Isolated laplacian.IsolatedPolicy
	// Eigen controls the eigensolver (zero means defaults).
	Eigen Settings

	n        int
	invSqrtD []float64
	vectors  *mat.Dense // n×Dim
	values   []float64  // μ_l, descending
	info     estimator.Info
}

// DefaultKernelPCADim is KernelPCA's number of components when Dim is 0.
const DefaultKernelPCADim = 2

var _ estimator.NodeTransformer = (*KernelPCA)(nil)

// Clone returns an unfitted copy with the same hyperparameters.
func (p *KernelPCA) Clone() *KernelPCA {
	return &KernelPCA{Dim: p.Dim, Isolated: p.Isolated, Eigen: p.Eigen}
}

// Info reports the last fit as LaplacianEigenmap.Info does.
func (p *KernelPCA) Info() estimator.Info { return p.info }

func (p *KernelPCA) dim() int {
	if p.Dim == 0 {
		return DefaultKernelPCADim
	}
	return p.Dim
}

// Validate checks the hyperparameters.
func (p *KernelPCA) Validate() error {
	if p.Dim < 0 {
		return fmt.Errorf("spectral: KernelPCA: Dim = %d is invalid: it must be ≥ 0 (0 means %d)", p.Dim, DefaultKernelPCADim)
	}
	if err := checkIsolated("KernelPCA", p.Isolated); err != nil {
		return err
	}
	if err := p.Eigen.Validate(); err != nil {
		return fmt.Errorf("spectral: KernelPCA: Eigen settings: %w", err)
	}
	return nil
}

// Fit computes the top Dim eigenpairs of S for g. Every μ_l must be
// positive for the Nyström extension to exist; otherwise Fit fails and asks
// for a smaller Dim. Only x.Graph is used.
func (p *KernelPCA) Fit(ctx context.Context, x estimator.Nodes) error {
	if err := p.Validate(); err != nil {
		return err
	}
	g := x.Graph
	p.n, p.invSqrtD, p.vectors, p.values, p.info = 0, nil, nil, nil, estimator.Info{}
	if g == nil {
		return errors.New("spectral: KernelPCA: graph is nil")
	}
	n := g.Nodes()
	dim := p.dim()
	if dim > n {
		return fmt.Errorf("spectral: KernelPCA: Dim = %d is invalid: the graph has %d nodes", dim, n)
	}
	opt := laplacian.Options{Isolated: p.Isolated}
	dg, err := laplacian.NewDegrees(g, opt)
	if err != nil {
		return fmt.Errorf("spectral: KernelPCA: %w", err)
	}
	r, err := LaplacianEigs(ctx, g, laplacian.Symmetric, opt, dim, p.Eigen)
	if err != nil {
		return eigsError("KernelPCA", err)
	}
	values := make([]float64, dim)
	for l, lam := range r.Values {
		values[l] = 1 - lam
		if !(values[l] > 1e-12) {
			return fmt.Errorf("spectral: KernelPCA: eigenvalue %d of S is %v ≤ 0, so the Nyström extension is undefined; lower Dim below %d", l+1, values[l], l+1)
		}
	}
	p.n, p.invSqrtD, p.vectors, p.values = n, dg.InvSqrtD, r.Vectors, values
	p.info = estimator.Info{Iterations: r.Restarts, Products: r.MatVecs}
	return nil
}

// Transform returns the features of the queried nodes: a copy of
// Components for estimator.FittedNodes, or new nodes' from their edges to
// fitted nodes (q.New; q.Features is not used) by the Nyström formula of
// the type's documentation, as Extend computes for one node; a new node
// without edge weight gets zero features.
func (p *KernelPCA) Transform(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if p.vectors == nil {
		return nil, estimator.NotFitted("spectral: KernelPCA.Transform")
	}
	if q.New == nil {
		return mat.DenseCopyOf(p.vectors), nil
	}
	return nystrom(ctx, "KernelPCA", *q.New, p.vectors, p.values, func(j int32, w, dx float64) float64 { return w / math.Sqrt(dx) * p.invSqrtD[j] })
}

// Components returns the n×Dim matrix of eigenvectors u_l of S (the
// features of the graph nodes), nil before Fit.
func (p *KernelPCA) Components() *mat.Dense { return p.vectors }

// Eigenvalues returns μ_1 ≥ … ≥ μ_Dim, the eigenvalues of S.
func (p *KernelPCA) Eigenvalues() []float64 { return p.values }

// Extend returns the features of a new node whose edges go to the graph
// nodes in nodes with the given weights (non-negative, finite, not all zero;
// a node may appear once). Edges to isolated nodes contribute nothing.
func (p *KernelPCA) Extend(nodes []int, weights []float64) ([]float64, error) {
	if p.vectors == nil {
		return nil, estimator.NotFitted("spectral: KernelPCA.Extend")
	}
	if len(nodes) != len(weights) {
		return nil, fmt.Errorf("spectral: KernelPCA: Extend: %d nodes but %d weights", len(nodes), len(weights))
	}
	var dx float64
	seen := make(map[int]bool, len(nodes))
	for t, j := range nodes {
		if j < 0 || j >= p.n {
			return nil, fmt.Errorf("spectral: KernelPCA: Extend: node %d (position %d) out of range [0, %d)", j, t, p.n)
		}
		if seen[j] {
			return nil, fmt.Errorf("spectral: KernelPCA: Extend: node %d listed twice", j)
		}
		seen[j] = true
		w := weights[t]
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return nil, fmt.Errorf("spectral: KernelPCA: Extend: weight %v to node %d is invalid: weights must be finite and ≥ 0", w, j)
		}
		dx += w
	}
	if !(dx > 0) {
		return nil, errors.New("spectral: KernelPCA: Extend: the new node has no edge of positive weight, so its degree is 0 and the extension is undefined")
	}
	out := make([]float64, len(p.values))
	s := 1 / math.Sqrt(dx)
	for t, j := range nodes {
		c := weights[t] * s * p.invSqrtD[j]
		if c == 0 {
			continue
		}
		for l := range out {
			out[l] += c * p.vectors.At(j, l)
		}
	}
	for l := range out {
		out[l] /= p.values[l]
	}
	return out, nil
}
