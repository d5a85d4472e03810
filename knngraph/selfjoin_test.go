package knngraph

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSelfJoinEqualsQueryPath: Exact (the symmetric float32 self-join)
// returns bitwise the lists of ExactRows over every row (each row against
// all points, one query block at a time), with the same rescans, on sizes
// that leave partial row blocks and panels, with ties and with too few
// candidates to certify every row.
func TestSelfJoinEqualsQueryPath(t *testing.T) {
	rng := newRand(41)
	cases := []struct {
		name          string
		n, d, k, cand int
		levels        int
	}{
		{"gaussian", 1013, 21, 10, 0, 0},
		{"integer ties", 530, 6, 8, 0, 3},
		{"rescans", 333, 4, 6, 6, 2},
		{"one block", 47, 3, 5, 0, 4},
		{"two points", 2, 2, 1, 0, 0},
	}
	for _, c := range cases {
		x := randomPoints(rng, c.n, c.d, c.levels)
		s := &Settings{Candidates: c.cand}
		got, err := Exact(context.Background(), x, c.k, s)
		require.NoError(t, err)
		rows := make([]int, c.n)
		for i := range rows {
			rows[i] = i
		}
		want, err := ExactRows(context.Background(), x, rows, c.k, s)
		require.NoError(t, err)
		require.Equal(t, want.Index, got.Index, c.name)
		require.Equal(t, want.Dist2, got.Dist2, c.name)
		require.Equal(t, want.Rescanned, got.Rescanned, c.name)
		if c.name == "rescans" {
			require.Positive(t, got.Rescanned)
		}
	}
}

// TestExactBitwiseUnderGOMAXPROCS: the self-join's per-worker candidate
// lists are merged into the same result whatever the number of workers.
func TestExactBitwiseUnderGOMAXPROCS(t *testing.T) {
	x := randomPoints(newRand(43), 700, 5, 3) // integer coordinates: many ties
	run := func(cand int) *Neighbors {
		var calls, last int
		nb, err := Exact(context.Background(), x, 7, &Settings{Candidates: cand, Progress: func(done, total int) {
			require.Equal(t, 700, total)
			require.GreaterOrEqual(t, done, last)
			calls, last = calls+1, done
		}})
		require.NoError(t, err)
		require.Positive(t, calls)
		require.Equal(t, 700, last)
		return nb
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, cand := range []int{0, 7} {
		runtime.GOMAXPROCS(1)
		want := run(cand)
		for _, p := range []int{2, 3, 8} {
			runtime.GOMAXPROCS(p)
			got := run(cand)
			require.Equal(t, want.Index, got.Index, "GOMAXPROCS %d, candidates %d", p, cand)
			require.Equal(t, want.Dist2, got.Dist2, "GOMAXPROCS %d, candidates %d", p, cand)
			require.Equal(t, want.Rescanned, got.Rescanned, "GOMAXPROCS %d, candidates %d", p, cand)
		}
	}
}
