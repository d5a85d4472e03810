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

// sqdistGo is the portable squared distance (SquaredDistance's summation
// order, in float32).
func sqdistGo(a, b []float32) float32 { return squaredDistance(a, b) }
