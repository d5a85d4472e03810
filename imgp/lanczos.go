package imgp

import (
	"context"
	"fmt"
	"math"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/spectral"
)

// Lanczos is the default eigensolver: the L smallest eigenpairs of
// Δ_rw = I − D⁻¹A by spectral.LaplacianEigs (per connected component, block
// Lanczos with Chebyshev filtering on S = D^{-1/2}AD^{-1/2}, components of at
// most 160 nodes solved densely by the spectral package), mapped to
// D-orthonormal vectors f = D^{-1/2}u. Memory O(N·L) plus the Krylov basis;
// no dense N×N matrix. Every eigenvalue 0 (one per connected component) is
// exact, whatever its multiplicity.
type Lanczos struct {
	// Tol is the residual tolerance of each pair, ‖L_sym u − λu‖₂ ≤ Tol
	// (an absolute bound: ‖L_sym‖ ≤ 2); 0 means 1e-10.
	Tol float64
	// Seed seeds the random start block.
	Seed uint64
	// Progress, if not nil, is called after every restart of the solver.
	Progress func(spectral.Status)
}

// Smallest implements Eigensolver.
func (lz Lanczos) Smallest(ctx context.Context, w *knngraph.Weights, l int) (*Eigenpairs, error) {
	if w == nil || w.A == nil {
		return nil, fmt.Errorf("imgp: Lanczos: no graph weights")
	}
	n := len(w.D)
	if l < 1 || l > n {
		return nil, fmt.Errorf("imgp: eigenpairs L = %d is invalid: it must be in [1, N = %d]", l, n)
	}
	if !(lz.Tol >= 0 && lz.Tol < 1) {
		return nil, fmt.Errorf("imgp: Lanczos: Tol = %v is invalid: it must be in [1e-15, 1) (0 means 1e-10)", lz.Tol)
	}
	res, err := spectral.LaplacianEigs(ctx, w.A, laplacian.RandomWalk, laplacian.Options{}, l,
		spectral.Settings{Tol: lz.Tol, Seed: lz.Seed, Progress: lz.Progress})
	if err != nil {
		return nil, fmt.Errorf("imgp: eigenpairs of Δ_rw: %w", err)
	}
	for q, v := range res.Values {
		res.Values[q] = math.Max(v, 0)
	}
	return &Eigenpairs{Values: res.Values, Vectors: res.Vectors}, nil
}
