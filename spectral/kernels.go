package spectral

import (
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// This file holds the dense kernels of the eigensolver on tall row-major
// blocks (n rows, a few hundred columns at most): the Gram products VᵀW and
// the updates W − V·C of block Gram–Schmidt, and the rotations V·S of the
// Rayleigh–Ritz steps. gonum's general Dgemm and its SSE2 axpy/dot loops are
// slow for these skinny shapes, so each kernel cuts the rows into chunks,
// packs a chunk into the panels of internal/gemm (where it stays in cache)
// and runs the AVX2/FMA micro-kernels on it, in parallel over chunks.
// Reductions over rows use fixed chunks summed in order, so results do not
// depend on the number of cores.

// reduceRows is the number of rows per partial sum in reductions over rows
// (and per packed chunk in the row-parallel kernels): a chunk of 256 rows
// of a 150-column basis is 300 kB of panels, which stays in a core's L2.
const reduceRows = 256

// rowGrain is the minimum number of rows a goroutine handles in row-parallel
// kernels.
const rowGrain = 256

// thinBlock is the widest block W for which gramT and subMul run gonum's
// axpy and dot per row instead of packing for the micro-kernels: for such
// thin blocks the products are limited by reading V, and packing costs more
// than the kernels save (BenchmarkDenseKernels, BENCHMARKS.md).
const thinBlock = 4

// thinReduceRows is the number of rows per partial sum of the thin gramT.
const thinReduceRows = 512

const (
	mr = gemm.MR   // rows of a micro-kernel tile
	nr = gemm.NR64 // columns of a micro-kernel tile
)

// packRunsTo packs columns [c0, c0+cols) of rows [r0, r0+depth) of the
// row-major data (stride ld) as right-hand panels of the micro-kernel
// depth-indexed by row: panel q holds, for each row t, the nr entries of
// columns c0+q·nr … in dst[q·nr·depth + t·nr : …+nr] (zero past cols).
// Each row of a panel is a contiguous run of the source, so this is a copy.
func packRunsTo(dst, data []float64, ld, r0, depth, c0, cols, w int) {
	full := cols / w // panels of full runs
	rest := cols - full*w
	for t := 0; t < depth; t++ {
		row := data[(r0+t)*ld+c0 : (r0+t)*ld+c0+cols]
		if w == nr {
			// Runs of eight: explicit moves (copy would call memmove for
			// every 64 bytes).
			for q := 0; q < full; q++ {
				src := row[q*nr : q*nr+nr : q*nr+nr]
				run := dst[q*nr*depth+t*nr : q*nr*depth+t*nr+nr : q*nr*depth+t*nr+nr]
				run[0], run[1], run[2], run[3] = src[0], src[1], src[2], src[3]
				run[4], run[5], run[6], run[7] = src[4], src[5], src[6], src[7]
			}
		} else {
			for q := 0; q < full; q++ {
				copy(dst[q*w*depth+t*w:q*w*depth+t*w+w], row[q*w:q*w+w])
			}
		}
		if rest > 0 {
			run := dst[full*w*depth+t*w : full*w*depth+t*w+w]
			copy(run, row[full*w:])
			clear(run[rest:])
		}
	}
}

// packRowsTo packs rows [r0, r0+rows) (rows ≤ mr) of the row-major data
// (stride ld), columns [c0, c0+depth), transposed as one left-hand panel:
// dst[l·mr + r] = data[(r0+r)·ld + c0 + l], zero for r ≥ rows.
func packRowsTo(dst, data []float64, ld, r0, rows, c0, depth int) {
	dst = dst[:mr*depth]
	if rows < mr {
		clear(dst)
	}
	for r := 0; r < rows; r++ {
		src := data[(r0+r)*ld+c0 : (r0+r)*ld+c0+depth]
		for l, x := range src {
			dst[l*mr+r] = x
		}
	}
}

// gramT sets c (b×p, row t holds column t of W against the p columns of V) to
// Wᵀ·V[:, c0:c0+p], i.e. c[t*p+l] = Σ_i W[i,t]·V[i,c0+l]. W is n×b.
func gramT(c []float64, v *mat.Dense, c0, p int, w *mat.Dense) {
	vr, wr := v.RawMatrix(), w.RawMatrix()
	b, n := wr.Cols, vr.Rows
	clear(c[:b*p])
	if p == 0 || n == 0 || b == 0 {
		return
	}
	if b <= thinBlock {
		chunks := parallel.NumChunks(n, thinReduceRows)
		part := make([]float64, chunks*b*p)
		parallel.For(chunks, 1, func(lo, hi int) {
			for ch := lo; ch < hi; ch++ {
				cc := part[ch*b*p : (ch+1)*b*p]
				for i := ch * thinReduceRows; i < min(n, (ch+1)*thinReduceRows); i++ {
					vrow := vr.Data[i*vr.Stride+c0 : i*vr.Stride+c0+p]
					for t, x := range wr.Data[i*wr.Stride : i*wr.Stride+b] {
						if x != 0 {
							floats.AddScaled(cc[t*p:(t+1)*p], x, vrow)
						}
					}
				}
			}
		})
		for ch := 0; ch < chunks; ch++ {
			floats.Add(c[:b*p], part[ch*b*p:(ch+1)*b*p])
		}
		return
	}
	chunks := parallel.NumChunks(n, reduceRows)
	part := make([]float64, chunks*b*p)
	ap, bp := (b+mr-1)/mr, (p+nr-1)/nr
	parallel.For(chunks, 1, func(lo, hi int) {
		apan := make([]float64, ap*mr*reduceRows)
		bpan := make([]float64, bp*nr*reduceRows)
		var tile [mr * nr]float64
		for ch := lo; ch < hi; ch++ {
			r0 := ch * reduceRows
			depth := min(n, r0+reduceRows) - r0
			// A = Wᵀ (b rows), B = Vᵀ (p rows), depth = the chunk's rows:
			// both are runs of the row-major sources.
			packRunsTo(apan, wr.Data, wr.Stride, r0, depth, 0, b, mr)
			packRunsTo(bpan, vr.Data, vr.Stride, r0, depth, c0, p, nr)
			dst := part[ch*b*p : (ch+1)*b*p]
			for u := 0; u < ap; u++ {
				a := apan[u*mr*depth : (u+1)*mr*depth]
				for q := 0; q < bp; q++ {
					gemm.Kernel64(depth, a, bpan[q*nr*depth:(q+1)*nr*depth], tile[:])
					for s := 0; s < min(mr, b-u*mr); s++ {
						copy(dst[(u*mr+s)*p+q*nr:(u*mr+s)*p+min(p, q*nr+nr)], tile[s*nr:])
					}
				}
			}
		}
	})
	for ch := 0; ch < chunks; ch++ {
		floats.Add(c[:b*p], part[ch*b*p:(ch+1)*b*p])
	}
}

// mulRows computes, for groups of mr rows i of V, the products
// V[i, c0:c0+depth]·B where B (depth × cols) is given as right-hand panels
// (packRunsTo of B, or of the rows of Cᵀ), and hands each mr×nr tile to
// store(i0, rows, q, tile) (rows ≤ mr valid rows from row i0, columns
// q·nr…). The rows of V are read before store is called for them, so store
// may overwrite them.
func mulRows(v *mat.Dense, c0, depth int, bpan []float64, cols int, store func(i0, rows, q int, tile []float64)) {
	vr := v.RawMatrix()
	n := vr.Rows
	bp := (cols + nr - 1) / nr
	groups := (n + mr - 1) / mr
	parallel.For(groups, rowGrain/mr, func(lo, hi int) {
		apan := make([]float64, mr*depth)
		var tile [mr * nr]float64
		for g := lo; g < hi; g++ {
			i0 := g * mr
			rows := min(mr, n-i0)
			packRowsTo(apan, vr.Data, vr.Stride, i0, rows, c0, depth)
			for q := 0; q < bp; q++ {
				gemm.Kernel64(depth, apan, bpan[q*nr*depth:(q+1)*nr*depth], tile[:])
				store(i0, rows, q, tile[:])
			}
		}
	})
}

// subMul sets W −= V[:, c0:c0+p]·cᵀ where c is b×p as returned by gramT.
func subMul(w *mat.Dense, v *mat.Dense, c0, p int, c []float64) {
	wr := w.RawMatrix()
	b := wr.Cols
	if p == 0 || wr.Rows == 0 || b == 0 {
		return
	}
	if b <= thinBlock {
		parallel.For(wr.Rows, rowGrain, func(lo, hi int) {
			vr := v.RawMatrix()
			for i := lo; i < hi; i++ {
				vrow := vr.Data[i*vr.Stride+c0 : i*vr.Stride+c0+p]
				wrow := wr.Data[i*wr.Stride : i*wr.Stride+b]
				for t := range wrow {
					wrow[t] -= floats.Dot(vrow, c[t*p:(t+1)*p])
				}
			}
		})
		return
	}
	// B = cᵀ (p × b): panel q holds, for each l, c[(q·nr+j)·p + l].
	bp := (b + nr - 1) / nr
	bpan := make([]float64, bp*nr*p)
	for t := 0; t < b; t++ {
		q, j := t/nr, t%nr
		for l, x := range c[t*p : (t+1)*p] {
			bpan[q*nr*p+l*nr+j] = x
		}
	}
	mulRows(v, c0, p, bpan, b, func(i0, rows, q int, tile []float64) {
		width := min(nr, b-q*nr)
		for r := 0; r < rows; r++ {
			wrow := wr.Data[(i0+r)*wr.Stride+q*nr : (i0+r)*wr.Stride+q*nr+width]
			for j := range wrow {
				wrow[j] -= tile[r*nr+j]
			}
		}
	})
}

// rotate sets V[:, dst:dst+q] = V[:, src:src+j]·s where s is j×q (row-major,
// stride q). The ranges may overlap: each group of rows is packed before it
// is overwritten.
func rotate(v *mat.Dense, src, j int, s []float64, q, dst int) {
	raw := v.RawMatrix()
	if q == 0 || raw.Rows == 0 {
		return
	}
	if j == 0 {
		for i := 0; i < raw.Rows; i++ {
			clear(raw.Data[i*raw.Stride+dst : i*raw.Stride+dst+q])
		}
		return
	}
	if q <= thinBlock {
		// Few output columns (random combinations of a restart): packing
		// the rows would cost more than the products.
		parallel.For(raw.Rows, rowGrain, func(lo, hi int) {
			tmp := make([]float64, q)
			for i := lo; i < hi; i++ {
				row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
				clear(tmp)
				for l, x := range row[src : src+j] {
					if x != 0 {
						floats.AddScaled(tmp, x, s[l*q:(l+1)*q])
					}
				}
				copy(row[dst:dst+q], tmp)
			}
		})
		return
	}
	bpan := make([]float64, (q+nr-1)/nr*nr*j)
	packRunsTo(bpan, s, q, 0, j, 0, q, nr)
	mulRows(v, src, j, bpan, q, func(i0, rows, p int, tile []float64) {
		width := min(nr, q-p*nr)
		for r := 0; r < rows; r++ {
			off := (i0+r)*raw.Stride + dst + p*nr
			copy(raw.Data[off:off+width], tile[r*nr:r*nr+width])
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
