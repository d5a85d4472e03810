package spectral

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// ErrComponentTooSmall is returned by ComponentEigenmap when the largest
// connected component has too few nodes for the embedding's dimension.
var ErrComponentTooSmall = errors.New("spectral: the largest connected component is too small for the embedding")

// ComponentEigenmap fits e on the largest connected component of g (the
// one containing the smallest node on ties, graph.CSR.LargestComponent)
// and returns its coordinates, one row per node of the component, and the
// component's nodes as ids of g (row k is node nodes[k]). On a graph of
// several components this is the picture a scatter plot can show: the
// eigenmap of the whole graph spends its first coordinates on component
// indicators. A component of at most Dim+1 nodes is an error wrapping
// ErrComponentTooSmall.
func ComponentEigenmap(ctx context.Context, g *graph.CSR, e *LaplacianEigenmap) (*mat.Dense, []int, error) {
	if g == nil {
		return nil, nil, errors.New("spectral: ComponentEigenmap: graph is nil")
	}
	if err := e.Validate(); err != nil {
		return nil, nil, err
	}
	sub, err := g.LargestComponent()
	if err != nil {
		return nil, nil, fmt.Errorf("spectral: ComponentEigenmap: %w", err)
	}
	dim := e.Dim
	if dim == 0 {
		dim = DefaultEigenmapDim
	}
	if m := sub.CSR.Nodes(); m <= dim+1 {
		return nil, nil, fmt.Errorf("%w: %d nodes for %d dimensions (it needs at least %d)", ErrComponentTooSmall, m, dim, dim+2)
	}
	if err := e.Fit(ctx, estimator.Nodes{Graph: sub.CSR}); err != nil {
		return nil, nil, err
	}
	return e.Coordinates(), sub.Original, nil
}
