package gemm

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The AVX-512 kernels promise bitwise the AVX2 kernels' tiles: each entry is
// the same FMA chain in order of t.
func TestAVX512KernelsBitwiseAVX2(t *testing.T) {
	if !HasAVX512 {
		t.Skip("no AVX-512 on this CPU: the AVX2 kernels run")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{1, 2, 3, 4, 5, 7, 17, 100, 784} {
		a32, b32 := randSlice[float32](rng, MR*k), randSlice[float32](rng, 2*NR32*k)
		want32 := make([]float32, 2*MR*NR32)
		kernel32AVX2(k, &a32[0], &b32[0], &want32[0])
		kernel32AVX2(k, &a32[0], &b32[NR32*k], &want32[MR*NR32])
		got32 := make([]float32, 2*MR*NR32)
		kernel32AVX512(k, &a32[0], &b32[0], &got32[0])
		kernel32AVX512(k, &a32[0], &b32[NR32*k], &got32[MR*NR32])
		require.Equal(t, want32, got32, "float32 one-panel kernel, k=%d", k)
		clear(got32)
		kernelPair32(k, a32, b32, got32)
		require.Equal(t, want32, got32, "float32 two-panel kernel, k=%d", k)

		a64, b64 := randSlice[float64](rng, MR*k), randSlice[float64](rng, 2*NR64*k)
		want64 := make([]float64, 2*MR*NR64)
		kernel64AVX2(k, &a64[0], &b64[0], &want64[0])
		kernel64AVX2(k, &a64[0], &b64[NR64*k], &want64[MR*NR64])
		got64 := make([]float64, 2*MR*NR64)
		kernel64AVX512(k, &a64[0], &b64[0], &got64[0])
		kernel64AVX512(k, &a64[0], &b64[NR64*k], &got64[MR*NR64])
		require.Equal(t, want64, got64, "float64 one-panel kernel, k=%d", k)
		clear(got64)
		kernelPair64(k, a64, b64, got64)
		require.Equal(t, want64, got64, "float64 two-panel kernel, k=%d", k)
	}
}

// The drivers with the two-panel kernel give bitwise the products of the
// one-panel path (a tiler without pair), odd panel counts and partial
// panels included.
func TestPairDriversBitwiseOnePanel(t *testing.T) {
	if !HasAVX512 {
		t.Skip("no AVX-512 on this CPU: the drivers run the one-panel kernel only")
	}
	testPairDrivers[float32](t)
	testPairDrivers[float64](t)
}

func testPairDrivers[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, dims := range [][3]int{{1, 1, 1}, {7, 9, 3}, {13, 40, 0}, {30, 33, 17}, {61, 50, 784}, {20, 31, 193}, {49, 47, 385}, {13, 65, 1000}, {30, 30, 17}, {50, 50, 400}, {41, 41, 1}, {19, 19, 250}} {
		m, n, k := dims[0], dims[1], dims[2]
		a := NewPanels[T](m, k, MR, nil)
		b := NewPanels[T](n, k, NR[T](), nil)
		for i := range m {
			a.SetRow(i, randSlice[float64](rng, k), nil, 1)
		}
		for j := range n {
			b.SetRow(j, randSlice[float64](rng, k), nil, 1)
		}
		got := make([]float64, m*n)
		mulT(got, n, nil, a, b, 0, a.Count())
		want := make([]float64, m*n)
		oneTiler[T](func() { mulT(want, n, nil, a, b, 0, a.Count()) })
		require.Equal(t, want, got, "mulT %v", dims)
		if m != n {
			continue
		}
		bs := NewPanels[T](n, k, NR[T](), nil)
		copy(bs.Data, b.Data)
		as := []*Panels[T]{a, a}
		bb := []*Panels[T]{b, bs}
		got = slices.Repeat([]float64{1}, m*n)
		mulTSum(got, n, as, bb, 0, a.Count(), 0.5)
		// the pairs' depths are one FMA chain per entry: the one pair of
		// the joined depths on the one-panel path
		want = slices.Repeat([]float64{1}, m*n)
		ja, jb := []*Panels[T]{joinDepth(a, a)}, []*Panels[T]{joinDepth(b, bs)}
		oneTiler[T](func() { mulTSum(want, n, ja, jb, 0, a.Count(), 0.5) })
		require.Equal(t, want, got, "mulTSum %v", dims)
		got = slices.Repeat([]float64{1}, m*n)
		mulTSum(got, n, as[:1], bb[:1], 0, a.Count(), 0.5)
		want = slices.Repeat([]float64{1}, m*n)
		oneTiler[T](func() { mulTSum(want, n, as[:1], bb[:1], 0, a.Count(), 0.5) })
		require.Equal(t, want, got, "mulTSum of one pair %v", dims)
	}
}

// joinDepth returns the panels of the rows of p and q (same Rows and W)
// joined: row i is p's row i followed by q's.
func joinDepth[T Float](p, q *Panels[T]) *Panels[T] {
	j := NewPanels[T](p.Rows, p.K+q.K, p.W, nil)
	row := make([]float64, p.K+q.K)
	for i := range p.Rows {
		for t := range p.K {
			row[t] = float64(p.Data[(i/p.W)*p.W*p.K+t*p.W+i%p.W])
		}
		for t := range q.K {
			row[p.K+t] = float64(q.Data[(i/q.W)*q.W*q.K+t*q.W+i%q.W])
		}
		j.SetRow(i, row, nil, 1)
	}
	return j
}

// oneTiler runs f with the two-panel kernel switched off.
func oneTiler[T Float](f func()) {
	HasAVX512 = false
	defer func() { HasAVX512 = true }()
	f()
}

func randSlice[T Float](rng *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(rng.NormFloat64())
	}
	return s
}

// KernelPair64 with separate panels at a depth offset equals two Kernel64
// calls bitwise.
func TestKernelPair64SplitBitwiseKernel64(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{0, 1, 2, 3, 5, 17, 100, 301} {
		const off = 3
		a := randSlice[float64](rng, MR*(k+off))
		b0, b1 := randSlice[float64](rng, NR64*(k+off)), randSlice[float64](rng, NR64*(k+off+5))
		want := make([]float64, 2*MR*NR64)
		Kernel64Go(k, a[off*MR:], b0[off*NR64:], want[:MR*NR64])
		Kernel64Go(k, a[off*MR:], b1[off*NR64:], want[MR*NR64:])
		got := make([]float64, 2*MR*NR64)
		KernelPair64(k, a[off*MR:], b0[off*NR64:], b1[off*NR64:], got)
		if HasAVX2 {
			for i := range want {
				require.InDelta(t, want[i], got[i], 1e-12*float64(k+1), "k=%d entry %d", k, i)
			}
			w2 := make([]float64, 2*MR*NR64)
			Kernel64(k, a[off*MR:], b0[off*NR64:], w2[:MR*NR64])
			Kernel64(k, a[off*MR:], b1[off*NR64:], w2[MR*NR64:])
			require.Equal(t, w2, got, "k=%d: bitwise Kernel64", k)
			continue
		}
		require.Equal(t, want, got, "k=%d", k)
	}
}
