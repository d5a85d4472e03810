package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unit returns the unit roundoff of T.
func unit[T Float]() float64 {
	if NR[T]() == NR32 {
		return 0x1p-24
	}
	return 0x1p-53
}

// gamma is Higham's γ_{k+2} = (k+2)·u/(1 − (k+2)·u): the bound on the error
// of a length-k dot product, relative to Σ|a_t b_t|, summed in any order
// (fused or not), plus the rounding of both inputs to T (Higham, Accuracy
// and Stability of Numerical Algorithms, 2nd ed., §3.1).
func gamma[T Float](k int) float64 {
	u := unit[T]()
	return float64(k+2) * u / (1 - float64(k+2)*u)
}

func TestKernelsAgainstFloat64Sums(t *testing.T) {
	testKernel(t, Kernel32, Kernel32Go)
	testKernel(t, Kernel64, Kernel64Go)
}

func testKernel[T Float](t *testing.T, kern, portable func(int, []T, []T, []T)) {
	rng := rand.New(rand.NewPCG(1, 2))
	nr := NR[T]()
	for _, k := range []int{0, 1, 2, 3, 17, 100, 784} {
		a := make([]T, MR*k)
		b := make([]T, nr*k)
		for i := range a {
			a[i] = T(rng.NormFloat64())
		}
		for i := range b {
			b[i] = T(rng.NormFloat64())
		}
		for name, f := range map[string]func(int, []T, []T, []T){"kernel": kern, "portable": portable} {
			got := make([]T, MR*nr)
			for i := range got {
				got[i] = 99 // must be overwritten
			}
			f(k, a, b, got)
			for i := 0; i < MR; i++ {
				for j := 0; j < nr; j++ {
					// the sum in extended precision: float64 products of the
					// inputs (exact for float32), accumulated with
					// compensation
					var s, comp, abs float64
					for q := 0; q < k; q++ {
						p := float64(a[q*MR+i]) * float64(b[q*nr+j])
						y := p - comp
						tt := s + y
						comp = (tt - s) - y
						s = tt
						abs += math.Abs(p)
					}
					if d := math.Abs(float64(got[i*nr+j]) - s); d > gamma[T](k)*abs {
						t.Fatalf("%T %s k=%d tile (%d,%d): %v, reference %v, error %g > bound %g",
							got[0], name, k, i, j, got[i*nr+j], s, d, gamma[T](k)*abs)
					}
				}
			}
		}
	}
}

func TestSqDist16(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{16, 32, 48, 784, 800} {
		a := make([]float32, n)
		b := make([]float32, n)
		var s float64
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			d := float64(a[i]) - float64(b[i])
			s += d * d
		}
		// each term: one rounding of the difference (squared: 2u) and of
		// the square, then the sum
		bound := gamma[float32](n+2) * s
		for _, got := range []float32{SqDist16(a, b), SqDistGo(a, b)} {
			require.LessOrEqual(t, math.Abs(float64(got)-s), bound, "n=%d", n)
		}
	}
	assert.Panics(t, func() { SqDist16(make([]float32, 15), make([]float32, 15)) })
}

func TestProductsAgainstFloat64(t *testing.T) {
	testProducts[float32](t)
	testProducts[float64](t)
}

func testProducts[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	nr := NR[T]()
	// sizes leaving partial panels on both sides, more than one group of A
	// panels, and empty depth
	for _, sz := range []struct{ m, n, k int }{{1, 1, 1}, {7, 17, 5}, {53, 35, 784}, {100, 16, 33}, {6, 100, 0}, {61, 61, 9}} {
		name := fmt.Sprintf("%T %v", T(0), sz)
		a := make([][]float64, sz.m)
		b := make([][]float64, sz.n)
		shift := make([]float64, sz.k)
		for t := range shift {
			shift[t] = rng.Float64()
		}
		scale := 0.75
		pa := NewPanels[T](sz.m, sz.k, MR, nil)
		pb := NewPanels(sz.n, sz.k, nr, make([]T, 3)) // too small: reallocated
		for i := range a {
			a[i] = randRow(rng, sz.k)
			pa.SetRow(i, a[i], shift, scale)
		}
		for j := range b {
			b[j] = randRow(rng, sz.k)
			norm := pb.SetRow(j, b[j], nil, 1)
			var want float64
			for _, v := range b[j] {
				want += float64(T(v)) * float64(T(v))
			}
			require.InDelta(t, want, norm, 1e-12*math.Max(1, want), name)
		}
		ldc := sz.n + 3
		c := make([]float64, sz.m*ldc)
		MulTTo(c, ldc, pa, pb)
		cp := make([]float64, sz.m*ldc)
		ParallelMulTTo(cp, ldc, pa, pb)
		assert.Equal(t, c, cp, "%s: parallel and serial products differ", name)
		// the upper triangle added to a constant
		up := make([]float64, sz.m*ldc)
		for i := range up {
			up[i] = 1
		}
		ParallelAddUpperTo(up, ldc, -0.5, pa, pb)
		for i := range a {
			for j := range b {
				var s, abs float64
				for t := 0; t < sz.k; t++ {
					p := (a[i][t] - shift[t]) * scale * b[j][t]
					s += p
					abs += math.Abs(p)
				}
				require.LessOrEqual(t, math.Abs(c[i*ldc+j]-s), gamma[T](sz.k)*abs, "%s entry (%d,%d)", name, i, j)
				if j >= i {
					require.Equal(t, 1-0.5*c[i*ldc+j], up[i*ldc+j], "%s upper (%d,%d)", name, i, j)
				} else {
					require.Equal(t, 1.0, up[i*ldc+j], "%s below the diagonal (%d,%d)", name, i, j)
				}
			}
			for j := sz.n; j < ldc; j++ {
				require.Zero(t, c[i*ldc+j], "%s: beyond the columns of C", name)
				require.Equal(t, 1.0, up[i*ldc+j], "%s: beyond the columns of C", name)
			}
		}
	}
}

func TestSetColumnsIsTheTranspose(t *testing.T) {
	testColumns[float64](t)
	testColumns[float32](t)
}

// testColumns checks SetColumns and PackColumns (into a buffer full of
// garbage, which must not survive in the padding) against SetRow of each
// column, for full and partial last panels.
func testColumns[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dims := range [][2]int{{23, 11}, {24, 5}, {32, 3}, {1, 4}, {17, 0}} {
		rows, k := dims[0], dims[1]
		ld := rows + 2
		src := make([]float64, k*ld)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		for _, w := range []int{MR, NR[T]()} {
			want := NewPanels[T](rows, k, w, nil)
			col := make([]float64, k)
			for i := 0; i < rows; i++ {
				for t := 0; t < k; t++ {
					col[t] = src[t*ld+i]
				}
				want.SetRow(i, col, nil, 1)
			}
			got := NewPanels[T](rows, k, w, nil)
			got.SetColumns(src, ld)
			assert.Equal(t, want.Data, got.Data, "SetColumns %v width %d", dims, w)
			packed := PackColumns(src, ld, rows, k, w, garbage[T](rng, len(want.Data)+3))
			assert.Equal(t, len(want.Data), len(packed.Data), "PackColumns %v width %d", dims, w)
			for i := range want.Data {
				require.Equal(t, want.Data[i], packed.Data[i], "PackColumns %v width %d entry %d", dims, w, i)
			}
			assert.Equal(t, [3]int{rows, k, w}, [3]int{packed.Rows, packed.K, packed.W})
			// in two row ranges, the second one first, over garbage
			parts := UnclearedPanels(rows, k, w, garbage[T](rng, len(want.Data)+3))
			h := k / 3
			parts.SetColumnRows(src[h*ld:], ld, h, k)
			parts.SetColumnRows(src, ld, 0, h)
			for i := range want.Data {
				require.Equal(t, want.Data[i], parts.Data[i], "SetColumnRows %v width %d entry %d", dims, w, i)
			}
		}
	}
	assert.Panics(t, func() { PackColumns[T](make([]float64, 3), 3, 3, 2, 5, nil) })
	p := NewPanels[T](3, 4, MR, nil)
	assert.Panics(t, func() { p.SetColumnRows(make([]float64, 6), 3, 2, 5) })
	assert.Panics(t, func() { p.SetColumnRows(make([]float64, 5), 3, 1, 3) })
}

func TestPanelsMisuse(t *testing.T) {
	assert.Panics(t, func() { NewPanels[float32](3, 2, 5, nil) })
	assert.Panics(t, func() { NewPanels[float64](3, 2, NR32, nil) })
	p := NewPanels[float32](3, 2, MR, nil)
	assert.Panics(t, func() { p.SetRow(3, []float64{1, 2}, nil, 1) })
	assert.Panics(t, func() { p.SetRow(0, []float64{1}, nil, 1) })
	assert.Panics(t, func() { p.SetColumns(make([]float64, 3), 3) })
	b := NewPanels[float32](3, 3, NR32, nil)
	assert.Panics(t, func() { MulTTo(make([]float64, 9), 3, p, b) }) // K differs
	b = NewPanels[float32](3, 2, NR32, nil)
	assert.Panics(t, func() { MulTTo(make([]float64, 8), 3, p, b) }) // C too short
	assert.Panics(t, func() { MulTTo(make([]float64, 9), 3, b, p) }) // widths swapped
}

func randRow(rng *rand.Rand, k int) []float64 {
	r := make([]float64, k)
	for t := range r {
		r[t] = rng.NormFloat64()
	}
	return r
}

// TestAddUpperSumIsTheBlockedGram splits a deep S (rows × m) into blocks of
// rows and checks that ParallelAddUpperSumTo over the blocks adds the upper
// triangle of SᵀS, against float64 sums, and leaves the rest of C alone.
func TestAddUpperSumIsTheBlockedGram(t *testing.T) {
	defer func(b int) { sumTileBytes = b }(sumTileBytes)
	for _, tb := range []int{sumTileBytes, 1} { // 1: runs of one B pair
		sumTileBytes = tb
		testAddUpperSum(t, tb)
	}
	assert.Panics(t, func() {
		ParallelAddUpperSumTo(make([]float64, 4), 2, 1, []*Panels[float64]{NewPanels[float64](2, 1, MR, nil)}, nil)
	})
}

func testAddUpperSum(t *testing.T, tileBytes int) {
	rng := rand.New(rand.NewPCG(5, 6))
	// blocks of unequal depth, m leaving partial panels and several groups
	// of groupSum panels, depths beyond kcMax
	for _, sz := range []struct {
		m      int
		depths []int
	}{{1, []int{3}}, {61, []int{7, 1, 20}}, {101, []int{33, 33, 5, 0, 12}}, {403, []int{250, 3, 400}}} {
		name := fmt.Sprintf("%v, tiles of %d bytes", sz, tileBytes)
		var rows [][]float64 // the rows of S
		var a, b []*Panels[float64]
		for _, k := range sz.depths {
			blk := make([]float64, k*sz.m)
			for r := 0; r < k; r++ {
				row := randRow(rng, sz.m)
				copy(blk[r*sz.m:], row)
				rows = append(rows, row)
			}
			pa := NewPanels[float64](sz.m, k, MR, nil)
			pb := NewPanels[float64](sz.m, k, NR64, nil)
			pa.SetColumns(blk, sz.m)
			pb.SetColumns(blk, sz.m)
			a, b = append(a, pa), append(b, pb)
		}
		ldc := sz.m + 2
		c := make([]float64, sz.m*ldc)
		for i := range c {
			c[i] = 1
		}
		ParallelAddUpperSumTo(c, ldc, 2, a, b)
		for i := 0; i < sz.m; i++ {
			for j := 0; j < ldc; j++ {
				if j < i || j >= sz.m {
					require.Equal(t, 1.0, c[i*ldc+j], "%s: (%d,%d) outside the upper triangle", name, i, j)
					continue
				}
				var s, abs float64
				for _, row := range rows {
					s += row[i] * row[j]
					abs += math.Abs(row[i] * row[j])
				}
				require.InDelta(t, 1+2*s, c[i*ldc+j], 2*gamma[float64](len(rows))*abs+1e-15, "%s: (%d,%d)", name, i, j)
			}
		}
	}
}

// garbage returns n random values, storage whose former contents must not
// survive a packing.
func garbage[T Float](rng *rand.Rand, n int) []T {
	g := make([]T, n)
	for i := range g {
		g[i] = T(rng.NormFloat64())
	}
	return g
}

func TestSetRowsIsSetRow(t *testing.T) {
	testRows[float64](t)
	testRows[float32](t)
}

// testRows checks SetRows, over storage full of garbage, in two row ranges
// (the second one first, cut inside a panel) against SetRow of each row in
// cleared panels, bitwise, for full and partial last panels of both widths.
func testRows[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, dims := range [][2]int{{23, 11}, {24, 5}, {32, 3}, {1, 4}, {7, 200}, {17, 0}} {
		rows, k := dims[0], dims[1]
		ld := k + 3
		src := make([]float64, rows*ld)
		for i := range src {
			src[i] = rng.NormFloat64()
		}
		for _, w := range []int{MR, NR[T]()} {
			want := NewPanels[T](rows, k, w, nil)
			for i := 0; i < rows; i++ {
				want.SetRow(i, src[i*ld:i*ld+k], nil, 1)
			}
			got := UnclearedPanels(rows, k, w, garbage[T](rng, len(want.Data)+3))
			h := rows / 3
			got.SetRows(src[h*ld:], ld, h, rows)
			got.SetRows(src, ld, 0, h)
			for i := range want.Data {
				require.Equal(t, want.Data[i], got.Data[i], "SetRows %v width %d entry %d", dims, w, i)
			}
		}
	}
	p := NewPanels[T](4, 3, MR, nil)
	assert.Panics(t, func() { p.SetRows(make([]float64, 8), 3, 0, 4) }, "src too short")
	assert.Panics(t, func() { p.SetRows(make([]float64, 12), 2, 0, 4) }, "stride below K")
	assert.Panics(t, func() { p.SetRows(nil, 3, 2, 5) }, "rows beyond Rows")
}

// TestSetShiftedRowsIsSetRow: SetShiftedRows over storage full of garbage,
// in two row ranges (the second first, cut inside a panel), stores the
// panels and the norms of SetRow(i, row, shift, 1), bitwise, with and
// without a shift, for both widths and both precisions.
func TestSetShiftedRowsIsSetRow(t *testing.T) {
	testShiftedRows[float64](t)
	testShiftedRows[float32](t)
}

func testShiftedRows[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dims := range [][2]int{{23, 11}, {24, 5}, {13, 200}, {1, 4}, {6, 0}} {
		rows, k := dims[0], dims[1]
		ld := k + 2
		src := randRow(rng, rows*ld)
		for _, shift := range [][]float64{nil, randRow(rng, k)} {
			for _, w := range []int{MR, NR[T]()} {
				want := NewPanels[T](rows, k, w, nil)
				wantNorms := make([]float64, rows)
				for i := range rows {
					wantNorms[i] = want.SetRow(i, src[i*ld:i*ld+k], shift, 1)
				}
				got := UnclearedPanels(rows, k, w, garbage[T](rng, len(want.Data)+5))
				norms := make([]float64, rows)
				h := rows/2 + 1
				got.SetShiftedRows(src[h*ld:], ld, h, rows, shift, norms[h:])
				got.SetShiftedRows(src, ld, 0, h, shift, norms)
				for i := range want.Data {
					require.Equal(t, want.Data[i], got.Data[i], "%v width %d shift %v entry %d", dims, w, shift != nil, i)
				}
				for i := range norms {
					require.Equal(t, math.Float64bits(wantNorms[i]), math.Float64bits(norms[i]), "%v width %d norm %d", dims, w, i)
				}
			}
		}
	}
	p := NewPanels[T](4, 3, MR, nil)
	assert.Panics(t, func() { p.SetShiftedRows(make([]float64, 12), 3, 0, 4, nil, make([]float64, 3)) }, "norms too short")
}
