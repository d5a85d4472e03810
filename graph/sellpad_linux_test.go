//go:build linux && amd64

package graph

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestSlicedPrefetchStaysInPad: the AVX2 block kernels read indices ahead
// of the entry they sum (to prefetch its block row), at most sellIndexPad
// entries past the last one. With the copy's indices and that pad placed
// right before an inaccessible page, every product runs without a fault
// and gives bitwise the product of the copy as built; a kernel reading
// further ahead than the pad faults here.
func TestSlicedPrefetchStaysInPad(t *testing.T) {
	page := unix.Getpagesize()
	if !hasSellAVX2 {
		t.Skipf("no AVX2: block products use the CSR kernels only (page size %d)", page)
	}
	rng := rand.New(rand.NewPCG(3, 29))
	for _, n := range []int{1, 5, 301, 2000} {
		g := sellTestGraph(t, rng, n, true)
		sl := newSliced(g, sellSigma)
		require.GreaterOrEqual(t, cap(sl.indices)-len(sl.indices), sellIndexPad)
		m := len(sl.indices) + sellIndexPad
		size := (4*m + page - 1) / page * page
		mem, err := unix.Mmap(-1, 0, size+page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		require.NoError(t, err)
		require.NoError(t, unix.Mprotect(mem[size:], unix.PROT_NONE))
		all := unsafe.Slice((*int32)(unsafe.Pointer(&mem[size-4*m])), m)
		guarded := *sl
		guarded.indices = all[:len(sl.indices)]
		copy(guarded.indices, sl.indices)
		for c := 1; c <= maxSliced; c++ {
			x := make([]float64, n*c)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want, got := make([]float64, n*c), make([]float64, n*c)
			sl.mulBlock(want, c, x, c, c, Scaling{}, 0, sl.chunks())
			guarded.mulBlock(got, c, x, c, c, Scaling{}, 0, guarded.chunks())
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("n %d c %d: entry %d: got %v, want %v", n, c, i, got[i], want[i])
				}
			}
		}
		require.NoError(t, unix.Munmap(mem))
	}
}
