package krylov

// Row passes of block CG over row-major n×c blocks, four columns at a time
// with the running sums in local variables (registers) instead of a slice
// in memory, whose load–add–store chain per column limited the passes to
// well under one multiply–add per cycle. Every column is still summed over
// the rows in order, so the results are bitwise those of the plain loops.

// addColDots adds to acc[j] the dot product of column j of u and v (row
// strides us and vs, c = len(acc) columns) over rows [lo, hi).
func addColDots(acc, u []float64, us int, v []float64, vs, lo, hi int) {
	c := len(acc)
	for j0 := 0; j0 < c; j0 += 4 {
		switch min(4, c-j0) {
		case 4:
			a0, a1, a2, a3 := acc[j0], acc[j0+1], acc[j0+2], acc[j0+3]
			for i := lo; i < hi; i++ {
				ur := u[i*us+j0 : i*us+j0+4 : i*us+j0+4]
				vr := v[i*vs+j0 : i*vs+j0+4 : i*vs+j0+4]
				a0 += ur[0] * vr[0]
				a1 += ur[1] * vr[1]
				a2 += ur[2] * vr[2]
				a3 += ur[3] * vr[3]
			}
			acc[j0], acc[j0+1], acc[j0+2], acc[j0+3] = a0, a1, a2, a3
		case 3:
			a0, a1, a2 := acc[j0], acc[j0+1], acc[j0+2]
			for i := lo; i < hi; i++ {
				ur := u[i*us+j0 : i*us+j0+3 : i*us+j0+3]
				vr := v[i*vs+j0 : i*vs+j0+3 : i*vs+j0+3]
				a0 += ur[0] * vr[0]
				a1 += ur[1] * vr[1]
				a2 += ur[2] * vr[2]
			}
			acc[j0], acc[j0+1], acc[j0+2] = a0, a1, a2
		case 2:
			a0, a1 := acc[j0], acc[j0+1]
			for i := lo; i < hi; i++ {
				ur := u[i*us+j0 : i*us+j0+2 : i*us+j0+2]
				vr := v[i*vs+j0 : i*vs+j0+2 : i*vs+j0+2]
				a0 += ur[0] * vr[0]
				a1 += ur[1] * vr[1]
			}
			acc[j0], acc[j0+1] = a0, a1
		default:
			a0 := acc[j0]
			for i := lo; i < hi; i++ {
				a0 += u[i*us+j0] * v[i*vs+j0]
			}
			acc[j0] = a0
		}
	}
}

// updateRows applies r_j −= α_j q_j (q = A p) over rows [lo, hi) and adds
// the squares of the new r_j to rr[j]; c = len(alpha).
func updateRows(rr, alpha, r []float64, rs int, q []float64, qs, lo, hi int) {
	c := len(alpha)
	j0 := 0
	for ; j0+4 <= c; j0 += 4 {
		al := alpha[j0 : j0+4 : j0+4]
		s0, s1, s2, s3 := rr[j0], rr[j0+1], rr[j0+2], rr[j0+3]
		for i := lo; i < hi; i++ {
			rrow := r[i*rs+j0 : i*rs+j0+4 : i*rs+j0+4]
			qr := q[i*qs+j0 : i*qs+j0+4 : i*qs+j0+4]
			v0 := rrow[0] - al[0]*qr[0]
			v1 := rrow[1] - al[1]*qr[1]
			v2 := rrow[2] - al[2]*qr[2]
			v3 := rrow[3] - al[3]*qr[3]
			rrow[0], rrow[1], rrow[2], rrow[3] = v0, v1, v2, v3
			s0 += v0 * v0
			s1 += v1 * v1
			s2 += v2 * v2
			s3 += v3 * v3
		}
		rr[j0], rr[j0+1], rr[j0+2], rr[j0+3] = s0, s1, s2, s3
	}
	for ; j0 < c; j0++ {
		a, s := alpha[j0], rr[j0]
		for i := lo; i < hi; i++ {
			v := r[i*rs+j0] - a*q[i*qs+j0]
			r[i*rs+j0] = v
			s += v * v
		}
		rr[j0] = s
	}
}
