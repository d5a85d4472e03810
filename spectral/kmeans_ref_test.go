package spectral

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
)

// lloydRef is lloyd before Hamerly's bounds: plain Lloyd, every distance
// in every iteration (assignRef, the assignment step as it was), from the
// seeds of seedCentersRef (the seeding as it was before it assigned the
// rows too), the reference of TestLloydBoundsBitwise. The update is
// lloyd's own (unchanged by the bounds).
func lloydRef(ctx context.Context, x *mat.Dense, k, maxIter int, rng *rand.Rand) (*KMeansResult, error) {
	n, d := x.Dims()
	centers := mat.NewDense(k, d, nil)
	dist := make([]float64, n)
	seedCentersRef(x, centers, dist, rng)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	counts := make([]int, k)
	res := &KMeansResult{Labels: labels, Centers: centers}
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		changed := assignRef(x, centers, labels, dist)
		res.Iterations, res.Moved = it+1, changed
		if changed == 0 && it > 0 {
			res.Converged = true
			break
		}
		sumClusters(x, centers, labels, counts)
		meansOrReseed(x, centers, counts, dist)
	}
	if !res.Converged {
		assignRef(x, centers, labels, dist)
	}
	for _, v := range dist {
		res.Inertia += v
	}
	return res, nil
}

// seedCentersRef draws the k-means++ seeds into the rows of centers as
// seedCenters did before it assigned the rows; dist is scratch of one
// entry per row of x.
func seedCentersRef(x, centers *mat.Dense, dist []float64, rng *rand.Rand) {
	n, _ := x.Dims()
	k, _ := centers.Dims()
	copy(centers.RawRowView(0), x.RawRowView(rng.IntN(n)))
	for i := range dist {
		dist[i] = sqDist(x.RawRowView(i), centers.RawRowView(0))
	}
	for c := 1; c < k; c++ {
		var total float64
		for _, v := range dist {
			total += v
		}
		pick := 0
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range dist {
				u -= v
				if u < 0 {
					pick = i
					break
				}
				pick = i
			}
		} else {
			pick = rng.IntN(n)
		}
		copy(centers.RawRowView(c), x.RawRowView(pick))
		for i := range dist {
			dist[i] = math.Min(dist[i], sqDist(x.RawRowView(i), centers.RawRowView(c)))
		}
	}
}

// assignRef sets each label to the nearest centre (the first on ties) and dist
// to the squared distance; it returns how many labels changed.
func assignRef(x, centers *mat.Dense, labels []int, dist []float64) int {
	n, d := x.Dims()
	k, _ := centers.Dims()
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	changes := make([]int, (n+rowGrain-1)/rowGrain)
	parallel.For(len(changes), 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			for i := ch * rowGrain; i < min(n, (ch+1)*rowGrain); i++ {
				xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
				best, bc := math.Inf(1), 0
				for c := 0; c < k; c++ {
					if dd := sqDist(xi, cr.Data[c*cr.Stride:c*cr.Stride+d]); dd < best {
						best, bc = dd, c
					}
				}
				if labels[i] != bc {
					changes[ch]++
				}
				labels[i], dist[i] = bc, best
			}
		}
	})
	total := 0
	for _, c := range changes {
		total += c
	}
	return total
}

// TestLloydBoundsBitwise: lloyd with Hamerly's bounds gives bitwise the
// labels, centres, inertia, iterations and moves of plain Lloyd (lloydRef,
// the code before the bounds) on blobs, unit rows (the spectral
// embedding's), integer points with ties and duplicates, data that empties
// clusters, and runs stopped at MaxIter, for several seeds.
func TestLloydBoundsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	blobs := func(n, d, c int, spread float64) *mat.Dense {
		x := mat.NewDense(n, d, nil)
		centres := make([]float64, c*d)
		for i := range centres {
			centres[i] = 4 * rng.NormFloat64()
		}
		for i := 0; i < n; i++ {
			g := rng.IntN(c)
			for j := 0; j < d; j++ {
				x.Set(i, j, centres[g*d+j]+spread*rng.NormFloat64())
			}
		}
		return x
	}
	unit := blobs(800, 7, 7, 3)
	normalizeRows(unit)
	ties := mat.NewDense(300, 2, nil)
	for i := 0; i < 300; i++ {
		ties.Set(i, 0, float64(rng.IntN(4)))
		ties.Set(i, 1, float64(rng.IntN(3)))
	}
	dup := mat.NewDense(60, 3, nil) // 50 copies of one row and 10 others: clusters empty
	for i := 50; i < 60; i++ {
		for j := 0; j < 3; j++ {
			dup.Set(i, j, rng.NormFloat64())
		}
	}
	cases := []struct {
		name    string
		x       *mat.Dense
		k, iter int
	}{
		{"blobs", blobs(1000, 3, 5, 1), 5, 300}, {"overlapping", blobs(1000, 4, 6, 4), 8, 300},
		{"unit", unit, 7, 300}, {"many", blobs(600, 5, 10, 2), 20, 300}, {"ties", ties, 4, 300},
		{"dup", dup, 8, 300}, {"one", blobs(50, 2, 1, 1), 1, 300}, {"capped", blobs(1000, 4, 6, 4), 8, 2},
	}
	for r := 0; r < 20; r++ { // few rows for many centres: clusters empty in later iterations
		cases = append(cases, struct {
			name    string
			x       *mat.Dense
			k, iter int
		}{fmt.Sprintf("crowded %d", r), blobs(40, 2, 3, 1), 15, 300})
	}
	defer setAssignPath("scan")
	for _, path := range assignPaths {
		setAssignPath(path)
		for _, c := range cases {
			n, d := c.x.Dims()
			reused := newLloydWork(n, c.k, d, lloydConfig{k: c.k}) // as bestRestart reuses a lost run's storage
			for seed := uint64(0); seed < 6; seed++ {
				for variant := 0; variant < 3; variant++ {
					rows := variant == 1
					cfg := lloydConfig{k: c.k, maxIter: c.iter, slack: boundSlack(c.x), parallelRows: rows}
					if variant == 2 { // the seeding on transposed rows
						cfg.xt = transposeRows(c.x)
					}
					got, err := lloyd(context.Background(), c.x, cfg, rand.New(rand.NewPCG(seed, 9)))
					require.NoError(t, err)
					want, err := lloydRef(context.Background(), c.x, c.k, c.iter, rand.New(rand.NewPCG(seed, 9)))
					require.NoError(t, err)
					requireSameRun(t, want, got, "%s seed %d %s variant %d", c.name, seed, path, variant)
					reused.reset(cfg)
					got, err = lloydWith(context.Background(), c.x, cfg, rand.New(rand.NewPCG(seed, 9)), reused)
					require.NoError(t, err)
					requireSameRun(t, want, got, "%s seed %d %s variant %d, reused storage", c.name, seed, path, variant)
				}
			}
		}
	}
}

// assignPaths are the ways the assignment step compares a row that fails
// Hamerly's test with the centres: all at once (scanRow), one by one
// behind Elkan's test (nearest), one by one without it.
var assignPaths = []string{"scan", "elkan", "plain"}

var defaultScanCentres, defaultPairedCentres = maxScanCentres, maxPairedCentres

// setAssignPath makes the assignment step take one of assignPaths for
// every k ≥ 1 ("scan": the defaults).
func setAssignPath(path string) {
	maxScanCentres, maxPairedCentres = defaultScanCentres, defaultPairedCentres
	switch path {
	case "elkan":
		maxScanCentres = 0
	case "plain":
		maxScanCentres, maxPairedCentres = 0, 0
	}
}

// requireSameRun checks that two k-means results are bitwise the same.
func requireSameRun(t *testing.T, want, got *KMeansResult, msg string, args ...any) {
	t.Helper()
	m := fmt.Sprintf(msg, args...)
	require.Equal(t, want.Labels, got.Labels, m)
	require.True(t, mat.Equal(want.Centers, got.Centers), m)
	require.Equal(t, math.Float64bits(want.Inertia), math.Float64bits(got.Inertia), m)
	require.Equal(t, [3]any{want.Iterations, want.Moved, want.Converged}, [3]any{got.Iterations, got.Moved, got.Converged}, m)
}

// kmeansRef is KMeans on lloydRef: the restarts one after the other, the
// smallest inertia winning (the first on ties).
func kmeansRef(x *mat.Dense, k int, s KMeansSettings) *KMeansResult {
	var best *KMeansResult
	for r := 0; r < s.Restarts; r++ {
		run, err := lloydRef(context.Background(), x, k, DefaultKMeansMaxIter, rand.New(rand.NewPCG(s.Seed, uint64(r))))
		if err != nil {
			panic(err)
		}
		if best == nil || run.Inertia < best.Inertia {
			best = run
		}
	}
	return best
}

// TestKMeansSpectralEmbeddingsBitwise: on the spectral embeddings gssl
// cluster --lcc clusters (Cora's and Amazon Photo's largest components),
// KMeans gives bitwise the result of plain Lloyd over the same restarts
// (kmeansRef), under GOMAXPROCS 1, 2 and 8 and with restarts in parallel
// (10) or one after the other with the rows split (1): the result does not
// depend on the number of cores.
func TestKMeansSpectralEmbeddingsBitwise(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, name := range []string{"cora", "amazon_photo"} {
		ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, name))
		require.NoError(t, err)
		sub, err := ds.Graph.LargestComponent()
		require.NoError(t, err)
		r, err := LaplacianEigs(context.Background(), sub.CSR, laplacian.Symmetric, laplacian.Options{}, ds.Classes, Settings{})
		require.NoError(t, err)
		u := mat.DenseCopyOf(r.Vectors)
		normalizeRows(u)
		for _, s := range []KMeansSettings{{Restarts: DefaultKMeansRestarts, Seed: 0}, {Restarts: 1, Seed: 5}, {Restarts: 3, Seed: 2}} {
			want := kmeansRef(u, ds.Classes, s)
			for _, procs := range []int{1, 2, 8} {
				runtime.GOMAXPROCS(procs)
				got, err := KMeans(context.Background(), u, ds.Classes, s)
				require.NoError(t, err)
				requireSameRun(t, want, got, "%s %+v GOMAXPROCS %d", name, s, procs)
			}
		}
	}
}

// TestNearestAgainstBruteForce: bounds.nearest, from any starting centre,
// returns the first nearest centre and its squared distance as a scan of
// every centre does, and a lower bound on the distance to every other
// centre, on integer points and centres (many exact ties), with and without
// Elkan's test.
func TestNearestAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	defer setAssignPath("scan")
	for _, path := range assignPaths[1:] {
		setAssignPath(path)
		for trial := 0; trial < 200; trial++ {
			k, d := 1+rng.IntN(9), 1+rng.IntN(3)
			centers := mat.NewDense(k, d, nil)
			for c := 0; c < k; c++ {
				for j := 0; j < d; j++ {
					centers.Set(c, j, float64(rng.IntN(5)))
				}
			}
			x := mat.NewDense(1, d, nil)
			b := newBounds(1, k, d, lloydConfig{k: k, slack: 1e-9 * 8})
			b.centreDistances(centers)
			for p := 0; p < 20; p++ {
				for j := 0; j < d; j++ {
					x.Set(0, j, float64(rng.IntN(5)))
				}
				xi := x.RawRowView(0)
				wantC, wantD, second := bruteNearest(xi, centers)
				a := rng.IntN(k)
				c, dd, lower := b.nearest(xi, centers.RawMatrix(), a, sqDist(xi, centers.RawRowView(a)))
				require.Equal(t, [2]any{wantC, wantD}, [2]any{c, dd}, "trial %d start %d %s", trial, a, path)
				require.LessOrEqual(t, lower, math.Sqrt(second)+1e-12, "trial %d start %d %s", trial, a, path)
			}
		}
	}
}

// bruteNearest returns the first nearest row of centers to xi, its squared
// distance and the second smallest squared distance (+Inf for one row),
// comparing with every row in turn.
func bruteNearest(xi []float64, centers *mat.Dense) (int, float64, float64) {
	k, _ := centers.Dims()
	near, best, second := 0, math.Inf(1), math.Inf(1)
	for c := 0; c < k; c++ {
		if dd := sqDist(xi, centers.RawRowView(c)); dd < best {
			near, best, second = c, dd, best
		} else if dd < second {
			second = dd
		}
	}
	return near, best, second
}

// TestScanRowAgainstBruteForce: scanRow on the centres as packCentres packs
// them returns bitwise what comparing with every centre in turn does (the
// first nearest, its squared distance, the second smallest), for k below,
// at and above multiples of scanBlock (the padding), on integer points and
// centres (many exact ties, duplicate centres) and on Gaussian ones.
func TestScanRowAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	for trial := 0; trial < 400; trial++ {
		k, d := 1+rng.IntN(3*scanBlock+2), 1+rng.IntN(9)
		integer := trial%2 == 0
		draw := func() float64 {
			if integer {
				return float64(rng.IntN(4))
			}
			return rng.NormFloat64()
		}
		centers := mat.NewDense(k, d, nil)
		for c := 0; c < k; c++ {
			for j := 0; j < d; j++ {
				centers.Set(c, j, draw())
			}
		}
		b := newBounds(1, k, d, lloydConfig{k: k})
		require.NotNil(t, b.packed, "k = %d", k)
		b.packCentres(centers)
		xi := make([]float64, d)
		for p := 0; p < 20; p++ {
			for j := range xi {
				xi[j] = draw()
			}
			wantC, wantD, wantS := bruteNearest(xi, centers)
			c, dd, second := scanRow(xi, b.packed, k)
			require.Equal(t, wantC, c, "trial %d k %d d %d", trial, k, d)
			require.Equal(t, math.Float64bits(wantD), math.Float64bits(dd), "trial %d k %d d %d", trial, k, d)
			require.Equal(t, math.Float64bits(wantS), math.Float64bits(second), "trial %d k %d d %d", trial, k, d)
		}
	}
}

// BenchmarkLloydAssignPaths times three k-means restarts on 5 000 unit rows
// in k dimensions (Gaussian blobs around k centres, rows normalised as in
// spectral clustering) by each of assignPaths but the plain one: the scan
// against Elkan's test, the choice maxScanCentres makes.
func BenchmarkLloydAssignPaths(b *testing.B) {
	for _, k := range []int{8, 16, 32, 64} {
		rng := rand.New(rand.NewPCG(1, 2))
		const n = 5000
		centres := make([]float64, k*k)
		for i := range centres {
			centres[i] = rng.NormFloat64()
		}
		x := mat.NewDense(n, k, nil)
		for i := 0; i < n; i++ {
			g := rng.IntN(k)
			for j := 0; j < k; j++ {
				x.Set(i, j, centres[g*k+j]+0.5*rng.NormFloat64())
			}
		}
		normalizeRows(x)
		for _, path := range assignPaths[:2] {
			b.Run(fmt.Sprintf("k=%d/%s", k, path), func(b *testing.B) {
				defer setAssignPath("scan")
				setAssignPath(path)
				if path == "scan" {
					maxScanCentres = k
				}
				cfg := lloydConfig{k: k, maxIter: DefaultKMeansMaxIter, slack: boundSlack(x)}
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					for r := 0; r < 3; r++ {
						if _, err := lloyd(context.Background(), x, cfg, rand.New(rand.NewPCG(0, uint64(r)))); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
