package graph

// blockRows10Touch is blockRows10's unit-weight, Right-nil loop with a load
// of the block row `ahead` entries further on (the first entry of its row),
// added into a sink: a load the processor can issue long before the row is
// needed, so that its cache miss overlaps the work in between (a software
// prefetch in plain Go).
func blockRows10Touch(g *CSR, dst []float64, ds, first int, x []float64, xs int, s Scaling, lo, hi, ahead int) float64 {
	indptr, indices := g.indptr, g.indices
	left, diag := s.Left, s.Diag
	var sink float64
	a := indptr[lo]
	end := indptr[hi]
	for i := lo; i < hi; i++ {
		b := indptr[i+1]
		var a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 float64
		for k := a; k < b; k++ {
			if k+ahead < end {
				sink += x[int(indices[k+ahead])*xs]
			}
			o := int(indices[k]) * xs
			xr := x[o : o+10 : o+10]
			a0 += xr[0]
			a1 += xr[1]
			a2 += xr[2]
			a3 += xr[3]
			a4 += xr[4]
			a5 += xr[5]
			a6 += xr[6]
			a7 += xr[7]
			a8 += xr[8]
			a9 += xr[9]
		}
		a = b
		l := left[i]
		d := dst[(i-first)*ds : (i-first)*ds+10 : (i-first)*ds+10]
		di := diag[i]
		xi := x[i*xs : i*xs+10 : i*xs+10]
		d[0] = float64(di*xi[0]) + float64(l*a0)
		d[1] = float64(di*xi[1]) + float64(l*a1)
		d[2] = float64(di*xi[2]) + float64(l*a2)
		d[3] = float64(di*xi[3]) + float64(l*a3)
		d[4] = float64(di*xi[4]) + float64(l*a4)
		d[5] = float64(di*xi[5]) + float64(l*a5)
		d[6] = float64(di*xi[6]) + float64(l*a6)
		d[7] = float64(di*xi[7]) + float64(l*a7)
		d[8] = float64(di*xi[8]) + float64(l*a8)
		d[9] = float64(di*xi[9]) + float64(l*a9)
	}
	return sink
}
