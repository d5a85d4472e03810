package homophily

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

// tol is for closed forms evaluated in a different order of operations.
const tol = 1e-12

func path(t *testing.T) *graph.CSR {
	g, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	require.NoError(t, err)
	return g
}

// TestPathByHand checks the path 0–1–2–3 with classes 0 0 1 1, worked by
// hand: E = 3, two edges within a class; E_00 = E_11 = 2, E_01 = E_10 = 1;
// p̄ = (½, ½), so h_adj = (2/3 − ½)/(1 − ½) = 1/3; p = (1/3, 1/6, 1/6, 1/3),
// so LI = 2 − ((2/3)ln 3 + (1/3)ln 6)/ln 2.
func TestPathByHand(t *testing.T) {
	s, err := Measure(path(t), []int{0, 0, 1, 1})
	require.NoError(t, err)
	assert.Equal(t, 3, s.Edges)
	assert.InDelta(t, 2.0/3, s.Edge, tol)
	assert.InDelta(t, 1.0/3, s.Adjusted, tol)
	assert.InDelta(t, 2-(2.0/3*math.Log(3)+1.0/3*math.Log(6))/math.Log(2), s.LabelInformativeness, tol)
	want := []float64{2.0 / 3, 1.0 / 3, 1.0 / 3, 2.0 / 3}
	assert.InDeltaSlice(t, want, s.Compatibility.RawMatrix().Data, tol)
}

// TestBipartite: every edge joins the two classes of a complete bipartite
// graph: h_edge = 0, h_adj = −1, and one end's class fixes the other's: LI = 1.
func TestBipartite(t *testing.T) {
	var edges []graph.Edge
	for u := 0; u < 3; u++ {
		for v := 3; v < 6; v++ {
			edges = append(edges, graph.Edge{U: u, V: v, W: 1})
		}
	}
	g, err := graph.FromEdges(6, edges, graph.Options{})
	require.NoError(t, err)
	s, err := Measure(g, []int{0, 0, 0, 1, 1, 1})
	require.NoError(t, err)
	assert.InDelta(t, 0, s.Edge, tol)
	assert.InDelta(t, -1, s.Adjusted, tol)
	assert.InDelta(t, 1, s.LabelInformativeness, tol)
	f, _ := Advise(s)
	assert.Equal(t, Compatibility, f)
}

// reference computes the measures from the edge list by their definitions
// as probabilities of a random edge's two ends: h_edge = P(y_ξ = y_η),
// h_adj against Σ_k P(y_ξ = k)², LI = I(y_ξ; y_η)/H(y_ξ).
func reference(g *graph.CSR, labels []int, c int) (edge, adj, li float64) {
	joint := make([][]float64, c)
	for k := range joint {
		joint[k] = make([]float64, c)
	}
	total := 0.0
	g.ForEachEdge(func(u, v int, w float64) {
		if u == v || labels[u] < 0 || labels[v] < 0 {
			return
		}
		joint[labels[u]][labels[v]] += w / 2
		joint[labels[v]][labels[u]] += w / 2
		total += w
	})
	marg := make([]float64, c)
	for k := range joint {
		for l := range joint[k] {
			joint[k][l] /= total
			marg[k] += joint[k][l]
		}
		edge += joint[k][k]
	}
	var expect, mi, h float64
	for k := range marg {
		expect += marg[k] * marg[k]
		if marg[k] > 0 {
			h -= marg[k] * math.Log(marg[k])
		}
		for l := range marg {
			if p := joint[k][l]; p > 0 {
				mi += p * math.Log(p/(marg[k]*marg[l]))
			}
		}
	}
	return edge, (edge - expect) / (1 - expect), mi / h
}

func TestAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n, c := 20+rng.IntN(50), 2+rng.IntN(5)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(c)
			if rng.IntN(5) == 0 {
				labels[i] = -1
			}
		}
		labels[0], labels[1] = 0, c-1
		var edges []graph.Edge
		for k := 0; k < 3*n; k++ {
			u, v := rng.IntN(n), rng.IntN(n)
			if u != v {
				edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
			}
		}
		edges = append(edges, graph.Edge{U: 0, V: 1, W: 1})
		g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
		require.NoError(t, err)
		s, err := Measure(g, labels)
		require.NoError(t, err)
		e, a, li := reference(g, labels, c)
		assert.InDelta(t, e, s.Edge, 1e-12, "trial %d", trial)
		assert.InDelta(t, a, s.Adjusted, 1e-12, "trial %d", trial)
		assert.InDelta(t, li, s.LabelInformativeness, 1e-12, "trial %d", trial)
	}
}

func TestErrors(t *testing.T) {
	g := path(t)
	_, err := Measure(g, []int{0, 0})
	assert.ErrorContains(t, err, "2 labels for 4 nodes")
	_, err = Measure(g, []int{-1, -1, -1, -1})
	assert.ErrorContains(t, err, "no node is labelled")
	_, err = Measure(g, []int{0, -1, 1, -1})
	assert.ErrorIs(t, err, ErrNoEdges)
}

// TestPublished compares with the figures Platonov et al. publish (two
// decimals) for the shared data sets: tolokers in the paper's repository
// (h_edge 0.59, h_adj 0.09, LI 0.01), Cora in "Characterizing graph
// datasets" (0.81, 0.77, 0.59), and actor's h_edge in Pei et al. (0.22).
func TestPublished(t *testing.T) {
	for _, c := range []struct {
		name          string
		edge, adj, li float64
		allPublished  bool // h_adj and LI are published too
		family        Family
	}{
		{"tolokers", 0.59, 0.09, 0.01, true, Features},
		{"cora", 0.81, 0.77, 0.59, true, Smoothing},
		{"actor", 0.22, 0, 0, false, Features},
	} {
		t.Run(c.name, func(t *testing.T) {
			ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, c.name))
			require.NoError(t, err)
			s, err := Measure(ds.Graph, ds.Labels)
			require.NoError(t, err)
			assert.InDelta(t, c.edge, s.Edge, 0.005)
			if c.allPublished {
				assert.InDelta(t, c.adj, s.Adjusted, 0.005)
				assert.InDelta(t, c.li, s.LabelInformativeness, 0.005)
			}
			f, line := Advise(s)
			assert.Equal(t, c.family, f, line)
		})
	}
}

// TestDescribe: the report of the hand-worked path (TestPathByHand) holds
// its figures, the compatibility rows and Advise's verdict (h_adj = 1/3 ≥
// HomophilousAdjusted: smoothing); Measure's errors pass through.
func TestDescribe(t *testing.T) {
	r, err := Describe(path(t), []int{0, 0, 1, 1})
	require.NoError(t, err)
	assert.Equal(t, 3, r.Edges)
	assert.InDelta(t, 2.0/3, r.Edge, tol)
	assert.InDelta(t, 1.0/3, r.Adjusted, tol)
	assert.InDelta(t, 2-(2.0/3*math.Log(3)+1.0/3*math.Log(6))/math.Log(2), r.LabelInformativeness, tol)
	require.Len(t, r.Compatibility, 2)
	assert.InDeltaSlice(t, []float64{2.0 / 3, 1.0 / 3}, r.Compatibility[0], tol)
	assert.InDeltaSlice(t, []float64{1.0 / 3, 2.0 / 3}, r.Compatibility[1], tol)
	assert.Equal(t, "smoothing", r.Family)
	assert.Contains(t, r.Advice, "homophilous (adjusted homophily 0.33 ≥ 0.30)")
	_, err = Describe(path(t), []int{0, -1, -1, 1})
	assert.ErrorIs(t, err, ErrNoEdges)
}
