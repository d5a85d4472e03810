package serve

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeCounter is a graph classifier that allocates per node, as a graph
// kernel does, and counts the nodes it was given.
type nodeCounter struct {
	*fake
	nodes atomic.Int64
}

func (c *nodeCounter) PredictGraphs(ctx context.Context, graphs []Graph) ([]Prediction, error) {
	for _, g := range graphs {
		c.nodes.Add(int64(g.Nodes))
		_ = make([]int64, g.Nodes) // what a model's per-node tables would cost
	}
	return c.fake.PredictGraphs(ctx, graphs)
}

// batchOf is a request of k graphs of n nodes and no edges.
func batchOf(k, n int) string {
	g := fmt.Sprintf(`{"nodes":%d,"edges":[]}`, n)
	return `{"graphs":[` + strings.TrimSuffix(strings.Repeat(g+",", k), ",") + `]}`
}

// TestBatchTotals: a small body that names many large graphs is refused
// with a 413 naming the graph where the batch passes its total, before the
// model sees any of it, and the request costs memory in proportion to its
// body, not to the nodes it names (measured by runtime.MemStats).
func TestBatchTotals(t *testing.T) {
	m := &nodeCounter{fake: newFake()}
	h := newTestHandler(t, m, Config{}) // the defaults: 1000 graphs of 10 000 nodes each pass the per-graph limits
	attack := batchOf(DefaultMaxBatch, DefaultMaxGraphNodes)
	require.Less(t, len(attack), 64<<10, "the attack is a small body")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := do(h, "POST", "/v1/predict", attack)
	runtime.ReadMemStats(&after)
	require.Equal(t, 413, w.Code, w.Body.String())
	body := decodeInto[ErrorBody](t, w)
	assert.Equal(t, fmt.Sprintf("graphs[%d]", DefaultMaxBatchNodes/DefaultMaxGraphNodes), body.Field)
	assert.Contains(t, body.Error, "split the batch")
	assert.Zero(t, m.nodes.Load(), "the model saw none of the refused batch")
	// The decoder's work is a few copies of the body and one small value per
	// graph; the nodes named (10⁷, 80 MB at 8 bytes each) never appear.
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(100*len(attack)), "bytes allocated for a %d-byte body", len(attack))

	// Edges count likewise, and a batch at the totals passes.
	h = newTestHandler(t, m, Config{MaxBatchNodes: 10, MaxBatchEdges: 3})
	w = do(h, "POST", "/v1/predict", `{"graphs":[{"nodes":2,"edges":[[0,1],[1,0]]},{"nodes":2,"edges":[[0,1],[1,0]]}]}`)
	require.Equal(t, 413, w.Code, w.Body.String())
	assert.Equal(t, "graphs[1]", decodeInto[ErrorBody](t, w).Field)
	w = do(h, "POST", "/v1/predict", batchOf(5, 2))
	require.Equal(t, 200, w.Code, w.Body.String())
	assert.EqualValues(t, 10, m.nodes.Load())
	w = do(h, "POST", "/v1/predict", batchOf(11, 1))
	require.Equal(t, 413, w.Code, w.Body.String())
	assert.EqualValues(t, 10, m.nodes.Load(), "the model saw only the batch that passed")

	_, err := NewHandler(m, Config{MaxBatchNodes: -1})
	assert.ErrorContains(t, err, "MaxBatchNodes")
}

// TestStrictJSON: a key given twice and text that is not UTF-8 are 400s
// naming the field, not the last value or U+FFFD.
func TestStrictJSON(t *testing.T) {
	h := newTestHandler(t, newFake(), Config{})
	for _, tc := range []struct {
		body, field, msg string
	}{
		{`{"points":[[1,2]],"points":[[3,4]]}`, "points", `duplicate key "points"`},
		{`{"nodes":[{"id":"x","id":"y","edges":[]}]}`, "nodes[0].id", `duplicate key "id"`},
		{`{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1,"weight":2}]}]}`, "nodes[0].edges[0].weight", "duplicate key"},
		{`{"graphs":[{"nodes":1,"edges":[]},{"nodes":1,"nodes":2,"edges":[]}]}`, "graphs[1].nodes", "duplicate key"},
		{"{\"nodes\":[{\"id\":\"x\xff\",\"edges\":[]}]}", "nodes[0].id", "invalid UTF-8"},
		{"{\"nodes\":[{\"id\":\"x\",\"edges\":[{\"to\":\"a\xc3\"}]}]}", "nodes[0].edges[0].to", "invalid UTF-8"},
		{"{\"graphs\":[{\"i\xffd\":\"g\"}]}", "graphs[0]", "invalid UTF-8 in the key"},
		{`{"points":[[1,2]],"Points":[[3,4]]}`, "Points", "duplicate key \"Points\""},
		{`{"points":[[1,2]],"p\u006fints":[[3,4]]}`, "points", "duplicate key"},
	} {
		w := do(h, "POST", "/v1/predict", tc.body)
		require.Equal(t, 400, w.Code, "%q: %s", tc.body, w.Body.String())
		got := decodeInto[ErrorBody](t, w)
		assert.Equal(t, tc.field, got.Field, tc.body)
		assert.Contains(t, got.Error, tc.msg, tc.body)
	}
	// Equal keys in different objects are not duplicates; valid UTF-8 passes.
	w := do(h, "POST", "/v1/predict", `{"nodes":[{"id":"é","edges":[{"to":"a1"}]},{"id":"y","edges":[{"to":"b1"}]}]}`)
	require.Equal(t, 200, w.Code, w.Body.String())
	assert.Equal(t, "é", decodeInto[Response](t, w).Predictions[0].ID)
}

// TestNonFiniteAnswer: finite points whose prediction overflows (regFake's
// variance 1 + x₁² at x₁ = 1e308) are a 422 naming the point, not a 500.
func TestNonFiniteAnswer(t *testing.T) {
	h := newTestHandler(t, regFake{}, Config{})
	w := do(h, "POST", "/v1/predict", `{"points":[[1,2],[0,1e308]]}`)
	require.Equal(t, 422, w.Code, w.Body.String())
	got := decodeInto[ErrorBody](t, w)
	assert.Equal(t, "points[1]", got.Field)
	assert.Contains(t, got.Error, "not a finite number")
	w = do(h, "POST", "/v1/predict", `{"points":[[1,2],[0,1e100]]}`)
	require.Equal(t, 200, w.Code, w.Body.String())

	// Weights whose sum overflows would give the class prior: refused.
	h = newTestHandler(t, newFake(), Config{})
	w = do(h, "POST", "/v1/predict", `{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1e308},{"to":"b1","weight":1e308}]}]}`)
	require.Equal(t, 422, w.Code, w.Body.String())
	assert.Equal(t, "nodes[0].edges[0].weight", decodeInto[ErrorBody](t, w).Field)
}
