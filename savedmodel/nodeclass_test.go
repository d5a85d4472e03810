package savedmodel

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/serve"
)

// nodeclassFixture is an SGC, an APPNP, a Correct & Smooth, a SepGNN and a LINKX on the tiny
// citation graph with four features per node, each opened from its file.
func nodeclassFixture(t *testing.T) (map[string]*Saved, map[string]estimator.NodeClassifier) {
	t.Helper()
	fx := kindFixtures(t)
	saved := map[string]*Saved{}
	models := map[string]estimator.NodeClassifier{}
	for _, kind := range []string{nodeclass.SGCKind, nodeclass.APPNPKind, nodeclass.CorrectSmoothKind, nodeclass.SepGNNKind, nodeclass.LINKXKind} {
		path := filepath.Join(t.TempDir(), "m.gssl")
		require.NoError(t, Save(path, fx[kind].m, fx[kind].c))
		s, err := Open(path)
		require.NoError(t, err, kind)
		saved[kind] = s
		models[kind] = fx[kind].m.(estimator.NodeClassifier)
	}
	return saved, models
}

// TestNodeclassSavedPredictNodes: an opened nodeclass model predicts new
// nodes by id and features as the fitted model's PredictNodes does
// (bitwise), dense and sparse features alike, and refuses what it cannot
// use with an error naming the field.
func TestNodeclassSavedPredictNodes(t *testing.T) {
	ctx := context.Background()
	saved, models := nodeclassFixture(t)
	ds := tiny(t)
	idx := func(id string) int32 {
		i, ok := ds.IDs.Lookup(id)
		require.True(t, ok)
		return int32(i)
	}
	nodes := []serve.NewNode{
		{ID: "n1", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}, Features: []float64{1, 0, 2, 0}},
		{ID: "n2", Features: []float64{0, 3, 0, 1}},
	}
	nn := estimator.NewNodes{Offsets: []int{0, 2, 2}, Nodes: []int32{idx("paper_2"), idx("paper_9")}, Weights: []float64{1, 0.5}}
	x := mat.NewDense(2, 4, append(append([]float64{}, nodes[0].Features...), nodes[1].Features...))
	sparse := &loaders.Sparse{Rows: 2, Cols: 4, Indptr: []int{0, 2, 4}, Indices: []int32{0, 2, 1, 3}, Values: []float64{1, 2, 3, 1}}
	for kind, s := range saved {
		assert.Equal(t, 4, s.Metadata().NodeFeatures, kind)
		want, err := models[kind].Predict(ctx, estimator.NodeQuery{New: ptrTo(nn), Features: nodeclass.Matrix(nodeclass.Features{Dense: x})})
		require.NoError(t, err, kind)
		got, err := s.PredictNodes(ctx, nodes)
		require.NoError(t, err, kind)
		require.Len(t, got, 2)
		for i, p := range got {
			assert.Equal(t, nodes[i].ID, p.ID)
			assert.Equal(t, want.RawRowView(i), p.Probabilities, kind)
			assert.Contains(t, ds.ClassNames, p.Label)
		}
		viaSparse, err := s.PredictNodesWithFeatures(ctx, []serve.NewNode{{ID: "n1", Edges: nodes[0].Edges}, {ID: "n2"}}, nodeclass.Features{Sparse: sparse})
		require.NoError(t, err, kind)
		for i, p := range viaSparse {
			assert.InDeltaSlice(t, got[i].Probabilities, p.Probabilities, 1e-15, kind)
			assert.Equal(t, got[i].ID, p.ID)
		}

		for _, tc := range []struct {
			nodes []serve.NewNode
			field string
			msg   string
		}{
			{[]serve.NewNode{{ID: "a", Edges: nodes[0].Edges}}, "nodes[0].features", "missing"},
			{[]serve.NewNode{nodes[0], {ID: "b", Features: []float64{1, 2}}}, "nodes[1].features", "2 features, the model was fitted on nodes of 4"},
			{[]serve.NewNode{{ID: "a", Edges: []serve.Edge{{To: "paper_99", Weight: 1}}, Features: nodes[0].Features}}, "nodes[0].edges[0].to", "unknown node id \"paper_99\""},
		} {
			_, err := s.PredictNodes(ctx, tc.nodes)
			var ie *serve.InputError
			require.ErrorAs(t, err, &ie, kind)
			assert.Equal(t, tc.field, ie.Field, kind)
			assert.Contains(t, ie.Msg, tc.msg, kind)
		}
		_, err = s.PredictNodesWithFeatures(ctx, nodes, nodeclass.Features{Dense: mat.NewDense(2, 3, nil)})
		assert.ErrorContains(t, err, "fitted on nodes of 4 features")
	}
	// Features sent to a model of edges alone are refused, not ignored.
	f, err := File(fitTiny(t, ds), Context{IDs: ds.IDs})
	require.NoError(t, err)
	lp, err := Decode(f)
	require.NoError(t, err)
	_, err = lp.PredictNodes(ctx, nodes)
	var ie *serve.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "nodes[0].features", ie.Field)
}

// TestNodeclassServe: POST /v1/predict on a saved SGC answers new nodes
// with features, and an unknown id or a wrong feature dimension is a 422
// naming the field.
func TestNodeclassServe(t *testing.T) {
	saved, _ := nodeclassFixture(t)
	s := saved[nodeclass.SGCKind]
	h, err := serve.NewHandler(s, serve.Config{})
	require.NoError(t, err)
	post := func(body string) (int, map[string]any) {
		r := httptest.NewRequest(http.MethodPost, "/v1/predict", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var out map[string]any
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &out), w.Body.String())
		return w.Code, out
	}
	code, out := post(`{"nodes":[{"id":"n1","edges":[{"to":"paper_2"},{"to":"paper_9","weight":0.5}],"features":[1,0,2,0]},{"id":"n2","features":[0,3,0,1]}]}`)
	require.Equal(t, http.StatusOK, code, out)
	preds := out["predictions"].([]any)
	require.Len(t, preds, 2)
	want, err := s.PredictNodes(context.Background(), []serve.NewNode{
		{ID: "n1", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}, Features: []float64{1, 0, 2, 0}},
		{ID: "n2", Features: []float64{0, 3, 0, 1}},
	})
	require.NoError(t, err)
	for i, p := range preds {
		m := p.(map[string]any)
		assert.Equal(t, want[i].ID, m["id"])
		assert.Equal(t, want[i].Label, m["label"])
		for k, v := range m["probabilities"].([]any) {
			assert.Equal(t, want[i].Probabilities[k], v.(float64))
		}
	}
	for _, tc := range []struct {
		body  string
		code  int
		field string
	}{
		{`{"nodes":[{"id":"n1","edges":[{"to":"paper_99"}],"features":[1,0,2,0]}]}`, http.StatusUnprocessableEntity, "nodes[0].edges[0].to"},
		{`{"nodes":[{"id":"n1","edges":[{"to":"paper_2"}],"features":[1,0,2]}]}`, http.StatusUnprocessableEntity, "nodes[0].features"},
		{`{"nodes":[{"id":"n1","edges":[{"to":"paper_2"}]}]}`, http.StatusUnprocessableEntity, "nodes[0].features"},
		{`{"nodes":[{"id":"n1","features":[]}]}`, http.StatusBadRequest, "nodes[0].features"},
		{`{"nodes":[{"id":"n1","features":[1,"a",2,0]}]}`, http.StatusBadRequest, "nodes[0].features"},
	} {
		code, out := post(tc.body)
		assert.Equal(t, tc.code, code, "%s: %v", tc.body, out)
		assert.Equal(t, tc.field, out["field"], tc.body)
	}
}

// TestNodeclassWithoutBase: a Correct & Smooth on a base that does not
// predict new nodes is saved and opened; it answers for its fitted nodes
// and says why it cannot predict new ones, features or not.
func TestNodeclassWithoutBase(t *testing.T) {
	ds := tiny(t)
	n := ds.Graph.Nodes()
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, i%2, 1)
	}
	cs := &nodeclass.CorrectSmooth{Base: &nodeclass.Spreading{}}
	require.NoError(t, cs.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(nodeclass.Features{Dense: x})}, ds.Labels))
	f, err := File(cs, Context{IDs: ds.IDs, ClassNames: ds.ClassNames})
	require.NoError(t, err)
	s, err := Decode(f)
	require.NoError(t, err)
	assert.Zero(t, s.Metadata().NodeFeatures)
	assert.Len(t, s.PredictFitted(), n)
	for _, node := range []serve.NewNode{
		{ID: "a", Edges: []serve.Edge{{To: "paper_2", Weight: 1}}},
		{ID: "a", Edges: []serve.Edge{{To: "paper_2", Weight: 1}}, Features: []float64{1, 0}},
	} {
		_, err := s.PredictNodes(context.Background(), []serve.NewNode{node})
		var ie *serve.InputError
		require.ErrorAs(t, err, &ie)
		assert.Contains(t, ie.Msg, "fitted nodes only")
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestFittedOnlySaved: an opened ChannelMLP, APPNPNet or linbp.Propagation answers
// for its fitted nodes with the fitted model's Predict rows as
// probabilities, bitwise (each row a distribution: belief propagation's
// probabilities, not its centred beliefs), and refuses new nodes, with or
// without features, with an input error that says why.
func TestFittedOnlySaved(t *testing.T) {
	ctx := context.Background()
	fx := kindFixtures(t)
	for _, kind := range []string{nodeclass.ChannelMLPKind, nodeclass.APPNPNetKind, linbp.PropagationKind} {
		path := filepath.Join(t.TempDir(), "m.gssl")
		require.NoError(t, Save(path, fx[kind].m, fx[kind].c))
		s, err := Open(path)
		require.NoError(t, err, kind)
		want, err := fx[kind].m.(estimator.NodeClassifier).Predict(ctx, estimator.FittedNodes)
		require.NoError(t, err, kind)
		got := s.PredictFitted()
		require.Len(t, got, want.RawMatrix().Rows, kind)
		for i, p := range got {
			require.Equal(t, want.RawRowView(i), p.Probabilities, "%s: node %d", kind, i)
			require.InDelta(t, 1, floats.Sum(p.Probabilities), 1e-14, "%s: node %d", kind, i)
			require.GreaterOrEqual(t, floats.Min(p.Probabilities), 0.0, "%s: node %d", kind, i)
		}
		require.Zero(t, s.Metadata().NodeFeatures, kind)
		var ie *serve.InputError
		_, err = s.PredictNodes(ctx, []serve.NewNode{{ID: "n1", Edges: []serve.Edge{{To: "paper_2", Weight: 1}}}})
		require.ErrorAs(t, err, &ie, kind)
		require.ErrorContains(t, err, "fitted nodes only", kind)
		_, err = s.PredictNodesWithFeatures(ctx, []serve.NewNode{{ID: "n1"}}, nodeclass.Features{Dense: mat.NewDense(1, 4, nil)})
		require.ErrorAs(t, err, &ie, kind)
	}
}
