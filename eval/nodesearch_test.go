package eval_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
)

// A Refine that returns no models for the chosen candidate leaves the
// choice as it was: the outcome is that of the search without Refine,
// bitwise, with no base; one that returns models replaces it.
func TestEvaluateNodesRefineNothing(t *testing.T) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	require.NoError(t, err)
	x := estimator.Nodes{Graph: ds.Graph, Features: ds.Features}
	grid := func(c int) []estimator.NodeClassifier {
		return []estimator.NodeClassifier{&nodeclass.SGC{Classes: c}, &nodeclass.SGC{Classes: c, K: 1}}
	}
	ctx := context.Background()
	plain, err := eval.EvaluateNodes(ctx, eval.NodeSearch{Grid: grid}, x, ds.Labels, *ds.Split, eval.CV{})
	require.NoError(t, err)
	none := func(estimator.NodeClassifier) []estimator.NodeClassifier { return nil }
	kept, err := eval.EvaluateNodes(ctx, eval.NodeSearch{Grid: grid, Refine: none}, x, ds.Labels, *ds.Split, eval.CV{})
	require.NoError(t, err)
	require.Equal(t, plain.Model, kept.Model)
	require.Equal(t, plain.Val, kept.Val)
	require.Equal(t, plain.Test, kept.Test)
	require.True(t, slices.Equal(plain.Probabilities.RawMatrix().Data, kept.Probabilities.RawMatrix().Data))
	require.Empty(t, kept.Base)
	require.Zero(t, kept.BaseTest)

	cs := func(best estimator.NodeClassifier) []estimator.NodeClassifier {
		return nodeclass.CorrectSmoothGrid(best)[:2]
	}
	refined, err := eval.EvaluateNodes(ctx, eval.NodeSearch{Grid: grid, Refine: cs}, x, ds.Labels, *ds.Split, eval.CV{})
	require.NoError(t, err)
	require.Equal(t, plain.Model, refined.Base)
	require.Contains(t, refined.Model, "correct-smooth(")
}
