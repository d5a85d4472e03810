package graphkernels

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gssl/gssl/estimator"
)

// TestEncodingFailsLoudly: no encoder silently drops a fitted kernel.
func TestEncodingFailsLoudly(t *testing.T) {
	for _, k := range []any{&WeisfeilerLehman{H: 2}, &VertexHistogram{}, &ShortestPath{}, &RandomWalk{Lambda: 0.01}, &Cosine{Kernel: &WeisfeilerLehman{}}} {
		var buf bytes.Buffer
		assert.ErrorIs(t, gob.NewEncoder(&buf).Encode(k), ErrNotSaved, "%T gob", k)
		_, err := json.Marshal(k)
		assert.ErrorIs(t, err, estimator.ErrJSON, "%T json", k)
		assert.ErrorIs(t, json.Unmarshal([]byte("{}"), k), estimator.ErrJSON, "%T json", k)
	}
}
