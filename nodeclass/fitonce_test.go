package nodeclass

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

// countingBase counts its fits; Predict returns nothing.
type countingBase struct {
	estimator.NodeClassifier
	fits int
}

func (c *countingBase) Fit(context.Context, estimator.Nodes, []int) error {
	c.fits++
	return nil
}

// TestFitOnce checks that FitOnce refits its model exactly when the graph,
// the features or the labels differ from the last fit's.
func TestFitOnce(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	g2, _, _ := heterophilous(t, 30, 2)
	base := &countingBase{}
	m := FitOnce(base)
	nodes := estimator.Nodes{Graph: g, Features: x}
	labels := slices.Clone(truth)
	for k, step := range []struct {
		nodes  estimator.Nodes
		labels []int
		fits   int
	}{
		{nodes, labels, 1},
		{nodes, slices.Clone(labels), 1},                         // equal labels, another slice
		{nodes, append([]int{-1}, labels[1:]...), 2},             // a label hidden
		{estimator.Nodes{Graph: g2, Features: x}, labels, 3},     // another graph
		{estimator.Nodes{Graph: g2, Features: x.T()}, labels, 4}, // other features
		{estimator.Nodes{Graph: g2, Features: x.T()}, labels, 4}, // the same again
	} {
		require.NoError(t, m.Fit(ctx, step.nodes, step.labels))
		require.Equal(t, step.fits, base.fits, "step %d", k)
	}
}
