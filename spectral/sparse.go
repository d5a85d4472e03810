package spectral

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// sparseOperator is A = diag(d) + s·M for a symmetric sparse M stored with
// its final weights (the normalised adjacency S with s = 1, or W with s = −1
// and d the degrees for L_un = D − W), so a product reads one weight per
// stored entry and nothing else. Besides plain
// products it performs a whole Chebyshev step Y' = α(A − σI)Y − Y” in one
// pass over the graph, which is where a filtered eigensolver spends its time.
type sparseOperator struct {
	m      *graph.CSR
	scale  float64
	diag   []float64 // nil means zero
	prefix []int     // cumulative stored entries per row, for load balancing
}

var (
	_ linop.BlockOperator = (*sparseOperator)(nil)
	_ linop.Symmetric     = (*sparseOperator)(nil)
	_ chebStepper         = (*sparseOperator)(nil)
)

// chebStepper is implemented by operators that fuse a Chebyshev step.
type chebStepper interface {
	// chebStep sets next = α(A − σI)cur − prev (prev nil: no subtraction)
	// for n×b contiguous blocks.
	chebStep(next, cur, prev *mat.Dense, alpha, sigma float64)
}

// newSparseOperator returns the operator of kind laplacian.NormalizedAdjacency
// or laplacian.Unnormalized on g.
func newSparseOperator(g *graph.CSR, kind laplacian.Kind, dg *laplacian.Degrees) (*sparseOperator, error) {
	var m *graph.CSR
	var diag []float64
	var err error
	switch kind {
	case laplacian.NormalizedAdjacency:
		m, err = g.SymmetricScale(dg.InvSqrtD)
	case laplacian.Unnormalized:
		m = g
		diag = dg.D
	default:
		return nil, fmt.Errorf("spectral: no sparse operator for kind %v", kind)
	}
	if err != nil {
		return nil, err
	}
	n := g.Nodes()
	prefix := make([]int, n+1)
	for i := 0; i < n; i++ {
		prefix[i+1] = prefix[i] + g.RowLen(i)
	}
	o := &sparseOperator{m: m, scale: 1, diag: diag, prefix: prefix}
	if kind == laplacian.Unnormalized {
		o.scale = -1
	}
	return o, nil
}

func (o *sparseOperator) Dim() int { return o.m.Nodes() }

func (o *sparseOperator) IsSymmetric() bool { return true }

func (o *sparseOperator) MulVecTo(dst, x []float64) {
	linop.CheckVec("spectral", o.Dim(), dst, x)
	o.apply(dst, 1, x, nil, 1, 0)
}

func (o *sparseOperator) MulBlockTo(dst, x *mat.Dense) {
	n, b := x.Dims()
	if xr := x.RawMatrix(); xr.Stride != b {
		x = mat.DenseCopyOf(x)
	}
	if dr := dst.RawMatrix(); dr.Stride != b {
		tmp := mat.NewDense(n, b, nil)
		o.MulBlockTo(tmp, x)
		dst.Copy(tmp)
		return
	}
	o.apply(dst.RawMatrix().Data, b, x.RawMatrix().Data, nil, 1, 0)
}

func (o *sparseOperator) chebStep(next, cur, prev *mat.Dense, alpha, sigma float64) {
	_, b := cur.Dims()
	var p []float64
	if prev != nil {
		p = prev.RawMatrix().Data
	}
	o.apply(next.RawMatrix().Data, b, cur.RawMatrix().Data, p, alpha, sigma)
}

// apply sets dst = α(A − σI)x − prev for contiguous n×b row-major blocks.
func (o *sparseOperator) apply(dst []float64, b int, x, prev []float64, alpha, sigma float64) {
	parallel.Balanced(o.prefix, 1<<14, func(lo, hi int) {
		acc := make([]float64, b)
		for i := lo; i < hi; i++ {
			cols, ws := o.m.Row(i)
			for t := range acc {
				acc[t] = 0
			}
			switch b {
			case 1:
				var s float64
				for k, c := range cols {
					s += ws[k] * x[c]
				}
				acc[0] = s
			case 4:
				var s0, s1, s2, s3 float64
				for k, c := range cols {
					w := ws[k]
					xr := x[int(c)*4 : int(c)*4+4 : int(c)*4+4]
					s0 += w * xr[0]
					s1 += w * xr[1]
					s2 += w * xr[2]
					s3 += w * xr[3]
				}
				acc[0], acc[1], acc[2], acc[3] = s0, s1, s2, s3
			default:
				for k, c := range cols {
					w := ws[k]
					xr := x[int(c)*b : int(c)*b+b]
					for t, v := range xr {
						acc[t] += w * v
					}
				}
			}
			d := -sigma
			if o.diag != nil {
				d += o.diag[i]
			}
			if o.scale != 1 {
				for t := range acc {
					acc[t] *= o.scale
				}
			}
			xi := x[i*b : i*b+b]
			out := dst[i*b : i*b+b]
			if prev == nil {
				for t := range out {
					out[t] = alpha * (acc[t] + d*xi[t])
				}
			} else {
				pi := prev[i*b : i*b+b]
				for t := range out {
					out[t] = alpha*(acc[t]+d*xi[t]) - pi[t]
				}
			}
		}
	})
}
