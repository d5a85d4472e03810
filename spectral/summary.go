package spectral

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

// ZeroEigenvalueTol is the magnitude below which Summarize counts an
// eigenvalue as zero: one per connected component.
const ZeroEigenvalueTol = 1e-8

// Summary sums up a Laplacian eigensolve for a reader (gssl eigs prints
// it, and its JSON is part of the command's).
type Summary struct {
	Eigenvalues []float64 `json:"eigenvalues"`
	Residuals   []float64 `json:"residuals"`
	MaxResidual float64   `json:"max_residual"`
	// ZeroFound counts the eigenvalues of magnitude below
	// ZeroEigenvalueTol.
	ZeroFound int `json:"zero_eigenvalues"`
	// Orthogonality is Result.Orthogonality in the inner product the
	// eigenvectors are orthonormal in (D for L_rw, else the identity).
	Orthogonality float64 `json:"orthogonality"`
	Restarts      int     `json:"restarts"`
	MatVecs       int     `json:"matvecs"`
}

// Summarize returns the Summary of r, the result of LaplacianEigs on g
// with the Laplacian kind. A non-finite eigenvalue or residual (the
// arithmetic overflowed on huge weights) is an error naming the pair.
func Summarize(r *Result, kind laplacian.Kind, g *graph.CSR) (Summary, error) {
	for i, v := range r.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(r.Residuals[i]) {
			return Summary{}, fmt.Errorf("eigenvalue %d is %v (residual %v): the arithmetic overflowed", i, v, r.Residuals[i])
		}
	}
	s := Summary{Eigenvalues: r.Values, Residuals: r.Residuals, MaxResidual: r.MaxResidual(), Restarts: r.Restarts, MatVecs: r.MatVecs}
	for _, v := range r.Values {
		if math.Abs(v) < ZeroEigenvalueTol {
			s.ZeroFound++
		}
	}
	var m []float64 // the eigenvectors of L_rw are D-orthonormal
	if kind == laplacian.RandomWalk {
		m = g.Degrees()
	}
	s.Orthogonality = r.Orthogonality(m)
	return s, nil
}

// ParseMethod reads the names of String: auto (or ""), block, single
// or single-vector, and subspace.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "block":
		return Block, nil
	case "single", "single-vector":
		return SingleVector, nil
	case "subspace":
		return Subspace, nil
	}
	return 0, fmt.Errorf("spectral: unknown method %q: want auto, block, single or subspace", s)
}
