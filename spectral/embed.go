package spectral

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

// LaplacianEigenmap embeds the nodes of a graph in R^Dim (Belkin & Niyogi,
// Neural Computation 15, 2003): the solutions of the generalised problem
// L_un f = λ D f for the smallest eigenvalues, i.e. the eigenvectors of
// L_rw = I − D^{-1}W, D-orthonormal, with the first (the constant vector of
// eigenvalue 0) dropped. Coordinate l of node i is f_{l+1}(i). This is what
// scikit-learn's SpectralEmbedding computes (up to signs, which gssl fixes:
// the entry of largest magnitude of every vector is positive). On a graph
// with c > 1 components the first c eigenvectors (eigenvalue 0) are
// component indicators; as in scikit-learn only the first is dropped.
type LaplacianEigenmap struct {
	// Dim is the embedding dimension; 0 means DefaultEigenmapDim.
	Dim int
	// Isolated says what to do with nodes of degree zero (zero value:
	// laplacian.IsolatedComponent, each its own component with eigenvalue
	// 0; laplacian.IsolatedError reports them).
	Isolated laplacian.IsolatedPolicy
	// Eigen controls the eigensolver (zero means defaults).
	Eigen Settings

	coords *mat.Dense
	values []float64
	info   estimator.Info
}

// DefaultEigenmapDim is LaplacianEigenmap's dimension when Dim is 0.
const DefaultEigenmapDim = 2

var _ estimator.NodeTransformer = (*LaplacianEigenmap)(nil)

// Clone returns an unfitted copy with the same hyperparameters.
func (e *LaplacianEigenmap) Clone() *LaplacianEigenmap {
	return &LaplacianEigenmap{Dim: e.Dim, Isolated: e.Isolated, Eigen: e.Eigen}
}

// Info reports the last fit under the shared names: Iterations are the
// eigensolver's thick restarts, Products its operator products, Residual
// 0 (every pair reached the tolerance). It is zero before Fit.
func (e *LaplacianEigenmap) Info() estimator.Info { return e.info }

// Validate checks the hyperparameters.
func (e *LaplacianEigenmap) Validate() error {
	if e.Dim < 0 {
		return fmt.Errorf("spectral: LaplacianEigenmap: Dim = %d is invalid: it must be ≥ 0 (0 means %d)", e.Dim, DefaultEigenmapDim)
	}
	if err := checkIsolated("LaplacianEigenmap", e.Isolated); err != nil {
		return err
	}
	if err := e.Eigen.Validate(); err != nil {
		return fmt.Errorf("spectral: LaplacianEigenmap: Eigen settings: %w", err)
	}
	return nil
}

// Fit computes the embedding of the nodes of x.Graph (the features are not
// used). When the eigensolver stops at its restart cap it returns an
// *estimator.NotConvergedError and the model stays unfitted.
func (e *LaplacianEigenmap) Fit(ctx context.Context, x estimator.Nodes) error {
	if err := e.Validate(); err != nil {
		return err
	}
	g := x.Graph
	e.coords, e.values, e.info = nil, nil, estimator.Info{}
	if g == nil {
		return errors.New("spectral: LaplacianEigenmap: graph is nil")
	}
	dim := e.Dim
	if dim == 0 {
		dim = DefaultEigenmapDim
	}
	if dim+1 > g.Nodes() {
		return fmt.Errorf("spectral: LaplacianEigenmap: Dim = %d is invalid: it must be below the number of nodes (%d)", dim, g.Nodes())
	}
	r, err := LaplacianEigs(ctx, g, laplacian.RandomWalk, laplacian.Options{Isolated: e.Isolated}, dim+1, e.Eigen)
	if err != nil {
		return eigsError("LaplacianEigenmap", err)
	}
	n := g.Nodes()
	e.coords = mat.DenseCopyOf(r.Vectors.Slice(0, n, 1, dim+1))
	e.values = append([]float64(nil), r.Values[1:]...)
	e.info = estimator.Info{Iterations: r.Restarts, Products: r.MatVecs}
	return nil
}

// Transform returns the coordinates of the queried nodes: a copy of the
// fitted nodes' for estimator.FittedNodes, or new nodes' from their edges to
// fitted nodes (q.New; q.Features is not used) by the Nyström extension of
// the eigenvectors of L_rw (Bengio et al., NIPS 2003): from
// D^{-1}W f = (1 − λ) f,
//
//	f_l(x) = Σ_j w_xj f_l(j) / ((1 − λ_l) d_x),   d_x = Σ_j w_xj,
//
// which gives a fitted node its own coordinates when its edges are its
// graph row. A coordinate with 1 − λ_l ≤ 1e-12, and every coordinate of a
// new node without edge weight, is 0.
func (e *LaplacianEigenmap) Transform(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if e.coords == nil {
		return nil, estimator.NotFitted("spectral: LaplacianEigenmap.Transform")
	}
	if q.New == nil {
		return mat.DenseCopyOf(e.coords), nil
	}
	mu := make([]float64, len(e.values))
	for l, lam := range e.values {
		mu[l] = 1 - lam
	}
	return nystrom(ctx, "LaplacianEigenmap", *q.New, e.coords, mu, func(_ int32, w, dx float64) float64 { return w / dx })
}

// nystrom returns, for every new node, Σ_j c(j, w_xj, d_x)·v(j)/μ_l over
// its edges (0 where μ_l ≤ 1e-12 or d_x is 0): the
// Nyström extension shared by LaplacianEigenmap (c = w/d_x on L_rw's
// vectors) and KernelPCA (c = w/√(d_x d_j) on S's).
func nystrom(ctx context.Context, model string, nodes estimator.NewNodes, v *mat.Dense, mu []float64, c func(j int32, w, dx float64) float64) (*mat.Dense, error) {
	n, k := v.Dims()
	if err := nodes.Check(n); err != nil {
		return nil, fmt.Errorf("spectral: %s.Transform: %w", model, err)
	}
	if nodes.Len() == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(nodes.Len(), k, nil)
	for i := 0; i < nodes.Len(); i++ {
		if i%4096 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		idx, ws := nodes.Row(i)
		var dx float64
		for p := range idx {
			dx += weightAt(ws, p)
		}
		if !(dx > 0) {
			continue
		}
		row := out.RawRowView(i)
		for p, j := range idx {
			s := c(j, weightAt(ws, p), dx)
			if s == 0 {
				continue
			}
			for l, x := range v.RawRowView(int(j)) {
				row[l] += s * x
			}
		}
		for l, m := range mu {
			if m > 1e-12 {
				row[l] /= m
			} else {
				row[l] = 0
			}
		}
	}
	return out, nil
}

// weightAt is the weight of edge p of a NewNodes row (1 when nil).
func weightAt(ws []float64, p int) float64 {
	if ws == nil {
		return 1
	}
	return ws[p]
}

// Coordinates returns the n×Dim embedding (nil before Fit).
func (e *LaplacianEigenmap) Coordinates() *mat.Dense { return e.coords }

// Eigenvalues returns the eigenvalues of L_rw of the kept coordinates.
func (e *LaplacianEigenmap) Eigenvalues() []float64 { return e.values }
