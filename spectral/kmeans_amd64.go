package spectral

import "github.com/gssl/gssl/internal/gemm"

// hasAVX2 says whether the AVX2 kernels of k-means and the filter passes
// run.
var hasAVX2 = gemm.HasAVX2

// scanBlockAVX2 returns the first nearest of the scanBlock centres packed
// at p (packCentres) to xi (d coordinates), as a lane of the block, its
// squared distance and the second smallest squared distance, padding
// (NaN) counting as +Inf.
//
//go:noescape
func scanBlockAVX2(d int, xi, p *float64) (c int, best, second float64)

// sqDistsAVX2 sets out[i] to the squared distance of row i of the
// transposed rows xt (coordinate j of row i at xt[j·ld + i]) to c (d
// coordinates), for i < n (n a positive multiple of 8).
//
//go:noescape
func sqDistsAVX2(n, d int, xt *float64, ld int, c, out *float64)

// sumRowsAVX2 adds the first 8 entries of row i of x (row i at x +
// i·stride) to row labels[i] of acc (8 entries a row) and adds 1 to
// counts[labels[i]], for i < n, in the order of the rows.
//
//go:noescape
func sumRowsAVX2(n int, x *float64, stride int, labels *int, acc *float64, counts *int)
