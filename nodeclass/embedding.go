package nodeclass

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

// WithEmbedding returns the node features with a spectral embedding of the
// graph appended, as Huang et al. (2021, §4) give their base predictors:
// [X̂ | w·Ê], X̂ the features after norm (normalised here once, so use the
// result with NoNormalization), Ê the dim coordinates of the Laplacian
// eigenmap of g (spectral.LaplacianEigenmap, isolated nodes at zero) scaled
// so that the mean squared norm of its rows is that of X̂'s rows, and w =
// weight. A sparse X gives a sparse result with dim more entries per row
// (the embedding is dense); a dense X a dense one. It costs one Lanczos
// eigensolve of dim + 1 pairs.
func WithEmbedding(ctx context.Context, g *graph.CSR, x Features, norm Normalization, dim int, weight float64) (Features, error) {
	if err := checkData(g, x, nil); err != nil {
		return Features{}, err
	}
	if dim < 1 || !(weight > 0) || math.IsInf(weight, 0) {
		return Features{}, fmt.Errorf("nodeclass: embedding: dim=%d must be ≥ 1 and weight=%v finite and > 0", dim, weight)
	}
	xn, err := normalize(x, norm)
	if err != nil {
		return Features{}, err
	}
	em := spectral.LaplacianEigenmap{Dim: dim, Isolated: laplacian.IsolatedZero}
	if err := em.Fit(ctx, estimator.Nodes{Graph: g}); err != nil {
		return Features{}, fmt.Errorf("nodeclass: embedding: %w", err)
	}
	e := em.Coordinates()
	n, d := xn.Dims()
	var xs, es float64
	if xn.Sparse != nil {
		for _, v := range xn.Sparse.Values {
			xs += v * v
		}
	} else {
		xs = math.Pow(mat.Norm(xn.Dense, 2), 2)
	}
	es = math.Pow(mat.Norm(e, 2), 2)
	c := weight
	if es > 0 {
		c *= math.Sqrt(xs / es)
	}
	if xn.Dense != nil {
		out := mat.NewDense(n, d+dim, nil)
		for i := 0; i < n; i++ {
			row := out.RawRowView(i)
			copy(row, xn.Dense.RawRowView(i))
			for j, v := range e.RawRowView(i) {
				row[d+j] = c * v
			}
		}
		return Features{Dense: out}, nil
	}
	s := xn.Sparse
	out := &loaders.Sparse{Rows: n, Cols: d + dim, Indptr: make([]int, 1, n+1),
		Indices: make([]int32, 0, s.NNZ()+n*dim), Values: make([]float64, 0, s.NNZ()+n*dim)}
	for i := 0; i < n; i++ {
		cols, vals := s.Row(i)
		out.Indices = append(out.Indices, cols...)
		out.Values = append(out.Values, vals...)
		for j, v := range e.RawRowView(i) {
			out.Indices = append(out.Indices, int32(d+j))
			out.Values = append(out.Values, c*v)
		}
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return Features{Sparse: out}, nil
}
