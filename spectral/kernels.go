package spectral

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// This file holds the dense kernels of the eigensolver on tall row-major
// blocks (n rows, a few hundred columns at most). gonum's general Dgemm is
// slow for these skinny shapes, so each kernel works row by row with the
// assembly-backed floats.AddScaled/floats.Dot, in parallel over rows.
// Reductions over rows use fixed chunks summed in order, so results do not
// depend on the number of cores.

// reduceRows is the number of rows per partial sum in reductions over rows.
const reduceRows = 512

// rowGrain is the minimum number of rows a goroutine handles in row-parallel
// kernels.
const rowGrain = 256

// colsOf returns the raw data of v restricted to columns [c0, c1): row i is
// data[i*stride : i*stride+c1-c0].
func colsOf(v *mat.Dense, c0, c1 int) (data []float64, stride, n int) {
	raw := v.RawMatrix()
	return raw.Data[c0:], raw.Stride, raw.Rows
}

// gramT sets c (b×p, row t holds column t of W against the p columns of V) to
// Wᵀ·V[:, c0:c0+p], i.e. c[t*p+l] = Σ_i W[i,t]·V[i,c0+l]. W is n×b.
func gramT(c []float64, v *mat.Dense, c0, p int, w *mat.Dense) {
	vd, vs, n := colsOf(v, c0, c0+p)
	wr := w.RawMatrix()
	b := wr.Cols
	for i := range c[:b*p] {
		c[i] = 0
	}
	if p == 0 || n == 0 {
		return
	}
	chunks := (n + reduceRows - 1) / reduceRows
	if chunks == 1 {
		gramRows(c, vd, vs, wr.Data, wr.Stride, b, p, 0, n)
		return
	}
	part := make([]float64, chunks*b*p)
	parallel.For(chunks, 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			r0 := ch * reduceRows
			r1 := min(n, r0+reduceRows)
			gramRows(part[ch*b*p:(ch+1)*b*p], vd, vs, wr.Data, wr.Stride, b, p, r0, r1)
		}
	})
	for ch := 0; ch < chunks; ch++ {
		floats.Add(c[:b*p], part[ch*b*p:(ch+1)*b*p])
	}
}

func gramRows(c, vd []float64, vs int, wd []float64, ws, b, p, r0, r1 int) {
	for i := r0; i < r1; i++ {
		vrow := vd[i*vs : i*vs+p]
		wrow := wd[i*ws : i*ws+b]
		for t, x := range wrow {
			if x != 0 {
				floats.AddScaled(c[t*p:(t+1)*p], x, vrow)
			}
		}
	}
}

// subMul sets W −= V[:, c0:c0+p]·cᵀ where c is b×p as returned by gramT.
func subMul(w *mat.Dense, v *mat.Dense, c0, p int, c []float64) {
	if p == 0 {
		return
	}
	vd, vs, n := colsOf(v, c0, c0+p)
	wr := w.RawMatrix()
	b := wr.Cols
	parallel.For(n, rowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			vrow := vd[i*vs : i*vs+p]
			wrow := wr.Data[i*wr.Stride : i*wr.Stride+b]
			for t := range wrow {
				wrow[t] -= floats.Dot(vrow, c[t*p:(t+1)*p])
			}
		}
	})
}

// rotate sets V[:, dst:dst+q] = V[:, src:src+j]·s where s is j×q (row-major,
// stride q). The ranges may overlap: each row is computed into a buffer first.
func rotate(v *mat.Dense, src, j int, s []float64, q, dst int) {
	raw := v.RawMatrix()
	n, vs := raw.Rows, raw.Stride
	parallel.For(n, rowGrain, func(lo, hi int) {
		tmp := make([]float64, q)
		for i := lo; i < hi; i++ {
			row := raw.Data[i*vs : i*vs+raw.Cols]
			for t := range tmp {
				tmp[t] = 0
			}
			for l, x := range row[src : src+j] {
				if x != 0 {
					floats.AddScaled(tmp, x, s[l*q:(l+1)*q])
				}
			}
			copy(row[dst:dst+q], tmp)
		}
	})
}

// copyCols copies the b columns of src starting at column s0 to the columns
// of dst starting at d0 (dst and src may be the same matrix; ranges may
// overlap).
func copyCols(dst *mat.Dense, d0 int, src *mat.Dense, s0, b int) {
	dr, sr := dst.RawMatrix(), src.RawMatrix()
	for i := 0; i < dr.Rows; i++ {
		copy(dr.Data[i*dr.Stride+d0:i*dr.Stride+d0+b], sr.Data[i*sr.Stride+s0:i*sr.Stride+s0+b])
	}
}
