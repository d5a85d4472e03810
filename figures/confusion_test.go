package figures

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ConfusionPanels' accuracy panel states the overall accuracy, the trace
// over the sum, counted here by hand; a ragged matrix is an error.
func TestConfusionPanels(t *testing.T) {
	panels, err := ConfusionPanels([][]int{{3, 1, 0}, {0, 0, 0}, {1, 0, 3}}, []string{"a", "b", "c"})
	require.NoError(t, err)
	require.Len(t, panels, 2)
	assert.Contains(t, panels[1].Title.Text, "overall 0.750") // (3+0+3)/8
	_, err = ConfusionPanels([][]int{{1, 2}, {3}}, nil)
	assert.Error(t, err)
}
