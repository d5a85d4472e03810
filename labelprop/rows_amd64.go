package labelprop

import "golang.org/x/sys/cpu"

//go:noescape
func stepRows32AVX512(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, w, n int)

// hasRows512 reports whether the AVX-512 row passes of rows_amd64.s run
// (AVX-512F and VL); the tests turn it off to compare the Go kernels.
var hasRows512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// stepRows32SIMD is stepRows32W by the AVX-512 kernel of rows_amd64.s,
// one row of w ≤ 8 columns per masked 8-lane vector (lanes = columns): each
// entry takes the same IEEE operations in the same order as in the
// generated Go, so the results are bitwise the same. It reports whether it
// ran (false: no AVX-512, w > 8 or an empty range).
func stepRows32SIMD(x []float64, c int, p, r, t, u, alpha, beta, on []float64, p32 []float32, w, lo, hi int) bool {
	if !hasRows512 || w < 5 || w > 8 || hi <= lo {
		return false
	}
	n := hi - lo
	_, _, _ = p[n*w-1], r[n*w-1], x[(n-1)*c+w-1]
	_, _, _ = t[hi-1], u[hi-1], p32[(n-1)*8+w-1]
	_, _, _ = alpha[w-1], beta[w-1], on[w-1]
	stepRows32AVX512(&x[0], 8*c, &p[0], &r[0], &t[lo], &u[lo], &alpha[0], &beta[0], &on[0], &p32[0], w, n)
	return true
}
