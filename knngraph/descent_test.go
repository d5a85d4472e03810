package knngraph

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/stretchr/testify/require"
)

// recall is |approx ∩ exact|/k averaged over rows, counting an approximate
// neighbour at distance ≤ the exact k-th distance as correct (ties), as
// shared/bench/peers/knn.py does.
func recall(approx, exact *Neighbors) float64 {
	hits := 0
	for i := 0; i < exact.N; i++ {
		_, ed := exact.Row(i)
		_, ad := approx.Row(i)
		for _, d := range ad {
			if d <= ed[len(ed)-1] {
				hits++
			}
		}
	}
	return float64(hits) / float64(exact.N*exact.K)
}

func TestApproximateRecallMNIST(t *testing.T) {
	const n, k = 5000, 10
	x := readImages(t, "mnist", n, 784)
	exact, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	iters := 0
	approx, err := Approximate(context.Background(), x, k, &Descent{Seed: 1, Progress: func(it, u int) { iters = it; t.Logf("iteration %d: %d updates", it, u) }})
	require.NoError(t, err)
	r := recall(approx, exact)
	t.Logf("recall@%d = %.4f after %d iterations", k, r, iters)
	require.GreaterOrEqual(t, r, 0.95)
}

// TestApproximateStorages runs NN-descent on the three storages of the
// points (bytes, with constant columns left out and the others reordered;
// small integers in float32; real numbers in float32) and checks each
// against the exact search by brute force: the reported distances are
// SquaredDistance's bit for bit, rows are sorted, recall is high, and the
// result is the same on one and on four goroutines.
func TestApproximateStorages(t *testing.T) {
	const n, d, k = 2000, 40, 8
	rng := rand.New(rand.NewPCG(21, 22))
	// Points near a 3-dimensional subspace (as images are near a
	// low-dimensional manifold), in three codings.
	latent := randomPoints(rng, n, 3, 0)
	mix := randomPoints(rng, 3, d, 0)
	var y mat.Dense
	y.Mul(latent, mix)
	code := func(scale, shift float64, round bool) *mat.Dense {
		x := mat.NewDense(n, d, nil)
		x.Apply(func(i, j int, v float64) float64 {
			v = v*scale + shift + rng.NormFloat64()
			if round {
				v = math.Round(v)
			}
			return v
		}, &y)
		return x
	}
	bytes := code(12, 128, true)
	bytes.Apply(func(_, _ int, v float64) float64 { return min(max(v, 0), 255) }, bytes)
	for i := 0; i < n; i++ {
		bytes.Set(i, 3, 7) // constant columns: left out of the byte copy
		bytes.Set(i, 17, 0)
		bytes.Set(i, 30, 255)
	}
	ints := code(300, 0, true) // beyond bytes, within ±exactIntLimit
	ints.Apply(func(_, _ int, v float64) float64 { return min(max(v, -exactIntLimit), exactIntLimit) }, ints)
	reals := code(1, 0, false)
	for name, x := range map[string]*mat.Dense{"bytes": bytes, "integers": ints, "reals": reals} {
		nd := newDescentState(x, n, d, k)
		require.Equal(t, name == "bytes", nd.u8 != nil, name)
		require.Equal(t, name != "reals", nd.exactInt, name)
		run := func(procs int) *Neighbors {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			nb, err := Approximate(context.Background(), x, k, &Descent{Seed: 9})
			require.NoError(t, err)
			return nb
		}
		a, b := run(1), run(4)
		require.Equal(t, a.Index, b.Index, name)
		require.Equal(t, a.Dist2, b.Dist2, name)
		if name == "bytes" {
			c := approximateBytes(t, x, k, &Descent{Seed: 9})
			require.Equal(t, a.Index, c.Index, "ApproximateBytes")
			require.Equal(t, a.Dist2, c.Dist2, "ApproximateBytes")
		}
		exact := bruteForceAll(x, k)
		t.Logf("%s: recall %.4f", name, recall(a, exact))
		require.GreaterOrEqual(t, recall(a, exact), 0.95, name)
		for i := 0; i < n; i++ {
			idx, d2 := a.Row(i)
			for p, j := range idx {
				require.NotEqual(t, int32(i), j, name)
				require.Equal(t, SquaredDistance(x.RawRowView(i), x.RawRowView(int(j))), d2[p], "%s: row %d", name, i)
				if p > 0 {
					require.True(t, less(d2[p-1], idx[p-1], d2[p], idx[p]), "%s: row %d", name, i)
				}
			}
		}
	}
}

// bruteForceAll is bruteForce for every row of x, itself excluded.
func bruteForceAll(x *mat.Dense, k int) *Neighbors {
	n, _ := x.Dims()
	nb := newNeighbors(n, k)
	for i := 0; i < n; i++ {
		j, d := bruteForce(x, x.RawRowView(i), i, k)
		idx, d2 := nb.Row(i)
		copy(idx, j)
		copy(d2, d)
	}
	return nb
}

// TestByVariance: a byte scan leaves constant columns out (min = max) and
// orders the others by decreasing variance, ties by column; a column that is
// not bytes leaves no byte copy.
func TestByVariance(t *testing.T) {
	x := mat.NewDense(5, 4, []float64{
		255, 0, 5, 1,
		255, 2, 5, 1,
		255, 0, 5, 3,
		255, 2, 5, 1,
		254, 0, 5, 1,
	})
	sc := scanPoints(x.RawMatrix(), 5, 4, true)
	require.True(t, sc.byteValued && sc.integer)
	require.Equal(t, []int{1, 3, 0}, sc.byVariance())
	require.Equal(t, []uint8{255, 0, 5, 1, 255, 2, 5, 1}, sc.bytes[:8])
	sb := scanBytes(sc.bytes, 5, 4)
	require.Equal(t, []int{1, 3, 0}, sb.byVariance())
	// Many chunks, constant columns among varying ones: the integer scan
	// orders the columns as the float64 scan does.
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 40000, 9
	b := make([]uint8, n*d)
	for i := range n {
		for j := range d {
			b[i*d+j] = uint8(rng.IntN(1 + 40*j))
		}
		b[i*d+4], b[i*d+7] = 9, 0
	}
	b[77*d+7] = 1 // column 7 is constant but for one row
	y := mat.NewDense(n, d, nil)
	for i, v := range b {
		y.RawMatrix().Data[i] = float64(v)
	}
	sy, sb := scanPoints(y.RawMatrix(), n, d, true), scanBytes(b, n, d)
	want := sy.byVariance()
	require.Equal(t, []int{8, 6, 5, 3, 2, 1, 7}, want)
	require.Equal(t, want, sb.byVariance())
	x.Set(3, 2, 256)
	sc = scanPoints(x.RawMatrix(), 5, 4, true)
	require.True(t, !sc.byteValued && sc.integer && sc.bytes == nil)
	x.Set(1, 1, 0.5)
	sc = scanPoints(x.RawMatrix(), 5, 4, true)
	require.False(t, sc.integer)
}

// approximateBytes runs ApproximateBytes on the byte-valued rows of x.
func approximateBytes(t *testing.T, x *mat.Dense, k int, s *Descent) *Neighbors {
	t.Helper()
	n, d := x.Dims()
	b := make([]uint8, n*d)
	for i := range n {
		for j := range d {
			b[i*d+j] = uint8(x.At(i, j))
		}
	}
	nb, err := ApproximateBytes(context.Background(), b, d, k, s)
	require.NoError(t, err)
	return nb
}

// TestApproximateBytesMNIST: the byte entry point returns what Approximate
// returns for the same images as float64, bit for bit, on one and on four
// goroutines, also when the lists are seeded at random only and when the
// images are wider than the byte kernels take (a float32 search).
func TestApproximateBytesMNIST(t *testing.T) {
	const n, k = 3000, 10
	x := readImages(t, "mnist", n, 784)
	for _, s := range []Descent{{Seed: 3}, {Seed: 4, Trees: -1}} {
		want, err := Approximate(context.Background(), x, k, &s)
		require.NoError(t, err)
		for _, procs := range []int{1, 4} {
			prev := runtime.GOMAXPROCS(procs)
			got := approximateBytes(t, x, k, &s)
			runtime.GOMAXPROCS(prev)
			require.Equal(t, want.Index, got.Index, "trees %d, %d goroutines", s.Trees, procs)
			require.Equal(t, want.Dist2, got.Dist2, "trees %d, %d goroutines", s.Trees, procs)
		}
	}
	wide := mat.NewDense(40, maxByteDim+32, nil)
	wide.Apply(func(i, j int, _ float64) float64 { return float64((i*7 + j*j) % 256) }, wide)
	want, err := Approximate(context.Background(), wide, 3, &Descent{Seed: 5})
	require.NoError(t, err)
	got := approximateBytes(t, wide, 3, &Descent{Seed: 5})
	require.Equal(t, want.Index, got.Index)
	require.Equal(t, want.Dist2, got.Dist2)
}

// TestSharesLeaf checks the four-trees-at-once comparison of leaf keys
// against the leaf numbers compared one by one, for every prefix of the
// trees, with leaf numbers below 2¹⁶ and beyond (where different leaves
// share a key and the numbers decide).
func TestSharesLeaf(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ n, trees, leaf int }{{3000, 5, 7}, {3000, 8, 3}, {70000, 6, 1}} {
		perms, ends := make([][]int32, c.trees), make([][]int, c.trees)
		leafOf := make([][]int, c.trees)
		for tr := range c.trees {
			perms[tr] = make([]int32, c.n)
			for i, p := range rng.Perm(c.n) {
				perms[tr][i] = int32(p)
			}
			leafOf[tr] = make([]int, c.n)
			ends[tr] = []int{0}
			for lo := 0; lo < c.n; {
				hi := min(c.n, lo+1+rng.IntN(c.leaf))
				for _, i := range perms[tr][lo:hi] {
					leafOf[tr][i] = len(ends[tr])
				}
				ends[tr] = append(ends[tr], hi)
				lo = hi
			}
		}
		nd := newLists(c.n, 2)
		nd.setLeaves(c.trees, func(tr int) ([]int32, []int) { return perms[tr], ends[tr] })
		require.Equal(t, c.n < 1<<16, nd.leafExact)
		pairs := [][2]int32{}
		for range 20000 {
			pairs = append(pairs, [2]int32{int32(rng.IntN(c.n)), int32(rng.IntN(c.n))})
		}
		for p := 0; p+1<<16 < c.n; p += 97 { // leaves 2¹⁶ apart: the same key in tree 0
			pairs = append(pairs, [2]int32{perms[0][p], perms[0][p+1<<16]})
		}
		for _, i := range perms[1][:200] { // pairs that share a leaf of tree 1
			pairs = append(pairs, [2]int32{i, perms[1][ends[1][leafOf[1][i]]-1]})
		}
		shared := 0
		for _, pr := range pairs {
			for trees := 0; trees <= c.trees; trees++ {
				want := false
				for tr := range trees {
					want = want || leafOf[tr][pr[0]] == leafOf[tr][pr[1]]
				}
				require.Equal(t, want, nd.sharesLeaf(pr[0], pr[1], trees), "n %d, points %v, first %d trees", c.n, pr, trees)
				if want {
					shared++
				}
			}
		}
		require.Positive(t, shared)
	}
}

// TestInsert checks insert against the plain rule on lists with many equal
// distances: b enters a list that does not name it when the list is not full
// or d is below its largest distance, in place of the first entry at that
// distance; the largest distance left is the list's worst.
func TestInsert(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, L = 40, 5
	nd := newLists(n, L)
	type ref struct {
		idx  []int32
		dist []float32
	}
	want := make([]ref, n)
	for trial := range 20000 {
		a, b := int32(rng.IntN(n)), int32(rng.IntN(n))
		d := float32(rng.IntN(6)) // ties everywhere
		got := nd.insert(a, b, d)
		r := &want[a]
		ok := a != b && !slices.Contains(r.idx, b)
		if ok && len(r.idx) == L {
			w := 0
			for p, v := range r.dist {
				if v > r.dist[w] {
					w = p
				}
			}
			if ok = d < r.dist[w]; ok {
				r.idx[w], r.dist[w] = b, d
			}
		} else if ok {
			r.idx, r.dist = append(r.idx, b), append(r.dist, d)
		}
		require.Equal(t, ok, got, "trial %d", trial)
		c := int(nd.count[a])
		list := nd.list[int(a)*L : int(a)*L+c]
		for p, e := range list {
			require.Equal(t, r.idx[p], e.idx, "trial %d", trial)
			require.Equal(t, r.dist[p], e.dist, "trial %d", trial)
		}
		if c == L {
			require.Equal(t, slices.Max(r.dist), nd.worst[a], "trial %d", trial)
		}
	}
}

// TestReversePositions checks the reverse lists, filed by chunks in
// parallel, against one serial pass, at several list counts and goroutines.
func TestReversePositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 7, 100, 1001} {
		const L = 3
		list := make([]entry, n*L)
		for p := range list {
			list[p].idx = int32(rng.IntN(n))
		}
		want := make([][]int32, n)
		for p, e := range list {
			want[e.idx] = append(want[e.idx], int32(p))
		}
		for _, procs := range []int{1, 3} {
			prev := runtime.GOMAXPROCS(procs)
			r := reversePositions(n, L, list, csr{})
			r = reversePositions(n, L, list, r) // reused memory
			runtime.GOMAXPROCS(prev)
			for j := range n {
				require.Equal(t, len(want[j]), r.ptr[j+1]-r.ptr[j], "n %d, point %d", n, j)
				if len(want[j]) > 0 {
					require.Equal(t, want[j], r.adj[r.ptr[j]:r.ptr[j+1]], "n %d, point %d", n, j)
				}
			}
		}
	}
}

// TestTreeLeafJoins checks the lists that the random-projection trees seed
// (their leaves joined in parallel, each inserting into its points' lists
// directly) against brute force: each list holds the L smallest distances
// to the points that share a leaf of some tree with its point, on one and
// on two goroutines.
func TestTreeLeafJoins(t *testing.T) {
	const n, d, L, trees, leafSize = 1500, 784, 12, 6, 20
	x := readImages(t, "mnist", n, d)
	b := make([]uint8, n*d)
	for i, v := range x.RawMatrix().Data {
		b[i] = uint8(v)
	}
	for _, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		nd := newByteState(scanBytes(b, n, d), L)
		err := nd.initTrees(context.Background(), 9, trees, leafSize)
		runtime.GOMAXPROCS(prev)
		require.NoError(t, err)
		for i := range n {
			var want []float64
			for j := range n {
				if j != i && nd.sharesLeaf(int32(i), int32(j), trees) {
					want = append(want, SquaredDistance(x.RawRowView(i), x.RawRowView(j)))
				}
			}
			slices.Sort(want)
			want = want[:min(L, len(want))]
			var got []float64
			for _, e := range nd.list[i*L : i*L+int(nd.count[i])] {
				got = append(got, float64(e.dist))
			}
			slices.Sort(got)
			require.Equal(t, want, got, "point %d, %d goroutines", i, procs)
		}
	}
}
