package labelprop

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAlphaNearOneStops: a = 0.9999999999999999 makes the Chebyshev bound
// about 10⁹ iterations; the default cap stops it with a NotConvergedError
// that names MaxIter, in well under the deadline.
func TestAlphaNearOneStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	p := randomProblem(rng, 3)
	for _, solver := range []Solver{Chebyshev, CG} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		m := &Spreading{Alpha: 0.9999999999999999, Solver: solver, Tol: 1e-12}
		err := m.FitIndexed(ctx, p.g, p.nodes, p.classes)
		cancel()
		if err == nil {
			continue // CG on a small graph may reach the tolerance
		}
		var nc *NotConvergedError
		require.ErrorAs(t, err, &nc, "%v: %v", solver, err)
		assert.LessOrEqual(t, nc.Iterations, DefaultMaxIter)
		assert.Contains(t, err.Error(), "MaxIter")
	}
	assert.Equal(t, DefaultMaxIter, chebyshevBound(0.9999999999999999, DefaultTol))
	assert.Equal(t, 32, chebyshevBound(0.9, 1e-6))
	assert.Equal(t, DefaultMaxIter, chebyshevBound(1-1e-300, 1e-6), "1/a rounds to 1: acosh(1) = 0")
}

// TestHugeClassRefused: a class number is not a count; 10⁶ used to allocate a
// prior of 10⁶ entries and n × 10⁶ score blocks for four labelled nodes.
func TestHugeClassRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	p := randomProblem(rng, 2)
	classes := append([]int(nil), p.classes...)
	classes[0] = 1_000_000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := (&Spreading{Alpha: 0.9}).FitIndexed(context.Background(), p.g, p.nodes, classes)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has no labelled node (Classes = 1000001")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20))
	err = (&Harmonic{Classes: 1 << 30}).FitIndexed(context.Background(), p.g, p.nodes, p.classes)
	assert.ErrorContains(t, err, "Classes = 1073741824")
}
