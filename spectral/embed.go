package spectral

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
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
	// Dim is the embedding dimension; 0 means 2.
	Dim int
	// Isolated says what to do with nodes of degree zero (zero value:
	// laplacian.IsolatedComponent, each its own component with eigenvalue
	// 0; laplacian.IsolatedError reports them).
	Isolated laplacian.IsolatedPolicy
	// Eigen controls the eigensolver (zero means defaults).
	Eigen Settings

	coords *mat.Dense
	values []float64
}

// Validate checks the hyperparameters.
func (e *LaplacianEigenmap) Validate() error {
	if e.Dim < 0 {
		return fmt.Errorf("spectral: LaplacianEigenmap: Dim = %d is invalid: it must be ≥ 0 (0 means 2)", e.Dim)
	}
	return checkIsolated("LaplacianEigenmap", e.Isolated)
}

// Fit computes the embedding of the nodes of g.
func (e *LaplacianEigenmap) Fit(ctx context.Context, g *graph.CSR) error {
	if err := e.Validate(); err != nil {
		return err
	}
	if g == nil {
		return errors.New("spectral: LaplacianEigenmap: graph is nil")
	}
	dim := e.Dim
	if dim == 0 {
		dim = 2
	}
	if dim+1 > g.Nodes() {
		return fmt.Errorf("spectral: LaplacianEigenmap: Dim = %d is invalid: it must be below the number of nodes (%d)", dim, g.Nodes())
	}
	r, err := LaplacianEigs(ctx, g, laplacian.RandomWalk, laplacian.Options{Isolated: e.Isolated}, dim+1, e.Eigen)
	if err != nil {
		return fmt.Errorf("spectral: LaplacianEigenmap: %w", err)
	}
	n := g.Nodes()
	e.coords = mat.DenseCopyOf(r.Vectors.Slice(0, n, 1, dim+1))
	e.values = append([]float64(nil), r.Values[1:]...)
	return nil
}

// Coordinates returns the n×Dim embedding (nil before Fit).
func (e *LaplacianEigenmap) Coordinates() *mat.Dense { return e.coords }

// Eigenvalues returns the eigenvalues of L_rw of the kept coordinates.
func (e *LaplacianEigenmap) Eigenvalues() []float64 { return e.values }
