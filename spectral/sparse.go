package spectral

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// sparseOperator is A = diag(d) + diag(l)·W·diag(r) for a symmetric sparse W
// held by a graph.CSR: the normalised adjacency S = D^{-1/2} W D^{-1/2} on
// the graph itself with l = r = D^{-1/2} (d = 0), or L_un = D − W (l = −1,
// d the degrees, r = 1). The scaling is applied inside the products
// (graph.Scaling) rather than stored as a weighted copy of the graph, which
// would add 8 bytes per stored entry (1.6 GB for 100 M edges) to the
// eigensolver's peak and a stream of those weights to every product.
// Products go through the graph's register-blocked kernels
// (ScaledMulBlockTo); a whole Chebyshev step Y' = α(A − σI)Y − Y” is one
// ChebyshevStepTo, which is where a filtered eigensolver spends its time.
type sparseOperator struct {
	g     *graph.CSR
	diag  []float64 // d; nil means zero
	left  []float64 // l as a vector (nil means 1)
	right []float64 // r as a vector (nil means 1)
	shift []float64 // d − σ for sigma
	sigma float64
	rx    sync.Pool // *[]float64 scratch vectors r∘x of MulVecTo
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
		if len(dg.InvSqrtD) != g.Nodes() {
			return nil, fmt.Errorf("spectral: %d degree scales for a graph of %d nodes", len(dg.InvSqrtD), g.Nodes())
		}
		return &sparseOperator{g: g, left: dg.InvSqrtD, right: dg.InvSqrtD}, nil
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

// rxGrain is the number of entries of r∘x one task scales.
const rxGrain = 1 << 14

func (o *sparseOperator) MulVecTo(dst, x []float64) {
	linop.CheckVec("spectral", o.Dim(), dst, x)
	if o.right == nil || o.diag != nil {
		o.g.ScaledMulVecTo(dst, x, graph.Scaling{Diag: o.diag, Left: o.left, Right: o.right})
		return
	}
	// One gather of r∘x per stored entry instead of one of r and one of x.
	p, _ := o.rx.Get().(*[]float64)
	if p == nil || len(*p) != len(x) {
		v := make([]float64, len(x))
		p = &v
	}
	defer o.rx.Put(p)
	rx, r := *p, o.right
	parallel.For(len(x), rxGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rx[i] = r[i] * x[i]
		}
	})
	o.g.ScaledMulVecTo(dst, rx, graph.Scaling{Left: o.left})
}

func (o *sparseOperator) MulBlockTo(dst, x *mat.Dense) {
	o.g.ScaledMulBlockTo(dst, x, graph.Scaling{Diag: o.diag, Left: o.left, Right: o.right})
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
	o.g.ChebyshevStepTo(next, cur, prev, graph.Scaling{Diag: o.shift, Left: o.left, Right: o.right}, alpha)
}
