//go:build linux

package stkr

import (
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/hugepage"
)

// TestLapColumnsInputHugePages: the input block of the inverse Laplacian's
// product (the block the graph gathers from at random), once it holds
// hugepage.MinBytes, is allocated by internal/hugepage, so that its mapping
// carries the huge-page advice (VmFlags "hg" in /proc/self/smaps), and the
// product is bitwise the same as with the plain block the fit allocated
// before and as lapSystem.MulBlockTo's on the formed v.
func TestLapColumnsInputHugePages(t *testing.T) {
	if testing.Short() {
		t.Skip("a graph of 840 000 nodes; skipped with -short")
	}
	const k = 10
	N := hugepage.MinBytes/(8*k) + 1000
	rng := rand.New(rand.NewPCG(5, 6))
	edges := make([]graph.Edge, 0, 3*N)
	for i := range N {
		edges = append(edges, graph.Edge{U: i, V: (i + 1) % N, W: 1}, graph.Edge{U: i, V: rng.IntN(N), W: 1})
	}
	g, err := graph.FromEdges(N, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	require.True(t, g.UnitWeights())
	gk, err := NewGraphKernel(g)
	require.NoError(t, err)
	cnt := counted{m: gk, n: new(atomic.Int64)}
	isTr := make([]bool, N)
	for i := 0; i < N; i += 97 {
		isTr[i] = true
	}
	sys := &lapSystem{m: cnt, eta: 0.9, symmetric: true, c: 1.3, isTr: isTr}
	z := mat.NewDense(N, k+2, nil)
	for i := range N {
		for j := range k + 2 {
			z.Set(i, j, rng.NormFloat64())
		}
	}
	cols := []int{0, 2, 3, 4, 5, 6, 7, 8, 9, 11}
	s := []float64{1.5, -0.25, 3, 1, 0.7, -2, 0.125, 9, 0.5, 1.1}
	product := func(lc *lapColumns) *mat.Dense {
		y := mat.NewDense(N, k, nil)
		lc.MulColumnsRows(z, cols, s, func(lo, hi int, rows []float64) {
			copy(y.RawMatrix().Data[lo*k:hi*k], rows)
		})
		return y
	}
	huge := newLapColumns(sys, cnt)
	got := product(huge)
	require.Len(t, huge.buf, N*k)
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil && !strings.Contains(string(thp), "[never]") {
		require.Contains(t, vmFlags(t, &huge.buf[len(huge.buf)/2]), "hg", "the input block was not advised for huge pages (THP %q)", thp)
	}
	plain := newLapColumns(sys, cnt)
	plain.buf = make([]float64, N*k) // the allocation before
	require.NotContains(t, vmFlags(t, &plain.buf[len(plain.buf)/2]), "hg", "a plain Go block carries the advice: the check above proves nothing")
	require.Equal(t, product(plain).RawMatrix().Data, got.RawMatrix().Data, "huge-page input block against the plain one")
	v := mat.NewDense(N, k, nil)
	for i := range N {
		for c, j := range cols {
			v.Set(i, c, s[c]*z.At(i, j))
		}
	}
	want := mat.NewDense(N, k, nil)
	sys.MulBlockTo(want, v)
	require.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data, "against lapSystem.MulBlockTo on the formed v")
}

// vmFlags returns the VmFlags of the /proc/self/smaps mapping holding p.
func vmFlags(t *testing.T, p *float64) []string {
	t.Helper()
	addr := uint64(uintptr(unsafe.Pointer(p)))
	ms, err := hugepage.Mappings()
	require.NoError(t, err)
	for _, m := range ms {
		if m.Lo <= addr && addr < m.Hi {
			return m.Flags
		}
	}
	t.Fatalf("no mapping of /proc/self/smaps holds %#x", addr)
	return nil
}
