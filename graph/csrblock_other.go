//go:build !amd64

package graph

// mulBlock32AVX2 reports false: without the assembly kernels the Go ones run.
func (g *CSR) mulBlock32AVX2(dst []float64, x []float32, xs, c, lo, hi int) bool { return false }

// blockRowsAVX2 reports false: without the assembly kernels the Go ones run.
func (g *CSR) blockRowsAVX2(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) bool {
	return false
}

// blockRowsWide reports false: without the assembly kernels the Go ones run.
func (g *CSR) blockRowsWide(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) bool {
	return false
}
