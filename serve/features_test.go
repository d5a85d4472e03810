package serve

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeNodeFeatures: a node's "features" are decoded as given (absent
// or null: nil), and an empty vector, a value of the wrong type or a
// misspelt field is a 400 naming it.
func TestDecodeNodeFeatures(t *testing.T) {
	req, herr := decodeRequest(strings.NewReader(`{"nodes":[{"id":"a","edges":[{"to":"x"}],"features":[1,-2.5,0]},{"id":"b","features":null},{"id":"c"}]}`), limits{batch: 10, graphNodes: 10, graphEdges: 10})
	require.Nil(t, herr)
	assert.Equal(t, []float64{1, -2.5, 0}, req.Nodes[0].Features)
	assert.Nil(t, req.Nodes[1].Features)
	assert.Nil(t, req.Nodes[2].Features)
	for body, field := range map[string]string{
		`{"nodes":[{"id":"a","features":[]}]}`:                 "nodes[0].features",
		`{"nodes":[{"id":"a"},{"id":"b","features":[1,"x"]}]}`: "nodes[1].features",
		`{"nodes":[{"id":"a","feature":[1]}]}`:                 "nodes[0].feature",
	} {
		_, herr := decodeRequest(strings.NewReader(body), limits{batch: 10, graphNodes: 10, graphEdges: 10})
		require.NotNil(t, herr, body)
		assert.Equal(t, 400, herr.status, body)
		assert.Equal(t, field, herr.field, body)
	}
	_, herr = decodeRequest(strings.NewReader(`{"nodes":[{"id":"a","feature":[1]}]}`), limits{batch: 10, graphNodes: 10, graphEdges: 10})
	assert.Contains(t, herr.msg, "nodes[].features")
}
