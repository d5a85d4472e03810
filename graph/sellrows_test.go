package graph

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rowRangeCases returns aligned and unaligned row ranges of an n-node graph.
func rowRangeCases(n int) [][2]int {
	w := RowWindow
	cases := [][2]int{{0, n}, {0, 0}, {n, n}, {0, min(w, n)}, {min(3, n), min(w+500, n)}, {n / 2, n}}
	for lo := 0; lo < n; lo += w {
		cases = append(cases, [2]int{lo, min(lo+w, n)}, [2]int{lo, min(lo+2*w, n)})
		if lo+w+1 < n {
			cases = append(cases, [2]int{lo, lo + w + 1}, [2]int{lo + 1, lo + w})
		}
	}
	return cases
}

// TestBlockRowsSlicedBitwise checks ScaledMulBlockRowsTo and
// ScaledMulBlockRowsInto on aligned ranges (SELL copy), unaligned ranges (CSR
// kernels), n a multiple of RowWindow or not, 1 to 9 columns (9: the generic
// loop) and every Scaling, bit for bit against the CSR kernel over all rows,
// and against dense gonum products; rows outside the range stay untouched.
func TestBlockRowsSlicedBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 31))
	for _, n := range []int{7, 1500, 2 * RowWindow, 2*RowWindow + 333} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			dense := g.Dense()
			for _, c := range []int{1, 3, 7, 8, 9} {
				xs := make([]float64, n*(c+2))
				for i := range xs {
					xs[i] = rng.NormFloat64()
				}
				x := mat.NewDense(n, c+2, xs).Slice(0, n, 0, c).(*mat.Dense) // strided
				xm := x.RawMatrix()
				for si, s := range sellScalings(rng, n) {
					want := mat.NewDense(n, c, nil)
					wm := want.RawMatrix()
					g.scaledBlockRows(wm.Data, wm.Stride, xm.Data, xm.Stride, c, s, 0, n)
					refs := make([][]float64, c)
					for j := range refs {
						refs[j] = denseScaled(dense, mat.Col(nil, j, x), s)
					}
					for _, rg := range rowRangeCases(n) {
						lo, hi := rg[0], rg[1]
						aligned := lo%RowWindow == 0 && (hi%RowWindow == 0 || hi == n) && lo <= hi
						if want := hasSellAVX2 && aligned && c <= 8 && g.NNZ() >= minSlicedWork; g.SlicedRows(lo, hi, c) != want {
							t.Fatalf("n %d c %d [%d, %d): SlicedRows = %v, want %v", n, c, lo, hi, !want, want)
						}
						to := mat.NewDense(n, c, nil)
						for i := range to.RawMatrix().Data {
							to.RawMatrix().Data[i] = math.NaN()
						}
						g.ScaledMulBlockRowsTo(to, x, s, lo, hi)
						var into *mat.Dense
						if hi > lo {
							into = mat.NewDense(hi-lo, c, nil)
							for i := range into.RawMatrix().Data {
								into.RawMatrix().Data[i] = math.NaN() // every entry must be written
							}
						}
						g.ScaledMulBlockRowsInto(into, x, s, lo, hi)
						if si == 0 && c <= 8 { // Scaling{}: MulBlockRowsFunc too
							checkRowsFunc(t, g, x, want, lo, hi)
						}
						for i := 0; i < n; i++ {
							for j := 0; j < c; j++ {
								got := to.At(i, j)
								if i < lo || i >= hi {
									if !math.IsNaN(got) {
										t.Fatalf("n %d c %d [%d, %d): row %d outside the range written", n, c, lo, hi, i)
									}
									continue
								}
								w := want.At(i, j)
								if math.Float64bits(got) != math.Float64bits(w) {
									t.Fatalf("n %d unit %v c %d scaling %d [%d, %d) sliced %v: To (%d, %d) = %v, CSR kernel %v",
										n, unit, c, si, lo, hi, g.SlicedRows(lo, hi, c), i, j, got, w)
								}
								if gi := into.At(i-lo, j); math.Float64bits(gi) != math.Float64bits(w) {
									t.Fatalf("n %d unit %v c %d scaling %d [%d, %d): Into (%d, %d) = %v, CSR kernel %v", n, unit, c, si, lo, hi, i, j, gi, w)
								}
								if math.Abs(got-refs[j][i]) > tol*(1+math.Abs(refs[j][i])) {
									t.Fatalf("n %d c %d scaling %d: (%d, %d) = %v, dense %v", n, c, si, i, j, got, refs[j][i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// checkRowsFunc checks that MulBlockRowsFunc visits every row of [lo, hi)
// once (in increasing order when the CSR kernels serve the range) with the
// bits of want, the unscaled product.
func checkRowsFunc(t *testing.T, g *CSR, x, want *mat.Dense, lo, hi int) {
	t.Helper()
	_, c := x.Dims()
	seen := make(map[int]bool)
	prev := lo - 1
	g.MulBlockRowsFunc(x, lo, hi, func(rows []int32, sums []float64) {
		if len(rows) > RowBatch || len(sums) < 8*len(rows) {
			t.Fatalf("[%d, %d): batch of %d rows, %d sums", lo, hi, len(rows), len(sums))
		}
		for k, r := range rows {
			if r < 0 {
				continue
			}
			i := int(r)
			if i < lo || i >= hi || seen[i] {
				t.Fatalf("[%d, %d): row %d outside the range or visited twice", lo, hi, i)
			}
			if !g.SlicedRows(lo, hi, c) && i != prev+1 {
				t.Fatalf("[%d, %d) from the CSR kernels: row %d after %d", lo, hi, i, prev)
			}
			seen[i], prev = true, i
			for j := 0; j < c; j++ {
				if math.Float64bits(sums[8*k+j]) != math.Float64bits(want.At(i, j)) {
					t.Fatalf("[%d, %d) sliced %v: MulBlockRowsFunc (%d, %d) = %v, CSR kernel %v", lo, hi, g.SlicedRows(lo, hi, c), i, j, sums[8*k+j], want.At(i, j))
				}
			}
		}
	})
	if len(seen) != hi-lo {
		t.Fatalf("[%d, %d): %d rows visited", lo, hi, len(seen))
	}
}

// TestBlockRowsIntoConcurrent runs aligned row-range products of one graph
// (whose SELL copy is not built yet) from several goroutines at once, each
// into its own scratch, and checks them bit for bit against ScaledMulBlockTo.
func TestBlockRowsIntoConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 41))
	n, c := 4*RowWindow+17, 3
	g := sellTestGraph(t, rng, n, true)
	x := mat.NewDense(n, c, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	s := sellScalings(rng, n)[7]
	want := mat.NewDense(n, c, nil)
	wm, xm := want.RawMatrix(), x.RawMatrix()
	g.scaledBlockRows(wm.Data, wm.Stride, xm.Data, xm.Stride, c, s, 0, n)
	var wg sync.WaitGroup
	errs := make([]string, 0)
	var mu sync.Mutex
	for lo := 0; lo < n; lo += RowWindow {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			dst := mat.NewDense(hi-lo, c, nil)
			g.ScaledMulBlockRowsInto(dst, x, s, lo, hi)
			for i := lo; i < hi; i++ {
				for j := 0; j < c; j++ {
					if math.Float64bits(dst.At(i-lo, j)) != math.Float64bits(want.At(i, j)) {
						mu.Lock()
						errs = append(errs, "mismatch")
						mu.Unlock()
						return
					}
				}
			}
		}(lo, min(lo+RowWindow, n))
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d goroutines got results other than the CSR kernel's", len(errs))
	}
}

// TestBlockRowsIntoBadShape checks that bad arguments panic.
func TestBlockRowsIntoBadShape(t *testing.T) {
	g := mustGraph(t, 3, []Edge{{U: 0, V: 1, W: 1}})
	for name, f := range map[string]func(){
		"dst rows":        func() { g.ScaledMulBlockRowsInto(mat.NewDense(3, 2, nil), mat.NewDense(3, 2, nil), Scaling{}, 1, 3) },
		"row range":       func() { g.ScaledMulBlockRowsInto(mat.NewDense(2, 2, nil), mat.NewDense(3, 2, nil), Scaling{}, 2, 4) },
		"func, 9 columns": func() { g.MulBlockRowsFunc(mat.NewDense(3, 9, nil), 0, 3, func([]int32, []float64) {}) },
		"func, x rows":    func() { g.MulBlockRowsFunc(mat.NewDense(2, 2, nil), 0, 2, func([]int32, []float64) {}) },
		"func, range":     func() { g.MulBlockRowsFunc(mat.NewDense(3, 2, nil), 2, 4, func([]int32, []float64) {}) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
