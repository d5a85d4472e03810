package knngraph

// Panel sizes of the float32 dot-product kernel: a tile is panelRows query
// rows against panelCols data points.
const (
	panelRows = 6
	panelCols = 16
)

// sgemm6x16Go is the portable kernel: c[i*16+j] = Σ_t a[t*6+i]·b[t*16+j].
func sgemm6x16Go(k int, a, b, c []float32) {
	var acc [panelRows * panelCols]float32
	for t := 0; t < k; t++ {
		at := a[t*panelRows : t*panelRows+panelRows]
		bt := b[t*panelCols : t*panelCols+panelCols]
		for i, ai := range at {
			row := acc[i*panelCols : i*panelCols+panelCols]
			for j, bj := range bt {
				row[j] += ai * bj
			}
		}
	}
	copy(c[:panelRows*panelCols], acc[:])
}

// sqdistGo returns Σ_t (a[t] − b[t])².
func sqdistGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	t := 0
	for ; t+4 <= len(a); t += 4 {
		d0, d1, d2, d3 := a[t]-b[t], a[t+1]-b[t+1], a[t+2]-b[t+2], a[t+3]-b[t+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; t < len(a); t++ {
		d := a[t] - b[t]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}
