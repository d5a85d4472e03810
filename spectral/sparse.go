package spectral

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// sparseOperator is A = diag(d) + s·M for a symmetric sparse M, stored in its
// own flat CSR arrays with the final weights s·M_ij (the normalised adjacency
// S with s = 1, or W with s = −1 and d the degrees for L_un = D − W), so a
// product reads one index and one weight per stored entry and nothing else. Besides plain
// products it performs a whole Chebyshev step Y' = α(A − σI)Y − Y” in one
// pass over the graph, which is where a filtered eigensolver spends its time.
type sparseOperator struct {
	n       int
	indptr  []int     // row i is indices[indptr[i]:indptr[i+1]] (also the load-balancing prefix)
	indices []int32   // columns, ascending within a row
	weights []float64 // final weights s·M_ij
	diag    []float64 // nil means zero
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
	o := &sparseOperator{n: n, indptr: make([]int, n+1), indices: make([]int32, 0, g.NNZ()), weights: make([]float64, 0, g.NNZ()), diag: diag}
	scale := 1.0
	if kind == laplacian.Unnormalized {
		scale = -1
	}
	for i := 0; i < n; i++ {
		cols, ws := m.Row(i)
		o.indices = append(o.indices, cols...)
		for _, w := range ws {
			o.weights = append(o.weights, scale*w)
		}
		o.indptr[i+1] = len(o.indices)
	}
	return o, nil
}

func (o *sparseOperator) Dim() int { return o.n }

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

// apply sets dst = α(A − σI)x − prev (prev nil: no subtraction) for
// contiguous n×b row-major blocks, in parallel over rows balanced by stored
// entries.
func (o *sparseOperator) apply(dst []float64, b int, x, prev []float64, alpha, sigma float64) {
	parallel.Balanced(o.indptr, 1<<14, func(lo, hi int) {
		switch b {
		case 1:
			o.apply1(dst, x, prev, alpha, sigma, lo, hi)
		case 4:
			o.apply4(dst, x, prev, alpha, sigma, lo, hi)
		default:
			o.applyN(dst, b, x, prev, alpha, sigma, lo, hi)
		}
	})
}

func (o *sparseOperator) shift(i int, sigma float64) float64 {
	if o.diag != nil {
		return o.diag[i] - sigma
	}
	return -sigma
}

func (o *sparseOperator) apply1(dst, x, prev []float64, alpha, sigma float64, lo, hi int) {
	indptr, indices, weights := o.indptr, o.indices, o.weights
	for i := lo; i < hi; i++ {
		a, e := indptr[i], indptr[i+1]
		var s float64
		ws := weights[a:e]
		for k, c := range indices[a:e] {
			s += ws[k] * x[c]
		}
		v := alpha * (s + o.shift(i, sigma)*x[i])
		if prev != nil {
			v -= prev[i]
		}
		dst[i] = v
	}
}

func (o *sparseOperator) apply4(dst, x, prev []float64, alpha, sigma float64, lo, hi int) {
	indptr, indices, weights := o.indptr, o.indices, o.weights
	for i := lo; i < hi; i++ {
		a, e := indptr[i], indptr[i+1]
		var s0, s1, s2, s3 float64
		ws := weights[a:e]
		for k, c := range indices[a:e] {
			w := ws[k]
			xr := x[4*int(c) : 4*int(c)+4 : 4*int(c)+4]
			s0 += w * xr[0]
			s1 += w * xr[1]
			s2 += w * xr[2]
			s3 += w * xr[3]
		}
		d := o.shift(i, sigma)
		xi := x[4*i : 4*i+4 : 4*i+4]
		out := dst[4*i : 4*i+4 : 4*i+4]
		out[0] = alpha * (s0 + d*xi[0])
		out[1] = alpha * (s1 + d*xi[1])
		out[2] = alpha * (s2 + d*xi[2])
		out[3] = alpha * (s3 + d*xi[3])
		if prev != nil {
			p := prev[4*i : 4*i+4 : 4*i+4]
			out[0] -= p[0]
			out[1] -= p[1]
			out[2] -= p[2]
			out[3] -= p[3]
		}
	}
}

func (o *sparseOperator) applyN(dst []float64, b int, x, prev []float64, alpha, sigma float64, lo, hi int) {
	indptr, indices, weights := o.indptr, o.indices, o.weights
	acc := make([]float64, b)
	for i := lo; i < hi; i++ {
		for t := range acc {
			acc[t] = 0
		}
		a, e := indptr[i], indptr[i+1]
		ws := weights[a:e]
		for k, c := range indices[a:e] {
			w := ws[k]
			xr := x[int(c)*b : int(c)*b+b]
			for t, v := range xr {
				acc[t] += w * v
			}
		}
		d := o.shift(i, sigma)
		xi := x[i*b : i*b+b]
		out := dst[i*b : i*b+b]
		for t := range out {
			out[t] = alpha * (acc[t] + d*xi[t])
		}
		if prev != nil {
			p := prev[i*b : i*b+b]
			for t := range out {
				out[t] -= p[t]
			}
		}
	}
}
