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

//go:noescape
func finish32W5AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)

//go:noescape
func finish32W6AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)

//go:noescape
func finish32W7AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)

//go:noescape
func finish32W8AVX2(acc, accD, q, p, s, diag, left, u, d *float64, n int)

// finish32SIMD is finish32W by the AVX2 kernels of rows_amd64.s, bitwise
// the same, and reports whether it ran (false: no AVX2, w outside 5..8 or
// an empty range).
func finish32SIMD(acc, accD, q, p, s, diag, left, u, d []float64, w, lo, hi int) bool {
	if !hasRowsAVX2 || w < 5 || w > 8 || hi <= lo {
		return false
	}
	n := hi - lo
	_, _, _ = q[n*w-1], p[n*w-1], s[(n-1)*8+w-1]
	_, _ = diag[hi-1], left[hi-1]
	var pa, pd, pu, pz *float64
	if acc != nil {
		_, _ = acc[w-1], u[hi-1]
		pa, pu = &acc[0], &u[lo]
		if d != nil {
			_, _ = accD[w-1], d[hi-1]
			pd, pz = &accD[0], &d[lo]
		}
	}
	qp, pp, sp, dp, lp := &q[0], &p[0], &s[0], &diag[lo], &left[lo]
	switch w {
	case 5:
		finish32W5AVX2(pa, pd, qp, pp, sp, dp, lp, pu, pz, n)
	case 6:
		finish32W6AVX2(pa, pd, qp, pp, sp, dp, lp, pu, pz, n)
	case 7:
		finish32W7AVX2(pa, pd, qp, pp, sp, dp, lp, pu, pz, n)
	default:
		finish32W8AVX2(pa, pd, qp, pp, sp, dp, lp, pu, pz, n)
	}
	return true
}

//go:noescape
func updateRowsW5AVX2(acc, accD, alpha, r, q, t, d *float64, n int)

//go:noescape
func updateRowsW6AVX2(acc, accD, alpha, r, q, t, d *float64, n int)

//go:noescape
func updateRowsW7AVX2(acc, accD, alpha, r, q, t, d *float64, n int)

//go:noescape
func updateRowsW8AVX2(acc, accD, alpha, r, q, t, d *float64, n int)

// updateRowsSIMD is updateRowsW by the AVX2 kernels of rows_amd64.s,
// bitwise the same (the sums d_i·t_i·v_ij of the deflated kernel join the
// first loop: each column's sum still adds its terms in the rows' order),
// and reports whether it ran (false: no AVX2, w outside 5..8 or an empty
// range).
func updateRowsSIMD(acc, accD, alpha, r, q, t, d []float64, w, lo, hi int) bool {
	if !hasRowsAVX2 || w < 5 || w > 8 || hi <= lo {
		return false
	}
	n := hi - lo
	_, _, _, _ = acc[w-1], alpha[w-1], r[n*w-1], q[n*w-1]
	var pz, pd, pt *float64
	if d != nil {
		_, _, _ = accD[w-1], t[hi-1], d[hi-1]
		pz, pd, pt = &accD[0], &d[lo], &t[lo]
	}
	pa, pal, pr, pq := &acc[0], &alpha[0], &r[0], &q[0]
	switch w {
	case 5:
		updateRowsW5AVX2(pa, pz, pal, pr, pq, pt, pd, n)
	case 6:
		updateRowsW6AVX2(pa, pz, pal, pr, pq, pt, pd, n)
	case 7:
		updateRowsW7AVX2(pa, pz, pal, pr, pq, pt, pd, n)
	default:
		updateRowsW8AVX2(pa, pz, pal, pr, pq, pt, pd, n)
	}
	return true
}
