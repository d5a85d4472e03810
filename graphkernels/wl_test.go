package graphkernels

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// bruteWL relabels with explicit strings (the course's Algorithm 7.7: the
// new label is the old one followed by the sorted neighbour labels) and
// counts (round, label) pairs: an independent reference with no dictionary.
func bruteWL(g Graph, h int) map[string]float64 {
	n := g.Adj.Nodes()
	lab := make([]string, n)
	for v := range lab {
		lab[v] = fmt.Sprint(g.label(v))
	}
	feats := map[string]float64{}
	for v := range lab {
		feats["0:"+lab[v]]++
	}
	for r := 1; r <= h; r++ {
		next := make([]string, n)
		for v := range lab {
			cols, _ := g.Adj.Row(v)
			var nb []string
			for _, c := range cols {
				nb = append(nb, lab[c])
			}
			slices.Sort(nb)
			next[v] = "(" + lab[v] + "|" + strings.Join(nb, ",") + ")"
		}
		lab = next
		for v := range lab {
			feats[fmt.Sprintf("%d:%s", r, lab[v])]++
		}
	}
	return feats
}

func dotMaps(a, b map[string]float64) float64 {
	var s float64
	for k, v := range a {
		s += v * b[k]
	}
	return s
}

func TestWLMatchesBruteForceRelabelling(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	graphs := randomGraphs(t, rng, 30, 9, 0.3, 3)
	for _, h := range []int{0, 1, 2, 4} {
		wl := &WeisfeilerLehman{H: h}
		k, err := FitGram(context.Background(), wl, graphs)
		require.NoError(t, err)
		ref := make([]map[string]float64, len(graphs))
		distinct := map[string]bool{}
		for i, g := range graphs {
			ref[i] = bruteWL(g, h)
			for f := range ref[i] {
				distinct[f] = true
			}
		}
		// Same dictionary size, and every graph's count multiset equal.
		assert.Equal(t, len(distinct), wl.Dimension(), "h=%d", h)
		for i := range graphs {
			got := slices.Clone(wl.Features()[i].Val)
			var want []float64
			for _, c := range ref[i] {
				want = append(want, c)
			}
			slices.Sort(got)
			slices.Sort(want)
			assert.Equal(t, want, got, "h=%d graph %d", h, i)
			for j := range graphs {
				assert.Equal(t, dotMaps(ref[i], ref[j]), k.At(i, j), "h=%d K[%d,%d]", h, i, j)
			}
		}
	}
}

func TestWLTransformUnseenLabelsGetFreshIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	train := randomGraphs(t, rng, 12, 8, 0.35, 2)
	test := randomGraphs(t, rng, 8, 8, 0.35, 4) // labels 2, 3 never seen
	const h = 3
	wl := &WeisfeilerLehman{H: h}
	_, err := FitGram(context.Background(), wl, train)
	require.NoError(t, err)
	dim := wl.Dimension()
	cross, self, err := wl.Cross(context.Background(), test)
	require.NoError(t, err)
	for i, g := range test {
		ri := bruteWL(g, h)
		assert.Equal(t, dotMaps(ri, ri), self[i], "self %d", i)
		for j, tr := range train {
			assert.Equal(t, dotMaps(ri, bruteWL(tr, h)), cross.At(i, j), "cross %d,%d", i, j)
		}
	}
	// The fitted dictionary is not changed by Transform, and unseen labels
	// were numbered past it.
	assert.Equal(t, dim, wl.Dimension())
	phi, err := wl.TransformFeatures(context.Background(), test)
	require.NoError(t, err)
	fresh := false
	for _, v := range phi {
		for _, id := range v.Idx {
			fresh = fresh || int(id) >= dim
		}
	}
	assert.True(t, fresh, "labels 2 and 3 should get ids ≥ %d", dim)
	// Two new graphs that share an unseen label match on it: transforming
	// the same graph twice gives self = k(G, G).
	twice, err := wl.TransformFeatures(context.Background(), []Graph{test[0], test[0]})
	require.NoError(t, err)
	assert.Equal(t, twice[0], twice[1])
}

func TestCourseExampleTrianglesVsHexagon(t *testing.T) {
	// Course ch. 7: two triangles, hexagon, path and star on 6 nodes, labels =
	// degrees, WL with H = 3 and the walk kernel with λ = 0.1, normalised.
	adj := []Graph{}
	for _, g := range []func() Graph{
		func() Graph { g := twoTriangles(t); return Graph{Adj: g, Labels: DegreeLabels(g)} },
		func() Graph { g := cycle(t, 6); return Graph{Adj: g, Labels: DegreeLabels(g)} },
		func() Graph { g := path(t, 6); return Graph{Adj: g, Labels: DegreeLabels(g)} },
		func() Graph { g := star(t, 5); return Graph{Adj: g, Labels: DegreeLabels(g)} },
	} {
		adj = append(adj, g())
	}
	ctx := context.Background()
	wl, err := FitGram(ctx, (&Cosine{Kernel: &WeisfeilerLehman{H: 3}}), adj)
	require.NoError(t, err)
	assert.InDelta(t, 1.0, wl.At(0, 1), 1e-15, "WL: two triangles vs hexagon")
	assert.Less(t, wl.At(1, 2), 0.99, "WL: hexagon vs path differ")
	// The course's walk kernel is unlabelled: all labels equal.
	unl := make([]Graph, len(adj))
	for i, g := range adj {
		unl[i] = Graph{Adj: g.Adj}
	}
	rw, err := FitGram(ctx, (&Cosine{Kernel: &RandomWalk{Lambda: 0.1}}), unl)
	require.NoError(t, err)
	assert.InDelta(t, 1.0, rw.At(0, 1), 1e-9, "walk: two triangles vs hexagon")
	assert.Less(t, rw.At(1, 3), 0.99, "walk: hexagon vs star differ")
}

func TestGramMatricesArePSD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	graphs := randomGraphs(t, rng, 25, 10, 0.3, 3)
	for _, c := range []struct {
		name string
		k    Kernel
	}{
		{"wl", &WeisfeilerLehman{H: 3}},
		{"vh", &VertexHistogram{}},
		{"sp", &ShortestPath{}},
		{"rw", &RandomWalk{Lambda: 0.02}},
		{"cosine-wl", &Cosine{Kernel: &WeisfeilerLehman{H: 5}}},
		{"cosine-rw", &Cosine{Kernel: &RandomWalk{Lambda: 0.02}}},
	} {
		k, err := FitGram(context.Background(), c.k, graphs)
		require.NoError(t, err, c.name)
		assert.GreaterOrEqual(t, minEigen(t, k), -psdTol, c.name)
	}
}

// normTol: cosine normalisation divides by square roots, which rounds the
// same exact value differently in different orders by a few ulps.
const normTol = 1e-12

func TestCosineTransformMatchesFitOnUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	all := randomGraphs(t, rng, 20, 9, 0.3, 3)
	train, test := all[:14], all[14:]
	for _, mk := range []func() Kernel{
		func() Kernel { return &WeisfeilerLehman{H: 2} },
		func() Kernel { return &ShortestPath{} },
		func() Kernel { return &VertexHistogram{} },
		func() Kernel { return &RandomWalk{Lambda: 0.05} },
	} {
		ctx := context.Background()
		full, err := FitGram(ctx, (&Cosine{Kernel: mk()}), all)
		require.NoError(t, err)
		c := &Cosine{Kernel: mk()}
		ktr, err := FitGram(ctx, c, train)
		require.NoError(t, err)
		cross, self, err := c.Cross(ctx, test)
		require.NoError(t, err)
		name := fmt.Sprintf("%T", c.Kernel)
		for i := range train {
			for j := range train {
				assert.InDelta(t, full.At(i, j), ktr.At(i, j), normTol, name)
			}
		}
		for i := range test {
			assert.InDelta(t, full.At(len(train)+i, len(train)+i), self[i], normTol, name)
			for j := range train {
				assert.InDelta(t, full.At(len(train)+i, j), cross.At(i, j), normTol, "%s cross %d,%d", name, i, j)
			}
		}
	}
}

// floydTriples counts (min label, max label, distance) over pairs u < v by
// Floyd–Warshall: a reference independent of the BFS.
func floydTriples(g Graph) map[spKey]float64 {
	n := g.Adj.Nodes()
	const inf = 1 << 30
	d := make([][]int, n)
	for i := range d {
		d[i] = make([]int, n)
		for j := range d[i] {
			if i != j {
				d[i][j] = inf
			}
		}
		cols, _ := g.Adj.Row(i)
		for _, c := range cols {
			if int(c) != i {
				d[i][c] = 1
			}
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if d[i][k]+d[k][j] < d[i][j] {
					d[i][j] = d[i][k] + d[k][j]
				}
			}
		}
	}
	out := map[spKey]float64{}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if d[i][j] < inf {
				a, b := g.label(i), g.label(j)
				out[spKey{min(a, b), max(a, b), d[i][j]}]++
			}
		}
	}
	return out
}

func TestShortestPathMatchesFloydWarshall(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	graphs := randomGraphs(t, rng, 20, 10, 0.25, 3)
	sp := &ShortestPath{}
	k, err := FitGram(context.Background(), sp, graphs)
	require.NoError(t, err)
	ref := make([]map[spKey]float64, len(graphs))
	for i, g := range graphs {
		ref[i] = floydTriples(g)
	}
	for i := range graphs {
		for j := range graphs {
			var want float64
			for key, v := range ref[i] {
				want += v * ref[j][key]
			}
			assert.Equal(t, want, k.At(i, j), "K[%d,%d]", i, j)
		}
	}
}

func TestVertexHistogramCountsLabels(t *testing.T) {
	g1 := Graph{Adj: path(t, 4), Labels: []int{7, 7, 3, 1}}
	g2 := Graph{Adj: cycle(t, 3), Labels: []int{7, 3, 3}}
	k, err := FitGram(context.Background(), (&VertexHistogram{}), []Graph{g1, g2})
	require.NoError(t, err)
	// φ(g1) = {7:2, 3:1, 1:1}, φ(g2) = {7:1, 3:2}
	want := mat.NewSymDense(2, []float64{6, 4, 4, 5})
	assert.True(t, mat.Equal(want, k), "got %v", mat.Formatted(k))
}

func TestBadGraphInput(t *testing.T) {
	ctx := context.Background()
	good := Graph{Adj: path(t, 3)}
	for _, c := range []struct {
		name   string
		k      Kernel
		graphs []Graph
		msg    string
	}{
		{"nil adjacency", &WeisfeilerLehman{H: 1}, []Graph{good, {}}, "training graph 1 has no adjacency"},
		{"label length", &ShortestPath{}, []Graph{{Adj: path(t, 3), Labels: []int{1, 2}}}, "graph 0 has 3 nodes but 2 labels"},
		{"no graphs", &WeisfeilerLehman{H: 1}, nil, "no training graphs"},
		{"negative H", &WeisfeilerLehman{H: -1}, []Graph{good}, "H=-1 is invalid"},
		{"huge H", &WeisfeilerLehman{H: 100}, []Graph{good}, "H=100 is invalid"},
		{"zero lambda", &RandomWalk{}, []Graph{good}, "Lambda=0 is invalid"},
		{"NaN tol", &RandomWalk{Lambda: 0.1, Tol: 2}, []Graph{good}, "Tol=2 is invalid"},
		{"cosine of nothing", &Cosine{}, []Graph{good}, "no Kernel"},
	} {
		_, err := FitGram(ctx, c.k, c.graphs)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.msg, c.name)
	}
	for _, k := range []Kernel{&WeisfeilerLehman{H: 1}, &ShortestPath{}, &RandomWalk{Lambda: 0.1}, &Cosine{Kernel: &VertexHistogram{}}} {
		_, _, err := k.Cross(ctx, []Graph{good})
		require.Error(t, err)
		assert.ErrorIs(t, err, estimator.ErrNotFitted)
		assert.Contains(t, err.Error(), ".Transform: the model has not been fitted")
	}
	wl := &WeisfeilerLehman{H: 1}
	_, err := FitGram(ctx, wl, []Graph{good})
	require.NoError(t, err)
	_, _, err = wl.Cross(ctx, []Graph{{Adj: path(t, 2), Labels: []int{1}}})
	require.ErrorContains(t, err, "new graph 0 has 2 nodes but 1 labels")
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rng := rand.New(rand.NewPCG(11, 12))
	graphs := randomGraphs(t, rng, 10, 6, 0.4, 2)
	for _, k := range []Kernel{&WeisfeilerLehman{H: 2}, &ShortestPath{}, &RandomWalk{Lambda: 0.05}} {
		_, err := FitGram(ctx, k, graphs)
		require.ErrorIs(t, err, context.Canceled, "%T", k)
	}
}
