package pictures

import (
	"context"
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
)

// cell parses a table cell as a number.
func cell(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

// points counts the distinct places where p draws glyphs (a point of a
// line, its marker and its label are one place).
func points(p *plot.Plot) int {
	seen := map[[2]float64]bool{}
	for _, b := range p.GlyphBoxes(p) {
		seen[[2]float64{b.X, b.Y}] = true
	}
	return len(seen)
}

// The sweep over M: one table row per M with its score, the error panel's
// x axis on log10 M over exactly the M swept (a factor 100 ≥ 8), its y axis
// spanning the scores, and without test targets the time panel alone.
func TestKRRSweep(t *testing.T) {
	rep := protocol.KRRSweepReport{Data: "toy", Spec: krr.Spec{Solver: "falkon", Kernel: "gaussian", Sigma: 2, Lambda: 1e-6}, Train: 50, Dim: 3,
		Sweep: []protocol.KRRSweepPoint{{M: 10, CentresUsed: 10, TestError: 0.3, FitSeconds: 0.1}, {M: 100, CentresUsed: 100, TestError: 0.2, FitSeconds: 0.4},
			{M: 1000, CentresUsed: 50, TestError: 0.25, FitSeconds: 2}}}
	pic, err := KRRSweep(rep)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 2)
	require.Len(t, pic.Tables, 1)
	require.Len(t, pic.Tables[0].Rows, 3)
	for i, p := range rep.Sweep {
		row := pic.Tables[0].Rows[i]
		assert.Equal(t, strconv.Itoa(p.M), row[0])
		assert.InDelta(t, p.TestError.(float64), cell(t, row[2]), 1e-12)
	}
	e := pic.Panels[0]
	assert.InDelta(t, 1, e.X.Min, 1e-12) // log10 10
	assert.InDelta(t, 3, e.X.Max, 1e-12) // log10 1000
	assert.LessOrEqual(t, e.Y.Min, 0.2)
	assert.GreaterOrEqual(t, e.Y.Max, 0.3)
	assert.Contains(t, e.Title.Text, "test error against M")
	assert.Equal(t, len(rep.Sweep), points(e), "one point per M")
	// Fit seconds span a factor 20: a log y axis over them.
	assert.InDelta(t, math.Log10(0.1), pic.Panels[1].Y.Min, 1e-12)
	assert.InDelta(t, math.Log10(2), pic.Panels[1].Y.Max, 1e-12)

	rep.TestReason, rep.Task = "no test targets", "regression"
	for i := range rep.Sweep {
		rep.Sweep[i].TestError = nil
	}
	pic, err = KRRSweep(rep)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 1)
	assert.Equal(t, []string{"no error panel: no test targets"}, pic.Notes)
	assert.Equal(t, "–", pic.Tables[0].Rows[0][2])
	assert.Equal(t, "test RMSE", pic.Tables[0].Header[2])
}

// The grid's heat map table holds, per (η, β) cell, the best accuracy over
// the iteration counts (computed here by brute force from the candidate
// order η, β, iterations), and the r(λ) panel spans λ ∈ [0, 0.995].
func TestSTKR(t *testing.T) {
	g := protocol.STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.5}}, Etas: []float64{0.5, 0.9}, Betas: []float64{0.01, 0.1, 1}, Iterations: []int{10, 20}}
	acc := make([]float64, 2*3*2)
	for i := range acc {
		acc[i] = float64((i*7)%12) / 12
	}
	acc[5] = math.NaN()
	f := STKRSelection{Accuracy: acc, Best: 9, Transform: stkr.InverseLaplacian{Eta: 0.9}, What: "validation accuracy"}
	pic, err := STKR(f, g, "toy", "inverse-laplacian")
	require.NoError(t, err)
	require.Len(t, pic.Panels, 2)
	require.Len(t, pic.Tables, 1)
	rows := pic.Tables[0].Rows
	require.Len(t, rows, 2)
	for i := range 2 {
		assert.Equal(t, strconv.FormatFloat(g.Etas[i], 'g', 3, 64), rows[i][0])
		for j := range 3 {
			best := math.Inf(-1)
			for k := range 2 {
				if v := acc[(i*3+j)*2+k]; !math.IsNaN(v) {
					best = math.Max(best, v)
				}
			}
			assert.InDelta(t, best, cell(t, rows[i][j+1]), 1e-4, "η %d β %d", i, j)
		}
	}
	r := pic.Panels[1]
	assert.InDelta(t, 0, r.X.Min, 1e-12)
	assert.InDelta(t, 0.995, r.X.Max, 1e-12)

	one := STKRSelection{Accuracy: []float64{0.5}, Transform: nil}
	pic, err = STKR(one, protocol.STKRGrid{Etas: []float64{1}, Betas: []float64{1}, Iterations: []int{1}}, "toy", "x")
	require.NoError(t, err)
	assert.Empty(t, pic.Panels)
	assert.Len(t, pic.Notes, 1)
}

// The K-nearest-neighbour picture: one table row per rank whose quantiles
// are the order statistics of the brute-force distances, the histogram
// over the distances to the K-th neighbour, and with a comparison a third
// panel whose x axis spans its times.
func TestKNN(t *testing.T) {
	const n, k = 5, 3
	nb := &knngraph.Neighbors{N: n, K: k, Index: make([]int32, n*k), Dist2: make([]float64, n*k)}
	for i := range n {
		for r := range k {
			nb.Index[i*k+r] = int32((i + r + 1) % n)
			nb.Dist2[i*k+r] = float64((i+1)*(r+1)) * 0.5
		}
	}
	pic, err := KNN(nb, "toy", "exact", 1, nil)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 2)
	require.Len(t, pic.Tables[0].Rows, k)
	for r := range k {
		d := make([]float64, n)
		for i := range n {
			d[i] = math.Sqrt(nb.Dist2[i*k+r])
		}
		sort.Float64s(d)
		row := pic.Tables[0].Rows[r]
		assert.InDelta(t, d[0], cell(t, row[1]), 1e-3*d[0]) // ⌊0.1·4⌋ = 0
		assert.InDelta(t, d[2], cell(t, row[2]), 1e-3*d[2]) // ⌊0.5·4⌋ = 2
		assert.InDelta(t, d[3], cell(t, row[3]), 1e-3*d[3]) // ⌊0.9·4⌋ = 3
	}
	hist := pic.Panels[0]
	assert.LessOrEqual(t, hist.X.Min, math.Sqrt(nb.Dist2[k-1]))
	assert.GreaterOrEqual(t, hist.X.Max, math.Sqrt(nb.Dist2[n*k-1]))
	assert.Len(t, pic.Notes, 1)

	cmp := []knngraph.Compared{{Method: "exact", Seconds: 2, Recall: 1}, {Method: "nn-descent", Iterations: 1, Ran: 1, Seconds: 0.5, Recall: 0.8},
		{Method: "nn-descent", Iterations: 4, Ran: 3, Seconds: 1, Recall: 0.95}}
	pic, err = KNN(nb, "toy", "exact", 1, cmp)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 3)
	require.Len(t, pic.Tables, 2)
	assert.Len(t, pic.Tables[1].Rows, len(cmp))
	assert.Equal(t, "3", pic.Tables[1].Rows[2][1])
	assert.Equal(t, len(cmp), points(pic.Panels[2]), "one point per search")
	assert.InDelta(t, 0.5, pic.Panels[2].X.Min, 1e-12)
	assert.InDelta(t, 2, pic.Panels[2].X.Max, 1e-12)
	assert.Empty(t, pic.Notes)
}

// The graph kernel picture: the class-mean table of the Gram matrix as
// drawn (cosine-normalised), computed here by hand, the chosen heights and
// the accuracy against height over exactly the heights evaluated.
func TestGraphKernel(t *testing.T) {
	k := mat.NewSymDense(4, []float64{
		4, 2, 0, 0,
		2, 1, 0, 0,
		0, 0, 9, 3,
		0, 0, 3, 1})
	labels := []int{0, 0, 1, 1}
	mean, std := 0.8, 0.05
	rep := protocol.GraphKernelReport{Kernel: "wl", H: 3, HChosen: []int{2, 5, 1}, Classifier: "svm", Repeats: 2, AccuracyMean: &mean,
		Heights: []protocol.HeightReport{{H: 0, Mean: &mean, Std: &std}, {H: 2, Mean: &mean, Std: &std}, {H: 5, Mean: &mean, Std: &std}}}
	pic, err := GraphKernel(&protocol.GraphKernelStudyResult{Gram: k}, labels, rep, "toy")
	require.NoError(t, err)
	require.Len(t, pic.Panels, 3)
	require.Len(t, pic.Tables, 2)
	// Cosine-normalised: K_ij/√(K_ii K_jj); both within-class blocks are
	// all ones (rank one), the cross blocks zero.
	m := pic.Tables[0].Rows
	require.Len(t, m, 2)
	assert.InDelta(t, 1, cell(t, m[0][1]), 1e-9)
	assert.InDelta(t, 0, cell(t, m[0][2]), 1e-9)
	assert.InDelta(t, 1, cell(t, m[1][2]), 1e-9)
	h := pic.Panels[2]
	assert.InDelta(t, 0, h.X.Min, 1e-12)
	assert.InDelta(t, 5, h.X.Max, 1e-12)
	assert.Len(t, pic.Tables[1].Rows, 3)
	assert.Empty(t, pic.Notes)

	rep.Heights, rep.HChosen = nil, nil
	pic, err = GraphKernel(&protocol.GraphKernelStudyResult{Gram: k}, labels, rep, "toy")
	require.NoError(t, err)
	assert.Len(t, pic.Panels, 1)
	assert.Len(t, pic.Notes, 1)
}

// The spectrum's table lists every eigenpair; the panel's y range holds
// the eigenvalues.
func TestSpectrum(t *testing.T) {
	s := spectral.Summary{Eigenvalues: []float64{0, 0.5, 0.5, 1.5}, Residuals: []float64{1e-10, 2e-9, 3e-9, 1e-8}}
	pic, err := Spectrum(s, 4, "toy", "sym", 1e-6)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 2)
	require.Len(t, pic.Tables[0].Rows, 4)
	for i, v := range s.Eigenvalues {
		assert.InDelta(t, v, cell(t, pic.Tables[0].Rows[i][1]), 1e-12)
		assert.InDelta(t, s.Residuals[i], cell(t, pic.Tables[0].Rows[i][2]), 1e-3*s.Residuals[i])
	}
	assert.LessOrEqual(t, pic.Panels[0].Y.Min, 0.0)
	assert.GreaterOrEqual(t, pic.Panels[0].Y.Max, 1.5)
	assert.Equal(t, "4 smallest eigenvalues of L_sym", pic.Panels[0].Title.Text)
}

// The GP picture draws the test points with a target alone, their truth
// on the x axis; without a score it draws nothing and says why.
func TestGP(t *testing.T) {
	run := &protocol.GPRun{RMSE: 0.1, Predictions: []protocol.Prediction{
		{Set: "test-features", Target: 1, Mean: 1.1, Observation: 0.01},
		{Set: "unlabelled", Target: 100, Mean: 0, Observation: 1},
		{Set: "test-features", Target: 3, Mean: 2.9, Observation: 0.04}}}
	pic, err := GP(run, protocol.GPReport{Data: "toy", Covariance: "matern52"})
	require.NoError(t, err)
	require.Len(t, pic.Panels, 1)
	assert.LessOrEqual(t, pic.Panels[0].X.Min, 1.0)
	assert.GreaterOrEqual(t, pic.Panels[0].X.Max, 3.0)
	assert.Less(t, pic.Panels[0].X.Max, 100.0, "the unlabelled point is not drawn")
	assert.Equal(t, "GP on toy: RMSE 0.1000", pic.Panels[0].Title.Text)

	pic, err = GP(&protocol.GPRun{RMSE: math.NaN(), Reason: "no test targets"}, protocol.GPReport{})
	require.NoError(t, err)
	assert.Empty(t, pic.Panels)
	assert.Equal(t, []string{"no prediction panel: no test targets"}, pic.Notes)
}

// cycle is a data set on the n-cycle with two classes in halves.
func cycle(t *testing.T, n int) *loaders.NodeDataset {
	t.Helper()
	edges := make([]graph.Edge, n)
	labels := make([]int, n)
	for i := range edges {
		edges[i] = graph.Edge{U: i, V: (i + 1) % n, W: 1}
		labels[i] = 2 * i / n
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	return &loaders.NodeDataset{Name: "cycle", Graph: g, Labels: labels, Classes: 2}
}

// Predictions: the confusion tables count each test node once, and the
// eigenmap panel places every node of the (connected) cycle; clusters are
// counted against the classes by hand.
func TestPredictionsAndClusters(t *testing.T) {
	ds := cycle(t, 40)
	pred := slices.Clone(ds.Labels)
	pred[3], pred[30] = 1, 0
	test := []int{1, 2, 3, 4, 30, 31}
	pic, err := Predictions(context.Background(), ds, pred, test, []string{"a", "b"}, 1)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 3)
	require.NotEmpty(t, pic.Tables)
	emb := pic.Panels[2]
	assert.Contains(t, emb.Title.Text, "(largest component, 40 nodes)")
	assert.Less(t, emb.X.Min, emb.X.Max)
	total := 0
	for _, row := range pic.Tables[0].Rows {
		total += int(cell(t, row[1]))
	}
	assert.Equal(t, len(test), total)

	pic, err = Predictions(context.Background(), ds, pred, nil, nil, 1)
	require.NoError(t, err)
	assert.Len(t, pic.Panels, 1)
	assert.Len(t, pic.Notes, 1)

	clusters := make([]int, 40)
	for i := range clusters {
		clusters[i] = i % 3
	}
	pic, err = Clusters(context.Background(), ds, clusters, 3, "cycle", 1)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 2) // by cluster and by class
	require.Len(t, pic.Tables, 1)
	rows := pic.Tables[0].Rows
	require.Len(t, rows, 3)
	for c := range 3 {
		for l := range 2 {
			want := 0
			for i := range clusters {
				if clusters[i] == c && ds.Labels[i] == l {
					want++
				}
			}
			assert.Equal(t, want, int(cell(t, rows[c][l+1])), "cluster %d class %d", c, l)
		}
	}

	c := mat.NewDense(40, 1, nil)
	for i := range 40 {
		c.Set(i, 0, float64(i)-7)
	}
	pic, err = Embedding(ds, c, "cycle")
	require.NoError(t, err)
	require.Len(t, pic.Panels, 1)
}

// AddTo puts the figure, the notes and the tables in the report, the
// result's fields last.
func TestAddTo(t *testing.T) {
	s := spectral.Summary{Eigenvalues: []float64{0, 1}, Residuals: []float64{0, 0}}
	pic, err := Spectrum(s, 2, "toy", "sym", 1e-6)
	require.NoError(t, err)
	pic.Notes = []string{"a note"}
	rep := &htmlreport.Report{}
	require.NoError(t, pic.AddTo(rep, "fields", struct {
		N int `json:"n"`
	}{3}))
	require.Len(t, rep.Figures, 1)
	assert.NotEmpty(t, rep.Figures[0].PNG)
	assert.Equal(t, []string{"a note"}, rep.Notes)
	require.Len(t, rep.Tables, 2)
	assert.Equal(t, "eigenpairs", rep.Tables[0].Caption)
	assert.Equal(t, "fields", rep.Tables[1].Caption)
	assert.Error(t, pic.AddTo(rep, "fields", 3), "a result that is not an object")
}

func TestSpansFactor(t *testing.T) {
	assert.True(t, spansFactor([]float64{1, 10}, 10))
	assert.False(t, spansFactor([]float64{1, 9.9}, 10))
	assert.False(t, spansFactor([]float64{10}, 10))
	assert.False(t, spansFactor([]float64{0, 100}, 10))
	assert.False(t, spansFactor([]float64{math.NaN(), 100}, 10))
}

// The IMGP sweep: RMSE against the labelled fraction on log axes, over
// exactly the fractions swept and the RMSEs of the three models; IMGP
// without test targets draws nothing and says why.
func TestIMGPSweepAndIMGP(t *testing.T) {
	r := &protocol.IMGPSweepResult{Summary: []protocol.IMGPSweepSummary{
		{Fraction: 0.01, RMSEMean: 0.5, RefinedRMSEMean: 0.45, EuclideanRMSEMean: 0.9},
		{Fraction: 0.1, RMSEMean: 0.2, RefinedRMSEMean: 0.19, EuclideanRMSEMean: 0.4},
		{Fraction: 1, RMSEMean: 0.05, RefinedRMSEMean: 0.04, EuclideanRMSEMean: 0.1}}}
	pic, err := IMGPSweep(r)
	require.NoError(t, err)
	require.Len(t, pic.Panels, 1)
	p := pic.Panels[0]
	assert.InDelta(t, -2, p.X.Min, 1e-12)
	assert.InDelta(t, 0, p.X.Max, 1e-12)
	assert.InDelta(t, math.Log10(0.04), p.Y.Min, 1e-12)
	assert.InDelta(t, math.Log10(0.9), p.Y.Max, 1e-12)
	assert.Equal(t, 3*len(r.Summary), points(p), "a point per fraction and model")

	pic, err = IMGP(nil, nil, &protocol.IMGPRun{})
	require.NoError(t, err)
	assert.Empty(t, pic.Panels)
	assert.Len(t, pic.Notes, 1)
}
