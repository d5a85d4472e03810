package spectral

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// sparseOperator is A = diag(d) + s·M for a symmetric sparse M held by a
// graph.CSR: the normalised adjacency S = D^{-1/2} W D^{-1/2} (the weights
// of graph.SymmetricScale, sharing the graph's structure; s = 1, d = 0), or
// L_un = D − W on the graph itself (s = −1, d the degrees). Products go
// through the graph's register-blocked kernels (ScaledMulBlockTo); a whole
// Chebyshev step Y' = α(A − σI)Y − Y” is one ChebyshevStepTo, which is where
// a filtered eigensolver spends its time.
type sparseOperator struct {
	g     *graph.CSR
	diag  []float64 // d; nil means zero
	left  []float64 // s as a vector (nil means 1)
	shift []float64 // d − σ for sigma
	sigma float64
}

var (
	_ linop.BlockOperator = (*sparseOperator)(nil)
	_ linop.Symmetric     = (*sparseOperator)(nil)
	_ chebStepper         = (*sparseOperator)(nil)
)

// chebStepper is implemented by operators that fuse a Chebyshev step.
type chebStepper interface {
	// chebStep sets next = α(A − σI)cur − prev (prev nil: no subtraction)
	// for n×b blocks.
	chebStep(next, cur, prev *mat.Dense, alpha, sigma float64)
}

// newSparseOperator returns the operator of kind laplacian.NormalizedAdjacency
// or laplacian.Unnormalized on g.
func newSparseOperator(g *graph.CSR, kind laplacian.Kind, dg *laplacian.Degrees) (*sparseOperator, error) {
	switch kind {
	case laplacian.NormalizedAdjacency:
		m, err := g.SymmetricScale(dg.InvSqrtD)
		if err != nil {
			return nil, err
		}
		return &sparseOperator{g: m}, nil
	case laplacian.Unnormalized:
		left := make([]float64, g.Nodes())
		for i := range left {
			left[i] = -1
		}
		return &sparseOperator{g: g, diag: dg.D, left: left}, nil
	}
	return nil, fmt.Errorf("spectral: no sparse operator for kind %v", kind)
}

func (o *sparseOperator) Dim() int { return o.g.Nodes() }

func (o *sparseOperator) IsSymmetric() bool { return true }

func (o *sparseOperator) MulVecTo(dst, x []float64) {
	linop.CheckVec("spectral", o.Dim(), dst, x)
	o.g.ScaledMulVecTo(dst, x, graph.Scaling{Diag: o.diag, Left: o.left})
}

func (o *sparseOperator) MulBlockTo(dst, x *mat.Dense) {
	o.g.ScaledMulBlockTo(dst, x, graph.Scaling{Diag: o.diag, Left: o.left})
}

func (o *sparseOperator) chebStep(next, cur, prev *mat.Dense, alpha, sigma float64) {
	if o.shift == nil || sigma != o.sigma {
		if o.shift == nil {
			o.shift = make([]float64, o.Dim())
		}
		for i := range o.shift {
			d := 0.0
			if o.diag != nil {
				d = o.diag[i]
			}
			o.shift[i] = d - sigma
		}
		o.sigma = sigma
	}
	o.g.ChebyshevStepTo(next, cur, prev, graph.Scaling{Diag: o.shift, Left: o.left}, alpha)
}
