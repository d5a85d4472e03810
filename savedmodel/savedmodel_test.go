package savedmodel

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/serve"
	"github.com/gssl/gssl/stkr"
)

// tiny loads testdata/serve (string ids, class names, four labels).
func tiny(t testing.TB) *loaders.NodeDataset {
	t.Helper()
	ds, err := loaders.LoadNodes(loaders.NodeFiles{
		Edges:  "../testdata/serve/edges.csv",
		Labels: "../testdata/serve/labels.csv",
		Graph:  loaders.UserGraphOptions(),
	})
	require.NoError(t, err)
	return ds
}

func fitTiny(t testing.TB, ds *loaders.NodeDataset) *labelprop.Spreading {
	t.Helper()
	m := &labelprop.Spreading{Alpha: 0.9}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	return m
}

func TestSaveOpenPredict(t *testing.T) {
	ds := tiny(t)
	require.True(t, ds.IDs.IsText())
	m := fitTiny(t, ds)
	path := filepath.Join(t.TempDir(), "m.gssl")
	require.NoError(t, Save(path, m, Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: "testdata/serve/edges.csv"}))
	s, err := Open(path)
	require.NoError(t, err)

	meta := s.Metadata()
	assert.Equal(t, labelprop.SpreadingKind, meta.Kind)
	assert.Equal(t, serve.Classification, meta.Task)
	assert.Equal(t, ds.ClassNames, meta.Classes)
	assert.Equal(t, 12, meta.Nodes)
	assert.Equal(t, 0, meta.Features)
	assert.JSONEq(t, `{"alpha":0.9,"solver":"auto","tol":0,"max_iter":0,"classes":0,"class_mass_normalization":false,"isolated_seeds":"error","ordering":"natural","float32":false,"stop":"residual","label_patience":0,"label_tol":0}`, string(meta.Hyperparameters))
	assert.Equal(t, "testdata/serve/edges.csv", s.Context().Data)

	// New nodes by id: the same as the library's prediction by index.
	nodes := []serve.NewNode{
		{ID: "x", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}},
		{ID: "alone", Edges: nil},
	}
	got, err := s.PredictNodes(context.Background(), nodes)
	require.NoError(t, err)
	i2, _ := ds.IDs.Lookup("paper_2")
	i9, _ := ds.IDs.Lookup("paper_9")
	want, err := m.NewNodeDetails(context.Background(), estimator.NewNodes{Offsets: []int{0, 2, 2}, Nodes: []int32{int32(i2), int32(i9)}, Weights: []float64{1, 0.5}})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "x", got[0].ID)
	assert.Equal(t, ds.ClassNames[want[0].Label], got[0].Label)
	assert.Equal(t, want[0].Probabilities, got[0].Probabilities)
	assert.False(t, got[0].Prior)
	assert.True(t, got[1].Prior)

	_, err = s.PredictNodes(context.Background(), []serve.NewNode{{ID: "y", Edges: []serve.Edge{{To: "paper_1", Weight: 1}, {To: "paper_99", Weight: 1}}}})
	var ie *serve.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "nodes[0].edges[1].to", ie.Field)
	assert.Contains(t, ie.Msg, `unknown node id "paper_99"`)
	_, err = s.PredictPoints(context.Background(), [][]float64{{1}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "points", ie.Field)

	fittedPred := s.PredictFitted()
	require.Len(t, fittedPred, 12)
	labels := m.Labels()
	for i, p := range fittedPred {
		assert.Equal(t, ds.IDs.ID(i), p.ID)
		assert.Equal(t, ds.ClassNames[labels[i]], p.Label)
		assert.Equal(t, m.Probabilities().RawRowView(i), p.Probabilities)
	}
}

func TestIDKinds(t *testing.T) {
	ds := tiny(t)
	m := fitTiny(t, ds)
	ints := make([]int64, 12)
	for i := range ints {
		ints[i] = int64(100 + 3*i)
	}
	im, err := nodeids.FromInts(ints)
	require.NoError(t, err)
	for _, c := range []struct {
		ids   *nodeids.Map
		probe string
	}{{nil, "11"}, {nodeids.Identity(12), "0"}, {im, "103"}} {
		f, err := File(m, Context{IDs: c.ids})
		require.NoError(t, err)
		b, err := f.MarshalBinary()
		require.NoError(t, err)
		g, err := modelfile.Unmarshal(b)
		require.NoError(t, err)
		s, err := Decode(g)
		require.NoError(t, err)
		_, err = s.PredictNodes(context.Background(), []serve.NewNode{{ID: "n", Edges: []serve.Edge{{To: c.probe, Weight: 1}}}})
		require.NoError(t, err, c.probe)
		assert.Equal(t, []string{"0", "1"}, s.Metadata().Classes, "class numbers without names")
	}
	// Ids that disagree with the model's size.
	f, err := File(m, Context{IDs: nodeids.Identity(12)})
	require.NoError(t, err)
	f.PutStrings("data.ids", []string{"a", "b"})
	_, err = Decode(f)
	assert.ErrorContains(t, err, "2 node ids for a model of 12 nodes")
}

func TestUnknownKind(t *testing.T) {
	f := modelfile.New("svm.SVC", 1)
	_, err := Decode(f)
	assert.True(t, errors.Is(err, modelfile.ErrKind))
	assert.ErrorContains(t, err, `"svm.SVC" model, and this gssl reads labelprop.Spreading, labelprop.Harmonic, stkr.Regressor, stkr.Classifier, gp.Regressor, krr.Exact, krr.Nystrom, krr.Falkon`)
	_, err = Open(filepath.Join(t.TempDir(), "missing.gssl"))
	assert.Error(t, err)
}

func TestHarmonicSaved(t *testing.T) {
	ds := tiny(t)
	m := &labelprop.Harmonic{ClassMassNormalization: true}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	f, err := File(m, Context{IDs: ds.IDs, ClassNames: ds.ClassNames})
	require.NoError(t, err)
	s, err := Decode(f)
	require.NoError(t, err)
	assert.Equal(t, labelprop.HarmonicKind, s.Metadata().Kind)
	p := s.PredictFitted()
	assert.Equal(t, "Theory", p[11].Label)
	assert.Equal(t, "Neural_Networks", p[1].Label)
}

func TestSTKRSaved(t *testing.T) {
	ds := tiny(t)
	k, err := stkr.NewGraphKernel(ds.Graph)
	require.NoError(t, err)
	m := &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.Power(2), Beta: 0.1}, Classes: len(ds.ClassNames)}
	require.NoError(t, m.FitKernel(context.Background(), k, ds.Labels))
	f, err := File(m, Context{IDs: ds.IDs, ClassNames: ds.ClassNames})
	require.NoError(t, err)
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	g, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	s, err := Decode(g)
	require.NoError(t, err)
	meta := s.Metadata()
	assert.Equal(t, stkr.ClassifierKind, meta.Kind)
	assert.Equal(t, serve.Classification, meta.Task)
	assert.Equal(t, ds.ClassNames, meta.Classes)
	fittedPred := s.PredictFitted()
	want, err := m.Scores()
	require.NoError(t, err)
	probs, labels, _ := stkr.Normalize(want, ds.Labels)
	for i, p := range fittedPred {
		assert.Equal(t, want.RawRowView(i), p.Scores)
		assert.Equal(t, probs.RawRowView(i), p.Probabilities, "as gssl stkr --out")
		assert.Equal(t, ds.ClassNames[labels[i]], p.Label)
	}
	got, err := s.PredictNodes(context.Background(), []serve.NewNode{{ID: "x", Edges: []serve.Edge{{To: "paper_11", Weight: 1}}}, {ID: "none"}})
	require.NoError(t, err)
	assert.Equal(t, "Theory", got[0].Label, "λ² reaches paper_12's label through paper_11")
	assert.False(t, got[0].Prior)
	assert.True(t, got[1].Prior)
	assert.Equal(t, m.Prior(), got[1].Probabilities)

	// Regression: mean per node.
	y := make([]float64, len(ds.Labels))
	for i, l := range ds.Labels {
		y[i] = math.NaN()
		if l >= 0 {
			y[i] = float64(l)
		}
	}
	r := &stkr.Regressor{Transform: stkr.Power(2), Beta: 0.1}
	require.NoError(t, r.FitKernel(context.Background(), k, y))
	f, err = File(r, Context{IDs: ds.IDs})
	require.NoError(t, err)
	s, err = Decode(f)
	require.NoError(t, err)
	assert.Equal(t, serve.Regression, s.Metadata().Task)
	assert.Nil(t, s.Metadata().Classes)
	got, err = s.PredictNodes(context.Background(), []serve.NewNode{{ID: "x", Edges: []serve.Edge{{To: "paper_12", Weight: 1}}}})
	require.NoError(t, err)
	require.NotNil(t, got[0].Mean)
	assert.Empty(t, got[0].Label)
}

func TestGPSaved(t *testing.T) {
	x := mat.NewDense(6, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 1, 1, 2})
	y := []float64{0, 1, 0.5, 1.5, 2.5, math.NaN()}
	m := &gp.Regressor{Fixed: true}
	require.NoError(t, m.Fit(context.Background(), x, y))
	f, err := File(m, Context{Data: "points.csv"})
	require.NoError(t, err)
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	g, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	s, err := Decode(g)
	require.NoError(t, err)
	meta := s.Metadata()
	assert.Equal(t, serve.Regression, meta.Task)
	assert.Equal(t, 2, meta.Features)
	assert.Equal(t, 0, meta.Nodes)
	got, err := s.PredictPoints(context.Background(), [][]float64{{0.5, 0.5}, {3, 3}})
	require.NoError(t, err)
	want, err := m.Predict(context.Background(), mat.NewDense(2, 2, []float64{0.5, 0.5, 3, 3}))
	require.NoError(t, err)
	for i := range got {
		assert.Equal(t, want.Mean[i], *got[i].Mean)
		assert.Equal(t, want.Variance[i], *got[i].Variance)
	}
	var ie *serve.InputError
	_, err = s.PredictPoints(context.Background(), [][]float64{{1, 2}, {1, 2, 3}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "points[1]", ie.Field)
	_, err = s.PredictNodes(context.Background(), []serve.NewNode{{ID: "x"}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "nodes", ie.Field)
	fit := s.PredictFitted()
	require.Len(t, fit, 5, "the five points with a target")
	assert.Equal(t, "4", fit[4].ID)

	// A standardisation of the targets is undone.
	f, err = File(m, Context{TargetMean: 10, TargetScale: 2})
	require.NoError(t, err)
	s2, err := Decode(f)
	require.NoError(t, err)
	scaled, err := s2.PredictPoints(context.Background(), [][]float64{{0.5, 0.5}})
	require.NoError(t, err)
	assert.Equal(t, 10+2*want.Mean[0], *scaled[0].Mean)
	assert.Equal(t, 4*want.Variance[0], *scaled[0].Variance)
	assert.Equal(t, 10+2**fit[0].Mean, *s2.PredictFitted()[0].Mean)

	// Served: points answered with mean and variance.
	h, err := serve.NewHandler(s, serve.Config{})
	require.NoError(t, err)
	r := httptest.NewRequest("POST", "/v1/predict", strings.NewReader(`{"points":[[0.5,0.5]]}`))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	require.Equal(t, 200, w.Code, w.Body.String())
	var resp serve.Response
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &resp))
	assert.Equal(t, want.Mean[0], *resp.Predictions[0].Mean)
	assert.Equal(t, want.Variance[0], *resp.Predictions[0].Variance)
}

// TestConcurrentPredictions: one opened model answers many goroutines at
// once with the answers it gives one at a time (run under -race).
func TestConcurrentPredictions(t *testing.T) {
	ds := tiny(t)
	lp := fitTiny(t, ds)
	k, err := stkr.NewGraphKernel(ds.Graph)
	require.NoError(t, err)
	st := &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 1}}
	require.NoError(t, st.FitKernel(context.Background(), k, ds.Labels))
	nodes := []serve.NewNode{{ID: "x", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}}}
	for _, m := range []Model{lp, st} {
		f, err := File(m, Context{IDs: ds.IDs, ClassNames: ds.ClassNames})
		require.NoError(t, err)
		s, err := Decode(f)
		require.NoError(t, err)
		want, err := s.PredictNodes(context.Background(), nodes)
		require.NoError(t, err)
		errs := make(chan error, 8)
		for g := 0; g < 8; g++ {
			go func() {
				for i := 0; i < 50; i++ {
					got, err := s.PredictNodes(context.Background(), nodes)
					if err == nil && !assert.ObjectsAreEqual(want, got) {
						err = errors.New("a concurrent answer differs")
					}
					if err != nil {
						errs <- err
						return
					}
				}
				errs <- nil
			}()
		}
		for g := 0; g < 8; g++ {
			require.NoError(t, <-errs)
		}
	}
}

func TestKRRSaved(t *testing.T) {
	x := mat.NewDense(8, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1, 5, 5, 5, 6, 6, 5, 6, 6})
	onehot := mat.NewDense(8, 2, []float64{1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1})
	m := &krr.Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3, Centres: krr.Centres{M: 6}}
	require.NoError(t, m.FitTargets(context.Background(), x, onehot))
	f, err := File(m, Context{ClassNames: []string{"low", "high"}})
	require.NoError(t, err)
	s, err := Decode(f)
	require.NoError(t, err)
	meta := s.Metadata()
	assert.Equal(t, serve.Classification, meta.Task)
	assert.Equal(t, 2, meta.Features)
	q := [][]float64{{0.5, 0.5}, {5.5, 5.5}}
	got, err := s.PredictPoints(context.Background(), q)
	require.NoError(t, err)
	want, err := m.PredictTargets(context.Background(), mat.NewDense(2, 2, []float64{0.5, 0.5, 5.5, 5.5}))
	require.NoError(t, err)
	assert.Equal(t, "low", got[0].Label)
	assert.Equal(t, "high", got[1].Label)
	assert.Equal(t, want.RawRowView(1), got[1].Scores)

	y := mat.NewDense(8, 1, []float64{0, 1, 1, 2, 10, 11, 11, 12})
	e := &krr.Exact{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3}
	require.NoError(t, e.FitTargets(context.Background(), x, y))
	f, err = File(e, Context{})
	require.NoError(t, err)
	s, err = Decode(f)
	require.NoError(t, err)
	assert.Equal(t, serve.Regression, s.Metadata().Task)
	got, err = s.PredictPoints(context.Background(), q)
	require.NoError(t, err)
	want, _ = e.PredictTargets(context.Background(), mat.NewDense(2, 2, []float64{0.5, 0.5, 5.5, 5.5}))
	assert.Equal(t, want.At(0, 0), *got[0].Mean)
	assert.Nil(t, got[0].Variance)
}
