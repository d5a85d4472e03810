package serve

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPredictGraphs(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	w := do(h, "POST", "/v1/predict", `{"graphs":[
		{"id":"triangle","labels":[0,1,1],"edges":[[0,1],[1,2],[2,0]]},
		{"nodes":4,"edges":[[0,1]]},
		{"id":"empty","nodes":0,"edges":[]}]}`)
	require.Equal(t, 200, w.Code, w.Body.String())
	resp := decodeInto[Response](t, w)
	assert.Equal(t, []string{"A", "B"}, resp.Classes)
	require.Len(t, resp.Predictions, 3)
	assert.Equal(t, Prediction{ID: "triangle", Label: "A", Probabilities: []float64{0.5, 0.5}}, resp.Predictions[0])
	assert.Equal(t, Prediction{Label: "A", Probabilities: []float64{1 - 2.0/7, 2.0 / 7}}, resp.Predictions[1], "no id: none in the answer")
	assert.Equal(t, "empty", resp.Predictions[2].ID)

	// A model error about one graph is a 422 naming it.
	w = do(h, "POST", "/v1/predict", `{"graphs":[{"labels":[-1],"edges":[]}]}`)
	require.Equal(t, 422, w.Code, w.Body.String())
	assert.Equal(t, "graphs[0].labels[0]", decodeInto[ErrorBody](t, w).Field)
}

// TestPredictGraphsRefused: malformed and oversized graphs are 4xx answers
// naming the field, before the model sees them.
func TestPredictGraphsRefused(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{MaxBatch: 2, MaxGraphNodes: 5, MaxGraphEdges: 3})
	for _, tc := range []struct {
		body   string
		status int
		field  string
		msg    string
	}{
		{`{"graphs":[]}`, 400, "graphs", "empty batch"},
		{`{"graphs":[{"nodes":1,"edges":[]},{"nodes":1,"edges":[]},{"nodes":1,"edges":[]}]}`, 413, "graphs", "3 graphs in one request, more than the server's limit of 2"},
		{`{"graphs":[{"labels":[0,0,0,0,0,0],"edges":[]}]}`, 413, "graphs[0].labels", "6 nodes in one graph"},
		{`{"graphs":[{"nodes":1000000000000,"edges":[]}]}`, 413, "graphs[0].nodes", "limit of 5"},
		{`{"graphs":[{"nodes":3,"edges":[[0,1],[1,2],[2,0],[0,2]]}]}`, 413, "graphs[0].edges", "4 edges in one graph, more than the server's limit of 3"},
		{`{"graphs":[{"nodes":-1,"edges":[]}]}`, 400, "graphs[0].nodes", "must be ≥ 0"},
		{`{"graphs":[{"edges":[]}]}`, 400, "graphs[0]", `missing "labels"`},
		{`{"graphs":[{"nodes":2,"labels":[0,1,2],"edges":[]}]}`, 400, "graphs[0].nodes", "2 nodes, but 3 labels"},
		{`{"graphs":[{"labels":[0,"C"],"edges":[]}]}`, 400, "graphs[0].labels", "a string, want an integer"},
		{`{"graphs":[{"labels":[0,1.5],"edges":[]}]}`, 400, "graphs[0].labels", "not an integer"},
		{`{"graphs":[{"labels":[0,1],"edges":[[0,1,1]]}]}`, 400, "graphs[0].edges[0]", "3 numbers: an edge is a pair"},
		{`{"graphs":[{"labels":[0,1],"edges":[[0,1],{"u":0}]}]}`, 400, "graphs[0].edges[1]", "want an array"},
		{`{"graphs":[{"labels":[0,1],"edges":[[0,1],null]}]}`, 400, "graphs[0].edges[1]", "null"},
		{`{"graphs":[{"labels":[0,1],"edges":[[0,2]]}]}`, 422, "graphs[0].edges[0]", "node index 2 is out of range: the graph has 2 nodes"},
		{`{"graphs":[{"labels":[0,1],"edges":[[-1,0]]}]}`, 422, "graphs[0].edges[0]", "node index -1"},
		{`{"graphs":[{"labels":[0],"edges":[],"colour":"red"}]}`, 400, "graphs[0].colour", "unknown field"},
		{`{"graphs":[null]}`, 400, "graphs[0]", "null"},
		{`{"graphs":[{"labels":[0],"edges":[]}],"nodes":[]}`, 400, "graphs", "not several"},
		{`{"graphs":{"labels":[0]}}`, 400, "graphs", "want an array"},
	} {
		w := do(h, "POST", "/v1/predict", tc.body)
		require.Equal(t, tc.status, w.Code, "%s: %s", tc.body, w.Body.String())
		e := decodeInto[ErrorBody](t, w)
		assert.Equal(t, tc.field, e.Field, tc.body)
		assert.Contains(t, e.Error, tc.msg, tc.body)
	}

	// A model that is not a GraphPredictor refuses graphs by name.
	h = newTestHandler(t, regFake{}, Config{})
	w := do(h, "POST", "/v1/predict", `{"graphs":[{"nodes":1,"edges":[]}]}`)
	require.Equal(t, 422, w.Code, w.Body.String())
	e := decodeInto[ErrorBody](t, w)
	assert.Equal(t, "graphs", e.Field)
	assert.True(t, strings.HasPrefix(e.Error, "a test.Reg model predicts points from their features (2 each), not graphs"), e.Error)
}
