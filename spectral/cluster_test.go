package spectral

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"

	"github.com/gssl/gssl/estimator"
)

// bruteForceInertia returns the smallest k-means objective over all
// assignments of the rows of x to k clusters.
func bruteForceInertia(x *mat.Dense, k int) float64 {
	n, d := x.Dims()
	labels := make([]int, n)
	best := math.Inf(1)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			sum := make([][]float64, k)
			cnt := make([]int, k)
			for c := range sum {
				sum[c] = make([]float64, d)
			}
			for r, c := range labels {
				cnt[c]++
				for j := 0; j < d; j++ {
					sum[c][j] += x.At(r, j)
				}
			}
			var in float64
			for r, c := range labels {
				for j := 0; j < d; j++ {
					m := sum[c][j] / float64(cnt[c])
					in += (x.At(r, j) - m) * (x.At(r, j) - m)
				}
			}
			best = math.Min(best, in)
			return
		}
		for c := 0; c < k; c++ {
			labels[i] = c
			rec(i + 1)
		}
	}
	rec(0)
	return best
}

func TestKMeansAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	// inertiaTol: the objective is a sum of ~20 squared distances of order
	// one; the optimum found by both sides is the same partition.
	const inertiaTol = 1e-12
	for trial := 0; trial < 4; trial++ {
		x := mat.NewDense(9, 2, nil)
		x.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, x)
		for _, k := range []int{2, 3} {
			r, err := KMeans(context.Background(), x, k, KMeansSettings{Restarts: 20, Seed: uint64(trial)})
			require.NoError(t, err)
			require.InDelta(t, bruteForceInertia(x, k), r.Inertia, inertiaTol)
			checkLloydFixedPoint(t, x, r)
		}
	}
}

// checkLloydFixedPoint asserts that every row is assigned to its nearest
// centre and every centre is the mean of its rows.
func checkLloydFixedPoint(t *testing.T, x *mat.Dense, r *KMeansResult) {
	n, d := x.Dims()
	k, _ := r.Centers.Dims()
	require.True(t, r.Converged)
	sum := mat.NewDense(k, d, nil)
	cnt := make([]int, k)
	var inertia float64
	for i := 0; i < n; i++ {
		xi := x.RawRowView(i)
		own := sqDist(xi, r.Centers.RawRowView(r.Labels[i]))
		for c := 0; c < k; c++ {
			require.LessOrEqual(t, own, sqDist(xi, r.Centers.RawRowView(c))+1e-12)
		}
		inertia += own
		cnt[r.Labels[i]]++
		for j := 0; j < d; j++ {
			sum.Set(r.Labels[i], j, sum.At(r.Labels[i], j)+xi[j])
		}
	}
	for c := 0; c < k; c++ {
		require.Positive(t, cnt[c])
		for j := 0; j < d; j++ {
			require.InDelta(t, sum.At(c, j)/float64(cnt[c]), r.Centers.At(c, j), 1e-12)
		}
	}
	require.InDelta(t, inertia, r.Inertia, 1e-9)
}

func TestKMeansErrorsAndDeterminism(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(5, 2, []float64{0, 0, 1, 1, 2, 2, 10, 10, 11, 11})
	_, err := KMeans(ctx, x, 0, KMeansSettings{})
	require.ErrorContains(t, err, "k = 0 is invalid: it must lie in [1, 5]")
	_, err = KMeans(ctx, x, 6, KMeansSettings{})
	require.ErrorContains(t, err, "k = 6 is invalid")
	_, err = KMeans(ctx, x, 2, KMeansSettings{Restarts: -1})
	require.ErrorContains(t, err, "Restarts = -1 is invalid")
	bad := mat.DenseCopyOf(x)
	bad.Set(3, 1, math.Inf(1))
	_, err = KMeans(ctx, bad, 2, KMeansSettings{})
	require.ErrorContains(t, err, "x[3, 1] = +Inf is not finite")
	_, err = KMeans(ctx, &mat.Dense{}, 2, KMeansSettings{})
	require.ErrorContains(t, err, "no data")
	a, err := KMeans(ctx, x, 2, KMeansSettings{Seed: 9})
	require.NoError(t, err)
	b, err := KMeans(ctx, x, 2, KMeansSettings{Seed: 9})
	require.NoError(t, err)
	require.Equal(t, a.Labels, b.Labels)
	require.Equal(t, a.Labels[0], a.Labels[2])
	require.NotEqual(t, a.Labels[0], a.Labels[3])
}

// plantedPartition returns a graph of c blocks of size s with edge
// probability pin inside blocks and pout across, and the block of each node.
func plantedPartition(rng *rand.Rand, c, s int, pin, pout float64) (*graph.CSR, []int) {
	n := c * s
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i / s
	}
	var e []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := pout
			if truth[i] == truth[j] {
				p = pin
			}
			if rng.Float64() < p {
				e = append(e, graph.Edge{U: i, V: j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g, truth
}

// samePartition reports whether two labelings define the same partition.
func samePartition(a, b []int) bool {
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if x, ok := ba[b[i]]; ok && x != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

func TestSpectralClusteringPlantedPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	g, truth := plantedPartition(rng, 4, 60, 0.3, 0.01)
	sc := &SpectralClustering{Clusters: 4, KMeans: KMeansSettings{Seed: 1}}
	require.NoError(t, sc.Fit(context.Background(), estimator.Nodes{Graph: g}))
	require.True(t, samePartition(truth, sc.Labels()))
	// The eigenvalues are those of the dense L_sym.
	op, _ := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	require.InDeltaSlice(t, denseSpectrum(t, op)[:4], sc.Eigenvalues(), valueTol)
	// Rows of the embedding have unit length.
	u := sc.Embedding()
	for i := 0; i < g.Nodes(); i++ {
		require.InDelta(t, 1, mat.Norm(u.RowView(i), 2), 1e-12)
	}
}

func TestSpectralClusteringComponents(t *testing.T) {
	// Three components and k = 3: the clusters are the components.
	rng := rand.New(rand.NewPCG(53, 54))
	var e []graph.Edge
	off := 0
	for _, s := range []int{30, 200, 45} {
		r := randomGraph(rng, s, s)
		r.ForEachEdge(func(u, v int, w float64) { e = append(e, graph.Edge{U: off + u, V: off + v, W: w}) })
		off += s
	}
	g, _ := graph.FromEdges(off, e, graph.Options{})
	comp, _ := g.Components()
	sc := &SpectralClustering{Clusters: 3}
	require.NoError(t, sc.Fit(context.Background(), estimator.Nodes{Graph: g}))
	require.True(t, samePartition(comp, sc.Labels()))
	require.Equal(t, []float64{0, 0, 0}, sc.Eigenvalues())
}

func TestSpectralClusteringErrors(t *testing.T) {
	g, _ := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}}, graph.Options{})
	ctx := context.Background()
	require.ErrorContains(t, (&SpectralClustering{}).Fit(ctx, estimator.Nodes{Graph: g}), "Clusters = 0 is invalid")
	require.ErrorContains(t, (&SpectralClustering{Clusters: 4}).Fit(ctx, estimator.Nodes{Graph: g}), "Clusters = 4 is invalid: the graph has 3 nodes")
	require.ErrorContains(t, (&SpectralClustering{Clusters: 2, Isolated: laplacian.IsolatedError}).Fit(ctx, estimator.Nodes{Graph: g}), "node 2 has degree 0")
	sc := &SpectralClustering{Clusters: 2, Isolated: laplacian.IsolatedZero}
	require.NoError(t, sc.Fit(ctx, estimator.Nodes{Graph: g}))
	require.Len(t, sc.Labels(), 3)
	// By default the isolated node is a component, hence a cluster.
	sc = &SpectralClustering{Clusters: 2}
	require.NoError(t, sc.Fit(ctx, estimator.Nodes{Graph: g}))
	require.Equal(t, []float64{0, 0}, sc.Eigenvalues())
	require.Equal(t, sc.Labels()[0], sc.Labels()[1])
	require.NotEqual(t, sc.Labels()[0], sc.Labels()[2])
	require.ErrorContains(t, (&SpectralClustering{Clusters: 2, Isolated: 7}).Fit(ctx, estimator.Nodes{Graph: g}), "Isolated = 7 is invalid")
}

func TestLaplacianEigenmapAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	g := randomGraph(rng, 250, 500)
	e := &LaplacianEigenmap{Dim: 3, Eigen: Settings{Tol: solveTol}}
	require.NoError(t, e.Fit(context.Background(), estimator.Nodes{Graph: g}))
	// Dense reference: L_un f = λ D f through D^{-1/2} L_un D^{-1/2} = L_sym.
	sym, _ := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	d := sym.Dense()
	s := mat.NewSymDense(250, nil)
	for i := 0; i < 250; i++ {
		for j := i; j < 250; j++ {
			s.SetSym(i, j, (d.At(i, j)+d.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(s, true))
	vals := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	deg := g.Degrees()
	want := mat.NewDense(250, 3, nil)
	for l := 0; l < 3; l++ {
		for i := 0; i < 250; i++ {
			want.Set(i, l, v.At(i, l+1)/math.Sqrt(deg[i]))
		}
	}
	fixSigns(want) // the same sign rule, applied to the reference
	require.InDeltaSlice(t, vals[1:4], e.Eigenvalues(), valueTol)
	require.True(t, mat.EqualApprox(want, e.Coordinates(), 1e-8))
	// Generalised eigen-equation L_un f = λ D f, independently.
	un, _ := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	f := make([]float64, 250)
	lf := make([]float64, 250)
	for l := 0; l < 3; l++ {
		mat.Col(f, l, e.Coordinates())
		un.MulVecTo(lf, f)
		for i := range f {
			require.InDelta(t, e.Eigenvalues()[l]*deg[i]*f[i], lf[i], 1e-9)
		}
	}
	require.ErrorContains(t, (&LaplacianEigenmap{Dim: -1}).Fit(context.Background(), estimator.Nodes{Graph: g}), "Dim = -1 is invalid")
	require.ErrorContains(t, (&LaplacianEigenmap{Dim: 250}).Fit(context.Background(), estimator.Nodes{Graph: g}), "Dim = 250 is invalid")
}

func TestKernelPCANystromReproducesNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	g := randomGraph(rng, 300, 900)
	p := &KernelPCA{Dim: 4, Eigen: Settings{Tol: solveTol}}
	require.NoError(t, p.Fit(context.Background(), estimator.Nodes{Graph: g}))
	s, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	ref := denseSpectrum(t, s)
	for l := 0; l < 4; l++ {
		require.InDelta(t, ref[299-l], p.Eigenvalues()[l], valueTol)
	}
	// A new node with node i's own row of W is mapped to node i's features.
	for _, i := range []int{0, 17, 299} {
		cols, ws := g.Row(i)
		nodes := make([]int, len(cols))
		for t, c := range cols {
			nodes[t] = int(c)
		}
		got, err := p.Extend(nodes, ws)
		require.NoError(t, err)
		require.InDeltaSlice(t, mat.Row(nil, i, p.Components()), got, 1e-9)
	}
	// Scaling all weights leaves the extension unchanged (it depends on
	// w/√d_x·… only through the normalised row).
	cols, ws := g.Row(5)
	nodes := make([]int, len(cols))
	scaled := make([]float64, len(cols))
	for t, c := range cols {
		nodes[t] = int(c)
		scaled[t] = 4 * ws[t]
	}
	a, _ := p.Extend(nodes, ws)
	b, _ := p.Extend(nodes, scaled)
	for l := range a {
		require.InDelta(t, 2*a[l], b[l], 1e-12) // w/√d_x scales as √4
	}
}

func TestKernelPCAErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(73, 74))
	g := randomGraph(rng, 50, 50)
	ctx := context.Background()
	p := &KernelPCA{Dim: 2}
	_, err := p.Extend([]int{0}, []float64{1})
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	require.ErrorContains(t, err, "KernelPCA.Extend")
	require.NoError(t, p.Fit(ctx, estimator.Nodes{Graph: g}))
	_, err = p.Extend([]int{0, 1}, []float64{1})
	require.ErrorContains(t, err, "2 nodes but 1 weights")
	_, err = p.Extend([]int{50}, []float64{1})
	require.ErrorContains(t, err, "node 50 (position 0) out of range [0, 50)")
	_, err = p.Extend([]int{3, 3}, []float64{1, 1})
	require.ErrorContains(t, err, "node 3 listed twice")
	_, err = p.Extend([]int{3}, []float64{-1})
	require.ErrorContains(t, err, "weight -1 to node 3 is invalid")
	_, err = p.Extend([]int{3}, []float64{0})
	require.ErrorContains(t, err, "degree is 0")
	require.ErrorContains(t, (&KernelPCA{Dim: -1}).Fit(ctx, estimator.Nodes{Graph: g}), "Dim = -1 is invalid")
	// A bipartite graph (a path) has μ = −1 at the bottom of S: asking for
	// all components reaches μ ≤ 0.
	path := pathOrCycle(6, false)
	require.ErrorContains(t, (&KernelPCA{Dim: 6}).Fit(ctx, estimator.Nodes{Graph: path}), "≤ 0, so the Nyström extension is undefined")
}

// TestSpectralClusteringSingleVectorAboveMin: on a component of
// SingleVectorMinNodes nodes or more, Method Auto is the single-vector
// method (bitwise its pairs), and the clustering is the block method's
// (the path below the threshold, and of every component before it was
// lowered from 5 000): same partition and eigenvalues for several seeds.
func TestSpectralClusteringSingleVectorAboveMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	g, _ := plantedPartition(rng, 6, 250, 0.04, 0.003) // 1 500 nodes, average degree ≈ 14
	require.GreaterOrEqual(t, g.Nodes(), SingleVectorMinNodes)
	comp, count := g.Components()
	require.Equal(t, 1, count, "%v", comp[:1])
	for seed := uint64(0); seed < 4; seed++ {
		fit := func(m Method) *SpectralClustering {
			sc := &SpectralClustering{Clusters: 6, Eigen: Settings{Seed: seed, Method: m}, KMeans: KMeansSettings{Seed: seed}}
			require.NoError(t, sc.Fit(context.Background(), estimator.Nodes{Graph: g}), "seed %d %v", seed, m)
			return sc
		}
		auto, single, block := fit(Auto), fit(SingleVector), fit(Block)
		require.Equal(t, single.Labels(), auto.Labels(), "seed %d", seed)
		require.Equal(t, single.Eigenvalues(), auto.Eigenvalues(), "seed %d", seed)
		require.True(t, mat.Equal(single.Embedding(), auto.Embedding()), "seed %d", seed)
		require.True(t, samePartition(block.Labels(), auto.Labels()), "seed %d", seed)
		require.InDeltaSlice(t, block.Eigenvalues(), auto.Eigenvalues(), valueTol, "seed %d", seed)
	}
}

// TestSpectralClusteringTolSameClusters: with the default tolerance
// (DefaultClusteringTol) the clusters of Cora's and Amazon Photo's largest
// components are those of the eigensolver's DefaultTol, label for label,
// for several seeds, with fewer operator products, and the eigenvalues
// agree to far below the gaps between them.
func TestSpectralClusteringTolSameClusters(t *testing.T) {
	for _, name := range []string{"cora", "amazon_photo"} {
		ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, name))
		require.NoError(t, err)
		sub, err := ds.Graph.LargestComponent()
		require.NoError(t, err)
		for seed := uint64(0); seed < 5; seed++ {
			fit := func(tol float64) *SpectralClustering {
				sc := &SpectralClustering{Clusters: ds.Classes, Eigen: Settings{Tol: tol, Seed: seed}, KMeans: KMeansSettings{Seed: seed}}
				require.NoError(t, sc.Fit(context.Background(), estimator.Nodes{Graph: sub.CSR}), "%s seed %d tol %g", name, seed, tol)
				return sc
			}
			loose, tight := fit(0), fit(DefaultTol)
			require.Equal(t, tight.Labels(), loose.Labels(), "%s seed %d", name, seed)
			require.InDeltaSlice(t, tight.Eigenvalues(), loose.Eigenvalues(), 1e-9, "%s seed %d", name, seed)
			require.Less(t, loose.km.matVecs, tight.km.matVecs, "%s seed %d", name, seed)
		}
	}
}
