package savedmodel

import (
	"context"
	"github.com/gssl/gssl/estimator"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/serve"
)

// knnModel fits label spreading on the K-nearest-neighbour graph of two
// clusters of points in the plane and returns it with its points.
func knnModel(t *testing.T, kernel knngraph.Kernel) (*labelprop.Spreading, *Points) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 40
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 2
		x.Set(i, 0, float64(4*c)+rng.NormFloat64())
		x.Set(i, 1, rng.NormFloat64())
		labels[i] = -1
		if i < 4 {
			labels[i] = c
		}
	}
	nb, err := knngraph.Exact(context.Background(), x, 5, nil)
	require.NoError(t, err)
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	require.NoError(t, err)
	w, err := g.Weigh(kernel, 0)
	require.NoError(t, err)
	m := &labelprop.Spreading{Alpha: 0.9}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: w.W}, labels))
	return m, &Points{X: x, Weights: w}
}

// TestPointsRoundTrip: a model saved with its points predicts new points as
// the model predicts new nodes joined to their K nearest points with the
// graph's weights (before saving), bitwise, after the file round trip.
func TestPointsRoundTrip(t *testing.T) {
	for _, kern := range []knngraph.Kernel{knngraph.Connectivity, knngraph.Gaussian, knngraph.IMGP} {
		m, p := knnModel(t, kern)
		f, err := File(m, Context{Points: p})
		require.NoError(t, err)
		b, err := f.MarshalBinary()
		require.NoError(t, err)
		f2, err := modelfile.Unmarshal(b)
		require.NoError(t, err)
		s, err := Decode(f2)
		require.NoError(t, err)
		assert.Equal(t, 2, s.Metadata().Features)
		assert.Equal(t, 40, s.Metadata().Nodes)

		q := [][]float64{{0, 0}, {4, 0.5}, {2, -1}}
		got, err := s.PredictPoints(context.Background(), q)
		require.NoError(t, err)
		nn, err := p.NewNodesOfPoints(context.Background(), mat.NewDense(3, 2, []float64{0, 0, 4, 0.5, 2, -1}))
		require.NoError(t, err)
		want, err := m.NewNodeDetails(context.Background(), nn)
		require.NoError(t, err)
		for i := range want {
			assert.Equal(t, want[i].Probabilities, got[i].Probabilities, "%s point %d", kern, i)
		}
		assert.Equal(t, "0", got[0].Label)
		assert.Equal(t, "1", got[1].Label)
		_, err = s.PredictPoints(context.Background(), [][]float64{{1, math.Inf(1)}})
		assert.ErrorContains(t, err, "points[0][1]")
	}
}

// TestPointsDamaged: edited data.knn sections (as an edited or damaged
// file holds them) are refused by name, like user input, and a model that
// cannot use points refuses them.
func TestPointsDamaged(t *testing.T) {
	m, p := knnModel(t, knngraph.IMGP)
	cases := []struct {
		name string
		edit func(p *Points, w *knngraph.Weighted)
		want string
	}{
		{"k 0", func(_ *Points, w *knngraph.Weighted) { w.K = 0 }, "k = 0 is invalid"},
		{"k = n", func(_ *Points, w *knngraph.Weighted) { w.K = 40 }, "k = 40 is invalid"},
		{"kernel", func(_ *Points, w *knngraph.Weighted) { w.Kernel = 7 }, `kernel "Kernel(7)"`},
		{"sigma", func(_ *Points, w *knngraph.Weighted) { w.Sigma = -1 }, "bandwidth -1 is invalid"},
		{"imgp sigma 0", func(_ *Points, w *knngraph.Weighted) { w.Sigma = 0 }, "bandwidth 0 is invalid"},
		{"nan point", func(p *Points, _ *knngraph.Weighted) { p.X.Set(3, 1, math.NaN()) }, "point 3, feature 1 is NaN"},
		{"scale", func(_ *Points, w *knngraph.Weighted) { w.Scale[5] = 0 }, "node 5 has scale 0"},
		{"scale missing", func(_ *Points, w *knngraph.Weighted) { w.Scale = nil }, `"data.knn.scale"`},
	}
	for _, c := range cases {
		w := *p.Weights
		w.Scale = append([]float64(nil), w.Scale...)
		q := &Points{X: mat.DenseCopyOf(p.X), Weights: &w}
		c.edit(q, &w)
		f, err := File(m, Context{Points: q})
		require.NoError(t, err, c.name)
		b, err := f.MarshalBinary()
		require.NoError(t, err)
		f2, err := modelfile.Unmarshal(b)
		require.NoError(t, err)
		_, err = Decode(f2)
		assert.ErrorContains(t, err, c.want, c.name)
	}
	// Points that are not the model's nodes are refused when saving.
	_, err := File(m, Context{Points: &Points{X: mat.NewDense(3, 2, nil), Weights: p.Weights}})
	assert.ErrorContains(t, err, "3 points for a model of 40 nodes")

	// A GP regression keeps no graph: points are refused at save time.
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	g := &gp.Regressor{}
	require.NoError(t, g.Fit(context.Background(), x, []float64{0, 1, 0}))
	_, err = File(g, Context{Points: p})
	assert.ErrorContains(t, err, "cannot predict new points through a K-nearest-neighbour graph")
}

// TestPointsConcurrent: concurrent requests share the query index and get
// the answers of a lone request.
func TestPointsConcurrent(t *testing.T) {
	m, p := knnModel(t, knngraph.Gaussian)
	f, err := File(m, Context{Points: p})
	require.NoError(t, err)
	s, err := Decode(f)
	require.NoError(t, err)
	q := [][]float64{{0, 0}, {4, 0.5}, {2, -1}}
	want, err := s.PredictPoints(context.Background(), q)
	require.NoError(t, err)
	got := make([][]serve.Prediction, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g], errs[g] = s.PredictPoints(context.Background(), q)
		}()
	}
	wg.Wait()
	for g := range got {
		require.NoError(t, errs[g])
		assert.Equal(t, want, got[g])
	}
}
