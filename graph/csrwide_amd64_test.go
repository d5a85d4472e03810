package graph

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// TestBlockRowsWideBitwise checks the any-width assembly kernels, AVX2 and
// AVX-512 (where the CPU runs them), against blockRowsLoop bit for bit: widths 1 to 40 and wider
// ones that use every column tile and each masked tail, unit and general
// weights, each of Left, Right and Diag alone and together, row ranges with
// the hub row, isolated rows only and an odd stretch, written at an offset
// into a strided dst from a strided block holding subnormal values and
// products that round to subnormals.
func TestBlockRowsWideBitwise(t *testing.T) {
	if !hasSellAVX2 {
		t.Skip("no AVX2: blockRowsLoop is the only kernel")
	}
	has512 := hasCSR512
	defer func() { hasCSR512 = has512 }()
	for _, avx512 := range []bool{false, true} {
		if avx512 && !has512 {
			t.Log("no AVX-512: the AVX2 kernel only")
			continue
		}
		hasCSR512 = avx512
		blockRowsWideBitwise(t)
	}
}

func blockRowsWideBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 3))
	widths := []int{48, 64, 96, 100, 130}
	for c := 1; c <= 40; c++ {
		widths = append(widths, c)
	}
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 1500, unit)
		n := g.Nodes()
		left, right, diag := wideTestValues(rng, n), wideTestValues(rng, n), wideTestValues(rng, n)
		scalings := []Scaling{{}, {Left: left}, {Right: right}, {Diag: diag}, {Left: left, Right: right, Diag: diag}}
		for _, c := range widths {
			xs := c + 3
			x := wideTestValues(rng, n*xs)
			for si, s := range scalings {
				for _, r := range [][2]int{{0, n}, {0, 1}, {1, 2}, {5, 977}, {n - 1, n}} {
					first, ds := r[0]-2, c+1
					rows := r[1] - first
					want, got := make([]float64, rows*ds), make([]float64, rows*ds)
					for i := range want {
						want[i], got[i] = float64(i), float64(i)
					}
					g.blockRowsLoop(want, ds, first, x, xs, c, s, r[0], r[1])
					if !g.blockRowsWide(got, ds, first, x, xs, c, s, r[0], r[1]) {
						t.Fatalf("c %d: the wide kernel did not run", c)
					}
					for i := range want {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("unit %v c %d rows %v scaling %d: entry %d (row %d col %d) = %v, want %v",
								unit, c, r, si, i, i/ds+first, i%ds, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// wideTestValues returns m values, mostly normal, some subnormal and some
// small enough that their products with weights round to subnormals.
func wideTestValues(rng *rand.Rand, m int) []float64 {
	v := make([]float64, m)
	for i := range v {
		switch rng.IntN(8) {
		case 0:
			v[i] = rng.NormFloat64() * 1e-310
		case 1:
			v[i] = rng.NormFloat64() * 1e-300
		default:
			v[i] = rng.NormFloat64()
		}
	}
	return v
}

// BenchmarkBlockWide times ScaledMulBlockTo on a graph of the size of
// Amazon Photo's (7 650 nodes, 119 081 random undirected unit-weight edges,
// 238 k stored entries) with blocks of widths no special kernel has (those
// of C&S's smoothing and APPNP's propagated rows), scaled as the normalised
// adjacency D^−½·A·D^−½ with a diagonal term; "loop" is blockRowsLoop,
// the Go kernel, "avx2" and "avx512" the assembly kernels, on the same rows
// and goroutines.
//
//	go test ./graph -run '^$' -bench 'BlockWide' -benchtime 200x
func BenchmarkBlockWide(b *testing.B) {
	const n, m = 7650, 119081
	rng := rand.New(rand.NewPCG(7, 650))
	edges := make([]Edge, m)
	for k := range edges {
		edges[k] = Edge{U: rng.IntN(n), V: rng.IntN(n), W: 1}
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	if err != nil {
		b.Fatal(err)
	}
	half, diag := make([]float64, n), make([]float64, n)
	for i := range half {
		half[i], diag[i] = 1/math.Sqrt(max(g.Degree(i), 1)), 0.1
	}
	s := Scaling{Left: half, Right: half, Diag: diag}
	for _, c := range []int{24, 40, 96} {
		x, dst := mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
		for i := range n {
			for j := range c {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		b.Run("c="+strconv.Itoa(c), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.ScaledMulBlockTo(dst, x, s)
			}
		})
		b.Run("loop/c="+strconv.Itoa(c), func(b *testing.B) {
			xm, dm := x.RawMatrix(), dst.RawMatrix()
			s := Scaling{Left: half, Diag: diag}
			for b.Loop() {
				parallel.Balanced(g.indptr, minParallelWork/2, func(lo, hi int) {
					g.blockRowsLoop(dm.Data, c, 0, xm.Data, c, c, s, lo, hi)
				})
			}
		})
		has512 := hasCSR512
		for _, avx512 := range []bool{false, true} {
			name := "avx2/c="
			if avx512 {
				name = "avx512/c="
			}
			if avx512 && !has512 {
				continue
			}
			b.Run(name+strconv.Itoa(c), func(b *testing.B) {
				defer func() { hasCSR512 = has512 }()
				hasCSR512 = avx512
				xm, dm := x.RawMatrix(), dst.RawMatrix()
				s := Scaling{Left: half, Diag: diag}
				for b.Loop() {
					parallel.Balanced(g.indptr, minParallelWork/2, func(lo, hi int) {
						g.scaledBlockRowsAt(dm.Data, c, 0, xm.Data, c, c, s, lo, hi)
					})
				}
			})
		}
	}
}
