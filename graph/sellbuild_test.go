package graph

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/parallel"
)

// slicedSerial is the single-goroutine SELL-C-σ build newSliced replaced:
// the reference its parallel build must reproduce exactly.
func slicedSerial(g *CSR, sigma int) *sliced {
	n := g.n
	chunks := (n + sellC - 1) / sellC
	s := &sliced{off: make([]int, chunks+1), rows: make([]int32, chunks*sellC), lens: make([]int32, chunks*sellC)}
	order := make([]int32, n)
	for lo := 0; lo < n; lo += sigma {
		hi := min(lo+sigma, n)
		idx := make([]int32, 0, hi-lo)
		for length := maxRowLen(g, lo, hi); length >= 0; length-- {
			for i := lo; i < hi; i++ {
				if g.RowLen(i) == length {
					idx = append(idx, int32(i))
				}
			}
		}
		copy(order[lo:hi], idx)
	}
	for slot := range s.rows {
		s.rows[slot] = -1
		if slot < n {
			s.rows[slot] = order[slot]
			s.lens[slot] = int32(g.RowLen(int(order[slot])))
		}
	}
	for k := 0; k < chunks; k++ {
		s.off[k+1] = s.off[k] + sellC*int(s.lens[k*sellC])
	}
	s.indices = make([]int32, s.off[chunks])
	if !g.unitWeights {
		s.weights = make([]float64, s.off[chunks])
	}
	for slot, row := range s.rows {
		if row < 0 {
			continue
		}
		p := s.off[slot/sellC] + slot%sellC
		cols, ws := g.Row(int(row))
		for j, c := range cols {
			s.indices[p+j*sellC] = c
			if s.weights != nil {
				s.weights[p+j*sellC] = ws[j]
			}
		}
	}
	return s
}

func maxRowLen(g *CSR, lo, hi int) int {
	m := 0
	for i := lo; i < hi; i++ {
		m = max(m, g.RowLen(i))
	}
	return m
}

// TestSlicedParallelBuildAgainstSerial checks the parallel SELL-C-σ build,
// on 1, 2, 3 and 8 workers (and GOMAXPROCS 1 and 4), against a serial
// build by a plain selection of rows by length: every field equal, on
// graphs large enough for every pass to be split (weighted and unit, n a
// multiple of C or not, windows of several sizes).
func TestSlicedParallelBuildAgainstSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer parallel.Configure(parallel.Current())
	for _, n := range []int{140_003} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			for _, sigma := range []int{sellC, 1000, sellSigma} {
				want := slicedSerial(g, sigma)
				for _, procs := range []int{1, 4} {
					runtime.GOMAXPROCS(procs)
					for _, workers := range []int{1, 2, 3, 8} {
						require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
						got := newSliced(g, sigma)
						ok := slices.Equal(want.off, got.off) && slices.Equal(want.rows, got.rows) && slices.Equal(want.lens, got.lens) &&
							slices.Equal(want.indices, got.indices) && slices.Equal(want.weights, got.weights) && (want.weights == nil) == (got.weights == nil)
						require.True(t, ok, "n %d unit %v σ %d GOMAXPROCS %d workers %d: the parallel build differs from the serial one", n, unit, sigma, procs, workers)
					}
				}
			}
		}
	}
}
