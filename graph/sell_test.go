package graph

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/sharedtest"
)

// readPubMed builds PubMed's graph from its edge list without the loaders
// package (which imports graph), duplicates kept once, self loops kept, as
// loaders.LoadNodeDataset does.
func readPubMed(tb testing.TB) *CSR {
	tb.Helper()
	f, err := os.Open(sharedtest.Path(tb, "data/pubmed/edges.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var edges []Edge
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var u, v int
		if _, err := fmt.Sscan(sc.Text(), &u, &v); err != nil {
			tb.Fatal(err)
		}
		edges = append(edges, Edge{U: u, V: v, W: 1})
		n = max(n, u+1, v+1)
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// BenchmarkSliced times the CSR row kernels against the SELL-C-σ kernels on
// PubMed, one goroutine, for W·x and diag(r)·W·diag(r)·x, with 1, 3 and 7
// columns. SELL_SIGMA=σ rebuilds the copy with another sorting window.
//
//	go test ./graph -run '^$' -bench Sliced -benchtime 2000x
func BenchmarkSliced(b *testing.B) {
	g := readPubMed(b)
	n := g.Nodes()
	rng := rand.New(rand.NewPCG(1, 2))
	x, y, r := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], r[i] = rng.Float64(), rng.Float64()
	}
	sl := g.sliced()
	if v := os.Getenv("SELL_SIGMA"); v != "" {
		var sigma int
		fmt.Sscan(v, &sigma)
		sl = newSliced(g, sigma)
	}
	lock := 0
	for k := 0; k < sl.chunks(); k++ {
		lock += sellC * int(sl.lens[k*sellC+sellC-1])
	}
	b.Logf("lockstep entries %d", lock)
	b.Logf("n %d nnz %d sliced entries %d (padding %.2f %%), %d bytes", n, g.NNZ(), len(sl.indices),
		100*float64(len(sl.indices)-g.NNZ())/float64(g.NNZ()), sl.bytes())
	for _, sc := range []struct {
		name string
		s    Scaling
	}{{"plain", Scaling{}}, {"right", Scaling{Left: r, Right: r}}} {
		b.Run("csr/"+sc.name, func(b *testing.B) {
			for b.Loop() {
				g.scaledRows(y, x, sc.s, 0, n)
			}
		})
		b.Run("sell-go/"+sc.name, func(b *testing.B) {
			for b.Loop() {
				sl.mulVecKernel(true, y, x, nil, sc.s, 0, sl.chunks())
			}
		})
		b.Run("sell/"+sc.name, func(b *testing.B) {
			for b.Loop() {
				sl.mulVec(y, x, sc.s, 0, sl.chunks())
			}
		})
		b.Run("ScaledMulVecTo/"+sc.name, func(b *testing.B) {
			for b.Loop() {
				g.ScaledMulVecTo(y, x, sc.s)
			}
		})
		if !hasSellAVX2 {
			continue
		}
		for _, c := range []int{3, 7} {
			xb, yb := make([]float64, n*c), make([]float64, n*c)
			for i := range xb {
				xb[i] = rng.Float64()
			}
			b.Run(fmt.Sprintf("csr-block/c=%d/%s", c, sc.name), func(b *testing.B) {
				for b.Loop() {
					g.scaledBlockRows(yb, c, xb, c, c, sc.s, 0, n)
				}
			})
			b.Run(fmt.Sprintf("sell-block/c=%d/%s", c, sc.name), func(b *testing.B) {
				for b.Loop() {
					sl.mulBlock(yb, c, xb, c, c, sc.s, 0, sl.chunks())
				}
			})
		}
	}
}

// sellTestGraph draws a graph on n nodes for the SELL-C-σ tests (for n = 1,
// a single self loop): rows of
// very different lengths, a third of the nodes isolated (empty rows), one
// node joined to about 3/4 of the others (a very long row), self loops, and
// unit or random weights.
func sellTestGraph(t *testing.T, rng *rand.Rand, n int, unit bool) *CSR {
	t.Helper()
	if n == 1 {
		w := 2.0
		if unit {
			w = 1
		}
		return mustGraph(t, 1, []Edge{{U: 0, V: 0, W: w}})
	}
	var edges []Edge
	weight := func() float64 {
		if unit {
			return 1
		}
		return 1 - rng.Float64()
	}
	live := func() int {
		for {
			if v := rng.IntN(n); v%3 != 1 {
				return v
			}
		}
	}
	for range 3 * n {
		u := live()
		deg := rng.IntN(4)
		for range deg {
			edges = append(edges, Edge{U: u, V: live(), W: weight()})
		}
	}
	hub := 0
	for v := 0; v < n; v++ {
		if v%3 != 1 && rng.IntN(4) != 0 {
			edges = append(edges, Edge{U: hub, V: v, W: weight()})
		}
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	if err != nil {
		t.Fatal(err)
	}
	if g.UnitWeights() != unit || g.SelfLoops() == 0 || len(g.Isolated()) == 0 {
		t.Fatalf("test graph: unit %v self loops %d isolated %d", g.UnitWeights(), g.SelfLoops(), len(g.Isolated()))
	}
	return g
}

// sellScalings returns every combination of nil and random Diag, Left and Right.
func sellScalings(rng *rand.Rand, n int) []Scaling {
	vec := func() []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	var out []Scaling
	for mask := 0; mask < 8; mask++ {
		var s Scaling
		if mask&1 != 0 {
			s.Diag = vec()
		}
		if mask&2 != 0 {
			s.Left = vec()
		}
		if mask&4 != 0 {
			s.Right = vec()
		}
		out = append(out, s)
	}
	return out
}

// TestSlicedBitwiseAgainstCSRAndDense checks every SELL-C-σ kernel (portable
// and, where the CPU has it, AVX2), on one goroutine and through the public
// parallel ScaledMulVecTo, against the CSR row kernel bit for bit and against
// a dense gonum product, on graphs whose n is and is not a multiple of C,
// for several sorting windows σ.
func TestSlicedBitwiseAgainstCSRAndDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{1, 2, 5, 8, 61, 300, 1001} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			dense := g.Dense()
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			for si, s := range sellScalings(rng, n) {
				want := make([]float64, n)
				g.scaledRows(want, x, s, 0, n)
				ref := denseScaled(dense, x, s)
				for _, sigma := range []int{sellC, 8, sellSigma, n + sellC} {
					sl := newSliced(g, sigma)
					for _, portable := range []bool{true, false} {
						got := make([]float64, n)
						for i := range got {
							got[i] = math.NaN() // every row must be written
						}
						sl.mulVecKernel(portable, got, x, nil, s, 0, sl.chunks())
						for i := range got {
							if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
								t.Fatalf("n %d unit %v scaling %d σ %d portable %v: row %d: got %v, CSR kernel %v", n, unit, si, sigma, portable, i, got[i], want[i])
							}
						}
					}
				}
				got := make([]float64, n)
				g.ScaledMulVecTo(got, x, s)
				if usesSliced := g.sell.Load() != nil; usesSliced != (hasSellAVX2 && g.NNZ() >= minSlicedWork) {
					t.Fatalf("n %d nnz %d: ScaledMulVecTo used the sliced copy: %v", n, g.NNZ(), usesSliced)
				}
				for i := range got {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n %d unit %v scaling %d: ScaledMulVecTo row %d: got %v, CSR kernel %v", n, unit, si, i, got[i], want[i])
					}
					if math.Abs(got[i]-ref[i]) > tol*(1+math.Abs(ref[i])) {
						t.Fatalf("n %d unit %v scaling %d: row %d: got %v, dense %v", n, unit, si, i, got[i], ref[i])
					}
				}
			}
		}
	}
}

func mustGraph(t *testing.T, n int, edges []Edge) *CSR {
	t.Helper()
	g, err := FromEdges(n, edges, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// denseScaled returns diag(s.Diag)·x + diag(s.Left)·W·diag(s.Right)·x with gonum.
func denseScaled(w *mat.Dense, x []float64, s Scaling) []float64 {
	n := len(x)
	rx := append([]float64(nil), x...)
	if s.Right != nil {
		for i := range rx {
			rx[i] *= s.Right[i]
		}
	}
	var y mat.VecDense
	y.MulVec(w, mat.NewVecDense(n, rx))
	out := make([]float64, n)
	for i := range out {
		out[i] = y.AtVec(i)
		if s.Left != nil {
			out[i] *= s.Left[i]
		}
		if s.Diag != nil {
			out[i] += s.Diag[i] * x[i]
		}
	}
	return out
}

// TestSlicedBlockBitwiseAgainstCSRAndDense checks the SELL-4-σ block kernels
// (1 to 8 columns, contiguous and strided blocks, every Scaling) against the
// generated CSR block kernels bit for bit and against dense gonum products.
func TestSlicedBlockBitwiseAgainstCSRAndDense(t *testing.T) {
	if !hasSellAVX2 {
		t.Skip("no AVX2: block products use the CSR kernels only")
	}
	rng := rand.New(rand.NewPCG(13, 17))
	for _, n := range []int{1, 7, 300, 1001, 2500} { // 2500: three windows of rows, the last partial
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			dense := g.Dense()
			for c := 1; c <= maxSliced; c++ {
				for _, stride := range []int{c, c + 3} {
					xs := make([]float64, n*stride)
					for i := range xs {
						xs[i] = rng.NormFloat64()
					}
					x := mat.NewDense(n, stride, xs).Slice(0, n, 0, c).(*mat.Dense)
					for si, s := range sellScalings(rng, n) {
						want := mat.NewDense(n, c, nil)
						wm, xm := want.RawMatrix(), x.RawMatrix()
						g.scaledBlockRows(wm.Data, wm.Stride, xm.Data, xm.Stride, c, s, 0, n)
						for _, sigma := range []int{sellC, sellSigma} {
							sl := newSliced(g, sigma)
							got := mat.NewDense(n, stride, nil).Slice(0, n, 0, c).(*mat.Dense)
							gm := got.RawMatrix()
							for i := range gm.Data {
								gm.Data[i] = math.NaN() // every entry must be written
							}
							sl.mulBlock(gm.Data, gm.Stride, xm.Data, xm.Stride, c, s, 0, sl.chunks())
							for i := 0; i < n; i++ {
								for j := 0; j < c; j++ {
									if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
										t.Fatalf("n %d unit %v c %d stride %d scaling %d σ %d: (%d, %d): got %v, CSR kernel %v",
											n, unit, c, stride, si, sigma, i, j, got.At(i, j), want.At(i, j))
									}
								}
							}
						}
						got := mat.NewDense(n, c, nil)
						g.ScaledMulBlockTo(got, x, s)
						for j := 0; j < c; j++ {
							ref := denseScaled(dense, mat.Col(nil, j, x), s)
							for i := 0; i < n; i++ {
								if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
									t.Fatalf("n %d unit %v c %d scaling %d: ScaledMulBlockTo (%d, %d): got %v, CSR kernel %v", n, unit, c, si, i, j, got.At(i, j), want.At(i, j))
								}
								if math.Abs(got.At(i, j)-ref[i]) > tol*(1+math.Abs(ref[i])) {
									t.Fatalf("n %d unit %v c %d scaling %d: (%d, %d): got %v, dense %v", n, unit, c, si, i, j, got.At(i, j), ref[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestSortWindowsByLengthIsStableSort checks the counting sort of the SELL
// build against a stable comparison sort of each window.
func TestSortWindowsByLengthIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 20; trial++ {
		n := 1 + rng.IntN(3000)
		var edges []Edge
		for k := rng.IntN(6 * n); k > 0; k-- {
			u := rng.IntN(n)
			if rng.IntN(20) == 0 {
				u = 0 // a hub
			}
			edges = append(edges, Edge{U: u, V: rng.IntN(n), W: 1})
		}
		g, err := FromEdges(n, edges, Options{Duplicates: DuplicateSum})
		require.NoError(t, err)
		sigma := []int{1, 4, 64, 1024}[rng.IntN(4)]
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		for lo := 0; lo < n; lo += sigma {
			slices.SortStableFunc(want[lo:min(lo+sigma, n)], func(a, b int32) int { return g.RowLen(int(b)) - g.RowLen(int(a)) })
		}
		require.Equal(t, want, sortWindowsByLength(g, sigma), "trial %d, n=%d, σ=%d", trial, n, sigma)
	}
}

// TestWideBlockKernelsAgainstDense checks the generated CSR kernels of 9 to
// maxUnrolled columns (and the loop beyond) against dense gonum products,
// for contiguous and strided blocks and every Scaling, and that a row range
// gives the rows of the whole product bit for bit.
func TestWideBlockKernelsAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	for _, n := range []int{1, 300} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			dense := g.Dense()
			for c := maxSliced + 1; c <= maxUnrolled+1; c++ {
				for _, stride := range []int{c, c + 3} {
					xs := make([]float64, n*stride)
					for i := range xs {
						xs[i] = rng.NormFloat64()
					}
					x := mat.NewDense(n, stride, xs).Slice(0, n, 0, c).(*mat.Dense)
					for si, s := range sellScalings(rng, n) {
						got := mat.NewDense(n, c, nil)
						g.ScaledMulBlockTo(got, x, s)
						for j := 0; j < c; j++ {
							ref := denseScaled(dense, mat.Col(nil, j, x), s)
							for i := 0; i < n; i++ {
								if math.Abs(got.At(i, j)-ref[i]) > 1e-12*(1+math.Abs(ref[i])) {
									t.Fatalf("n %d unit %v c %d stride %d scaling %d: (%d, %d): got %v, dense %v", n, unit, c, stride, si, i, j, got.At(i, j), ref[i])
								}
							}
						}
						lo, hi := n/3, n
						part := mat.NewDense(hi-lo, c, nil)
						g.ScaledMulBlockRowsInto(part, x, s, lo, hi)
						for i := lo; i < hi; i++ {
							for j := 0; j < c; j++ {
								if math.Float64bits(part.At(i-lo, j)) != math.Float64bits(got.At(i, j)) {
									t.Fatalf("n %d c %d scaling %d: rows [%d, %d): (%d, %d) = %v, whole product %v", n, c, si, lo, hi, i, j, part.At(i-lo, j), got.At(i, j))
								}
							}
						}
					}
				}
			}
		}
	}
}
