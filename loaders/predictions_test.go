package loaders

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/nodeids"
)

// TestPredictionTable writes the predictions of a four-node data set and
// compares the CSV with the table written out by hand.
func TestPredictionTable(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"a", "b", "c", "d"})
	require.NoError(t, err)
	ds := &NodeDataset{IDs: ids, Labels: []int{0, 1, -1, 1}, Classes: 2, ClassNames: []string{"x", "y"}}
	prob := mat.NewDense(4, 2, []float64{0.9, 0.1, 0.2, 0.8, 0.5, 0.5, 0.3, 0.7})
	for _, tc := range []struct {
		p    ClassPredictions
		want string
	}{
		{ClassPredictions{Parts: []string{"train", "val", "", "test"}, WithSplit: true, Probabilities: prob},
			"id,predicted,label,split,p_x,p_y\nb,y,y,val,0.2,0.8\nc,x,,,0.5,0.5\nd,y,y,test,0.3,0.7\n"},
		{ClassPredictions{Parts: []string{"train", "", "", "train"}, Predicted: []int{0, 0, 1, 1}, Probabilities: prob, Sets: [][]int{nil, {0, 1}, {1}, nil}},
			"id,predicted,p_x,p_y,set\nb,x,0.2,0.8,x|y\nc,y,0.5,0.5,y\n"},
	} {
		var b bytes.Buffer
		cols, rows, row := ds.PredictionTable(tc.p)
		require.NoError(t, WriteTable(&b, false, cols, rows, row))
		require.Equal(t, tc.want, b.String())
	}
}
