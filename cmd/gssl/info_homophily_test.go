package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInfoHomophily checks gssl info's homophily against the figures
// Platonov et al. publish for Cora ("Characterizing graph datasets for
// node classification", two decimals) and that a data set without labels
// says why there is none.
func TestInfoHomophily(t *testing.T) {
	var out, errw bytes.Buffer
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput("../../testdata/cora"), JSON: true}, &out, &errw))
	h, ok := decodeOne(t, out.Bytes())["homophily"].(map[string]any)
	require.True(t, ok, "%s", out.String())
	assert.InDelta(t, 0.81, h["edge_homophily"], 0.005)
	assert.InDelta(t, 0.77, h["adjusted_homophily"], 0.005)
	assert.InDelta(t, 0.59, h["label_informativeness"], 0.005)
	assert.Equal(t, "smoothing", h["family"])
	assert.Len(t, h["compatibility"], 7)

	out.Reset()
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput("../../testdata/cora"), JSON: false}, &out, &errw))
	assert.Contains(t, out.String(), "adjusted 0.771")
}
