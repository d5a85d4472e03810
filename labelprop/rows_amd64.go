package labelprop

import "golang.org/x/sys/cpu"

//go:noescape
func stepRows32W5AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)

//go:noescape
func stepRows32W6AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)

//go:noescape
func stepRows32W7AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)

//go:noescape
func stepRows32W8AVX2(x *float64, xbytes int, p, r, t, u, alpha, beta, on *float64, p32 *float32, n int)

// hasRowsAVX2 reports whether the AVX2 row passes of rows_amd64.s run; the
// tests turn it off to compare the Go kernels.
var hasRowsAVX2 = cpu.X86.HasAVX2

// stepRows32SIMD is stepRows32W by the AVX2 kernels of rows_amd64.s, lanes =
// columns, each entry with the same IEEE operations in the same order as
// in the generated Go, so the results are bitwise the same. It reports
// whether it ran (false: no AVX2, w outside 5..8 or an empty range).
func stepRows32SIMD(x []float64, c int, p, r, t, u, alpha, beta, on []float64, p32 []float32, w, lo, hi int) bool {
	if !hasRowsAVX2 || w < 5 || w > 8 || hi <= lo {
		return false
	}
	n := hi - lo
	_, _, _ = p[n*w-1], r[n*w-1], x[(n-1)*c+w-1]
	_, _, _ = t[hi-1], u[hi-1], p32[(n-1)*8+w-1]
	_, _, _ = alpha[w-1], beta[w-1], on[w-1]
	xp, xs, pp, rp, tp, up := &x[0], 8*c, &p[0], &r[0], &t[lo], &u[lo]
	ap, bp, op, fp := &alpha[0], &beta[0], &on[0], &p32[0]
	switch w {
	case 5:
		stepRows32W5AVX2(xp, xs, pp, rp, tp, up, ap, bp, op, fp, n)
	case 6:
		stepRows32W6AVX2(xp, xs, pp, rp, tp, up, ap, bp, op, fp, n)
	case 7:
		stepRows32W7AVX2(xp, xs, pp, rp, tp, up, ap, bp, op, fp, n)
	default:
		stepRows32W8AVX2(xp, xs, pp, rp, tp, up, ap, bp, op, fp, n)
	}
	return true
}
