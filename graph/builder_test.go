package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allOptions lists every combination of the three policies.
func allOptions() []Options {
	var out []Options
	for _, d := range []DuplicatePolicy{DuplicateError, DuplicateSum, DuplicateMax} {
		for _, s := range []SelfLoopPolicy{SelfLoopKeep, SelfLoopDrop, SelfLoopError} {
			for _, y := range []Symmetrization{Undirected, DirectedMax, DirectedSum, DirectedMean, DirectedMutual} {
				out = append(out, Options{Duplicates: d, SelfLoops: s, Symmetrize: y})
			}
		}
	}
	return out
}

// sumTol bounds the difference between sums of the same repeated weights
// added in two orders (input order in the reference, increasing weight in
// the Builder): a few roundings of numbers of order one.
const sumTol = 1e-14

// requireSameAsRef compares g with the reference graph; exact asks for
// bitwise equal weights and degrees, otherwise within sumTol.
func requireSameAsRef(t *testing.T, want *refCSR, g *CSR, exact bool, msg ...any) {
	t.Helper()
	require.Equal(t, want.n, g.Nodes(), msg...)
	require.Equal(t, want.indptr, g.indptr, msg...)
	require.Equal(t, want.indices, []int32(g.indices), msg...)
	require.Equal(t, want.selfLoops, g.SelfLoops(), msg...)
	require.Equal(t, want.unitWeights, g.UnitWeights(), msg...)
	if g.UnitWeights() {
		require.Nil(t, g.weights, msg...)
	}
	for i := 0; i < g.n; i++ {
		_, ws := g.Row(i)
		_, rw := want.row(i)
		for k := range ws {
			if exact {
				require.Equal(t, math.Float64bits(rw[k]), math.Float64bits(ws[k]), "row %d entry %d: %v, want %v; %v", i, k, ws[k], rw[k], msg)
			} else {
				require.InDelta(t, rw[k], ws[k], sumTol, "row %d entry %d; %v", i, k, msg)
			}
		}
		if exact {
			require.Equal(t, math.Float64bits(want.degree[i]), math.Float64bits(g.Degree(i)), "degree %d; %v", i, msg)
		} else {
			require.InDelta(t, want.degree[i], g.Degree(i), sumTol*float64(len(ws)+1), "degree %d; %v", i, msg)
		}
	}
}

// drawEdges draws m edges on n nodes with repeats and self loops; kind 0
// gives unit weights, 1 dyadic weights (whose sums are exact in any order,
// zeros of both signs included) and 2 random reals.
func drawEdges(rng *rand.Rand, n, m, kind int) []Edge {
	e := make([]Edge, m)
	for k := range e {
		u, v := rng.IntN(n), rng.IntN(n)
		if k > 0 && rng.IntN(4) == 0 { // a repeat, sometimes reversed
			u, v = e[rng.IntN(k)].U, e[rng.IntN(k)].V
			if rng.IntN(2) == 0 {
				u, v = v, u
			}
		}
		w := 1.0
		switch kind {
		case 1:
			w = float64(rng.IntN(9)) / 4
			if w == 0 && rng.IntN(2) == 0 {
				w = math.Copysign(0, -1)
			}
		case 2:
			w = rng.Float64() * 3
		}
		e[k] = Edge{U: u, V: v, W: w}
	}
	return e
}

// TestBuilderMatchesTripletSort compares FromEdges and FromCOO with the
// triplet-sorting reference on random inputs under every policy: the same
// pattern, weights, degrees, flags and errors.
func TestBuilderMatchesTripletSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	for trial := 0; trial < 60; trial++ {
		n := rng.IntN(30)
		m := 0
		if n > 0 {
			m = rng.IntN(120)
		}
		kind := trial % 3
		edges := drawEdges(rng, max(n, 1), m, kind)
		if n == 0 {
			edges = nil
		}
		rows, cols := make([]int, len(edges)), make([]int, len(edges))
		ws := make([]float64, len(edges))
		for k, e := range edges {
			rows[k], cols[k], ws[k] = e.U, e.V, e.W
		}
		for _, opt := range allOptions() {
			want, wantErr := refFromEdges(n, edges, opt)
			got, err := FromEdges(n, edges, opt)
			if wantErr != nil {
				require.EqualError(t, err, wantErr.Error(), "trial %d %+v", trial, opt)
				continue
			}
			require.NoError(t, err, "trial %d %+v", trial, opt)
			sums := opt.Duplicates == DuplicateSum
			requireSameAsRef(t, want, got, kind != 2 || !sums, "trial", trial, opt)

			var w []float64
			if kind != 0 {
				w = ws
			}
			want, wantErr = refFromCOO(n, rows, cols, w, opt)
			got, err = FromCOO(n, rows, cols, w, opt)
			require.NoError(t, wantErr)
			require.NoError(t, err)
			requireSameAsRef(t, want, got, kind != 2 || !sums, "COO trial", trial, opt)
		}
	}
}

// TestBuilderInvalidInput: the entry errors of the reference, in the same
// order (range and weight errors before self loops, before repeats).
func TestBuilderInvalidInput(t *testing.T) {
	cases := [][]Edge{
		{{0, 3, 1}},
		{{0, 1, math.NaN()}},
		{{0, 1, -1}},
		{{1, 1, 1}, {0, 5, 1}},
		{{0, 1, 1}, {1, 1, 1}, {1, 0, 1}},
		{{0, 1, 1}, {0, 1, 2}, {2, 2, 1}},
	}
	for _, edges := range cases {
		for _, opt := range allOptions() {
			_, wantErr := refFromEdges(3, edges, opt)
			_, err := FromEdges(3, edges, opt)
			if wantErr == nil {
				assert.NoError(t, err, "%v %+v", edges, opt)
			} else {
				assert.EqualError(t, err, wantErr.Error(), "%v %+v", edges, opt)
			}
		}
	}
	_, err := FromEdges(2, nil, Options{Symmetrize: 9})
	assert.ErrorContains(t, err, "unknown symmetrization 9")
	_, err = NewBuilder(-1, false, Options{})
	assert.ErrorContains(t, err, "node count -1")
}

// TestBuilderConcurrentFillIsDeterministic fills a Builder from several
// goroutines with the edges shuffled and cut into chunks of random sizes:
// the graph is bitwise that of FromEdges, also for sums of repeated random
// weights, under every GOMAXPROCS.
func TestBuilderConcurrentFillIsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, m = 300, 5000
	edges := drawEdges(rng, n, m, 2)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, opt := range []Options{
		{Duplicates: DuplicateSum},
		{Duplicates: DuplicateMax, SelfLoops: SelfLoopDrop},
		{Duplicates: DuplicateSum, Symmetrize: DirectedSum},
		{Duplicates: DuplicateSum, Symmetrize: DirectedMean},
		{Duplicates: DuplicateMax, Symmetrize: DirectedMutual},
		{Duplicates: DuplicateMax, Symmetrize: DirectedMax},
	} {
		want, err := FromEdges(n, edges, opt)
		require.NoError(t, err)
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			perm := rng.Perm(m)
			src, dst, w := make([]int32, m), make([]int32, m), make([]float64, m)
			for k, p := range perm {
				src[k], dst[k], w[k] = int32(edges[p].U), int32(edges[p].V), edges[p].W
			}
			var cuts []int
			for k := 0; k < m; k += 1 + rng.IntN(700) {
				cuts = append(cuts, k)
			}
			cuts = append(cuts, m)
			b, err := NewBuilder(n, true, opt)
			require.NoError(t, err)
			for pass := 0; pass < 2; pass++ {
				var wg sync.WaitGroup
				for c := 0; c+1 < len(cuts); c++ {
					lo, hi := cuts[c], cuts[c+1]
					wg.Add(1)
					go func() {
						defer wg.Done()
						if pass == 0 {
							assert.NoError(t, b.CountChunk(src[lo:hi], dst[lo:hi]))
						} else {
							assert.NoError(t, b.FillChunk(src[lo:hi], dst[lo:hi], w[lo:hi]))
						}
					}()
				}
				wg.Wait()
			}
			got, err := b.Build()
			require.NoError(t, err)
			require.Equal(t, want.indptr, got.indptr, "%+v procs %d", opt, procs)
			require.Equal(t, want.indices, got.indices, "%+v procs %d", opt, procs)
			require.Equal(t, len(want.weights), len(got.weights))
			for k := range want.weights {
				require.Equal(t, math.Float64bits(want.weights[k]), math.Float64bits(got.weights[k]), "%+v procs %d entry %d", opt, procs, k)
			}
			for i := range want.degree {
				require.Equal(t, math.Float64bits(want.degree[i]), math.Float64bits(got.degree[i]))
			}
		}
	}
}

// TestBuilderMisuse: a fill that does not match the count is an error, and
// so are entries outside the graph.
func TestBuilderMisuse(t *testing.T) {
	b, err := NewBuilder(3, false, Options{})
	require.NoError(t, err)
	require.NoError(t, b.CountChunk([]int32{0}, []int32{1}))
	assert.ErrorContains(t, b.CountChunk([]int32{0}, []int32{3}), "node 3 out of range [0, 3)")
	b, _ = NewBuilder(3, false, Options{})
	require.NoError(t, b.CountChunk([]int32{0, 1}, []int32{1, 2}))
	require.NoError(t, b.FillChunk([]int32{0}, []int32{1}, nil))
	_, err = b.Build()
	assert.ErrorContains(t, err, "node 1 was counted with 2 entries and filled with 1")

	b, _ = NewBuilder(3, false, Options{})
	require.NoError(t, b.CountChunk([]int32{0}, []int32{1}))
	require.NoError(t, b.FillChunk([]int32{0}, []int32{1}, nil))
	assert.ErrorContains(t, b.FillChunk([]int32{0}, []int32{1}, nil), "is filled with more entries than were counted")
	// A row filled past its count is an error before it reaches the next
	// row's places.
	b, _ = NewBuilder(3, false, Options{})
	require.NoError(t, b.CountChunk([]int32{0, 1}, []int32{1, 2}))
	assert.ErrorContains(t, b.FillChunk([]int32{0, 0}, []int32{1, 1}, nil), "node 0 is filled with more entries than were counted")

	b, _ = NewBuilder(3, true, Options{})
	require.NoError(t, b.CountChunk([]int32{0}, []int32{1}))
	assert.ErrorContains(t, b.FillChunk([]int32{0}, []int32{1}, []float64{math.Inf(1)}), "weight +Inf is not finite")
	assert.Panics(t, func() { _ = b.CountChunk([]int32{0}, []int32{1}) })

	b, _ = NewBuilder(2, false, Options{SelfLoops: SelfLoopError})
	assert.ErrorContains(t, b.CountChunk([]int32{1}, []int32{1}), "self loop on node 1")
	b, _ = NewBuilder(2, false, Options{})
	assert.Panics(t, func() { _ = b.FillChunk([]int32{0}, []int32{1}, []float64{2}) })

	// No edges at all.
	b, _ = NewBuilder(4, false, Options{})
	g, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, 4, g.Nodes())
	assert.Equal(t, 0, g.NNZ())
}

// TestUnitGraphStoresNoWeights: a 0/1 graph holds 4 bytes per entry plus
// row pointers, degrees and one slice of ones, and every reader of weights
// still sees ones.
func TestUnitGraphStoresNoWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 2000
	// Distinct pairs, so that no merge leaves room in the arrays.
	seen := map[[2]int]bool{}
	var edges []Edge
	for _, e := range drawEdges(rng, n, 20000, 0) {
		key := [2]int{min(e.U, e.V), max(e.U, e.V)}
		if !seen[key] {
			seen[key] = true
			edges = append(edges, Edge{U: e.U, V: e.V, W: 1})
		}
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	require.True(t, g.UnitWeights())
	require.Nil(t, g.weights)
	for i := 0; i < n; i++ {
		_, ws := g.Row(i)
		for _, w := range ws {
			require.Equal(t, 1.0, w)
		}
	}
	assert.Equal(t, 8*(n+1)+4*g.NNZ()+8*n, g.Bytes())
	heavy := append([]Edge(nil), edges...)
	heavy[0].W = 2
	w, err := FromEdges(n, heavy, Options{})
	require.NoError(t, err)
	require.False(t, w.UnitWeights())
	assert.Equal(t, 8*(n+1)+12*w.NNZ()+8*n, w.Bytes())

	// Graphs derived from a unit graph stay without weights, or gain them
	// when their weights are no longer all 1.
	p, err := g.Permute(ReverseCuthillMcKee(g))
	require.NoError(t, err)
	assert.Nil(t, p.weights)
	sub, err := g.Induced([]int{5, 3, 9, 100, 7, 4})
	require.NoError(t, err)
	assert.Nil(t, sub.weights)
	half, err := g.MapWeights(func(w float64) float64 { return w / 2 })
	require.NoError(t, err)
	assert.Len(t, half.weights, g.NNZ())
	same, err := g.MapWeights(func(w float64) float64 { return w })
	require.NoError(t, err)
	assert.Nil(t, same.weights)
	for i := 0; i < n; i++ {
		assert.Equal(t, g.Degree(i), same.Degree(i))
		assert.Equal(t, g.Degree(i)/2, half.Degree(i))
	}
}

// TestBuilderMemory builds an undirected 0/1 graph of a million edges with
// a Builder and checks that everything it allocated is at most 1.5 times
// the graph (here: the graph plus the fill cursors).
func TestBuilderMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million-edge graph; skipped with -short")
	}
	t.Run("direct", testBuilderMemory)
	// The entries held by row range, as from 2^22 entries on.
	defer func(v int) { minHeld = v }(minHeld)
	minHeld = 0
	t.Run("held", testBuilderMemory)
}

func testBuilderMemory(t *testing.T) {
	const n, m = 200_000, 1_000_000
	rng := rand.New(rand.NewPCG(9, 9))
	src, dst := make([]int32, m), make([]int32, m)
	for k := range src {
		src[k], dst[k] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, err := NewBuilder(n, false, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	const chunk = 1 << 16
	for lo := 0; lo < m; lo += chunk {
		require.NoError(t, b.CountChunk(src[lo:min(lo+chunk, m)], dst[lo:min(lo+chunk, m)]))
	}
	for lo := 0; lo < m; lo += chunk {
		require.NoError(t, b.FillChunk(src[lo:min(lo+chunk, m)], dst[lo:min(lo+chunk, m)], nil))
	}
	g, err := b.Build()
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("graph %d bytes, construction allocated %d", g.Bytes(), allocated)
	assert.LessOrEqual(t, float64(allocated), 1.5*float64(g.Bytes()))
	assert.Nil(t, g.weights)
}

// TestSlicedBytes: the SELL copy is reported once built, 4 bytes per entry
// plus padding (and the kernels' prefetch pad) and per-slot data for a 0/1
// graph.
func TestSlicedBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	g, err := FromEdges(3000, drawEdges(rng, 3000, 20000, 0), Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	assert.Zero(t, g.SlicedBytes())
	y := make([]float64, g.Nodes())
	g.MulVecTo(y, make([]float64, g.Nodes()))
	if !hasSellAVX2 {
		assert.Zero(t, g.SlicedBytes())
		return
	}
	sl := g.sell.Load()
	require.NotNil(t, sl)
	assert.Nil(t, sl.weights)
	assert.Equal(t, 4*(len(sl.indices)+sellIndexPad)+8*len(sl.off)+8*len(sl.rows), g.SlicedBytes())
	assert.GreaterOrEqual(t, len(sl.indices), g.NNZ())
}

// TestBuilderWideCursors runs the reference comparisons and the error
// checks with the fill cursors of graphs above 2^32 entries (int instead of
// uint32).
// TestBuilderHeld runs the reference and error tests with the fill holding
// entries by row range however few there are (one held entry a range, and
// an eighth of them).
func TestBuilderHeld(t *testing.T) {
	defer func(v, s int) { minHeld, heldShare = v, s }(minHeld, heldShare)
	minHeld = 0
	for _, share := range []int{1 << 30, 8} {
		heldShare = share
		t.Run(fmt.Sprintf("share %d", share), func(t *testing.T) {
			t.Run("triplets", TestBuilderMatchesTripletSort)
			t.Run("invalid", TestBuilderInvalidInput)
			t.Run("concurrent", TestBuilderConcurrentFillIsDeterministic)
			t.Run("misuse", TestBuilderMisuse)
		})
	}
}

func TestBuilderWideCursors(t *testing.T) {
	defer func(v uint64) { maxCursor32 = v }(maxCursor32)
	maxCursor32 = 0
	t.Run("triplets", TestBuilderMatchesTripletSort)
	t.Run("invalid", TestBuilderInvalidInput)
	t.Run("concurrent", TestBuilderConcurrentFillIsDeterministic)
	t.Run("misuse", TestBuilderMisuse)
}
