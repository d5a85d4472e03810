package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNetworkSortZeroOne checks networkSort on every 0-1 row of up to 20
// columns: a comparator network sorts every input once it sorts every 0-1
// input (Knuth, TAOCP vol. 3, §5.3.4, the 0-1 principle).
func TestNetworkSortZeroOne(t *testing.T) {
	a := make([]int32, 20)
	for n := 0; n <= 20; n++ {
		for m := 0; m < 1<<n; m++ {
			for i := range n {
				a[i] = int32(m >> i & 1)
			}
			networkSort(a[:n])
			if !slices.IsSorted(a[:n]) {
				t.Fatalf("n = %d, input %b: got %v", n, m, a[:n])
			}
		}
	}
}

// TestNetworkSortRandom checks networkSort against slices.Sort on random
// rows of every length up to shortRow, with repeats and the extremes of
// int32.
func TestNetworkSortRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 200000 {
		n := rng.IntN(shortRow + 1)
		a := make([]int32, n)
		for i := range a {
			switch rng.IntN(8) {
			case 0:
				a[i] = 0x7fffffff
			case 1:
				a[i] = -0x80000000
			case 2:
				a[i] = int32(rng.IntN(4))
			default:
				a[i] = rng.Int32()
			}
		}
		want := slices.Clone(a)
		slices.Sort(want)
		networkSort(a)
		if !slices.Equal(a, want) {
			t.Fatalf("got %v, want %v", a, want)
		}
	}
}

// BenchmarkRowSort sorts rows of about 20 random columns (the degrees of
// BENCHMARKS.md's generated graphs), as Build does (sortEntries) and by
// insertion up to shortRow columns.
func BenchmarkRowSort(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	var orig []int32
	ptr := []int{0}
	for len(orig) < 1<<20 {
		k := 0
		for range 40 {
			k += rng.IntN(2)
		}
		for range k {
			orig = append(orig, int32(rng.IntN(10_000_000)))
		}
		ptr = append(ptr, len(orig))
	}
	insertion := func(a []int32) {
		if len(a) > shortRow {
			slices.Sort(a)
			return
		}
		for i := 1; i < len(a); i++ {
			v, j := a[i], i
			for j > 0 && a[j-1] > v {
				a[j] = a[j-1]
				j--
			}
			a[j] = v
		}
	}
	for _, s := range []struct {
		name string
		sort func([]int32)
	}{{"network", func(a []int32) { sortEntries(a, nil, false) }}, {"insertion", insertion}} {
		b.Run(s.name, func(b *testing.B) {
			cols := make([]int32, len(orig))
			b.SetBytes(int64(4 * len(orig)))
			for b.Loop() {
				copy(cols, orig)
				for i := 0; i+1 < len(ptr); i++ {
					s.sort(cols[ptr[i]:ptr[i+1]])
				}
			}
		})
	}
}
