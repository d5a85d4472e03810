package protocol

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/propagate"
	"github.com/gssl/gssl/stkr"
)

// TestUseFeatures checks that the prepared task fits on the feature kernel:
// γ = 0 gives the graph kernel's outcome bitwise, γ > 0 the outcome of a
// Regressor fitted on NewFeatureKernel directly.
func TestUseFeatures(t *testing.T) {
	ctx := context.Background()
	g, err := graph.FromEdges(8, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 4, V: 5, W: 1}, {U: 5, V: 6, W: 1}, {U: 6, V: 7, W: 1}, {U: 3, V: 4, W: 1}}, graph.Options{})
	require.NoError(t, err)
	labels := []int{0, 0, 0, 0, 1, 1, 1, 1}
	x := propagate.Features{Dense: mat.NewDense(8, 2, []float64{1, 0, 1, 0.1, 0.9, 0, 1, 0.2, 0, 1, 0.1, 1, 0, 0.9, 0.2, 1})}
	task := Task{Graph: g, Labels: labels, Classes: 2}
	part, err := NewPartition(8, eval.Split{Train: []int{0, 7}, Val: []int{1, 6}, Test: []int{2, 3, 4, 5}}, 0, 0)
	require.NoError(t, err)
	newR := func() *stkr.Classifier {
		return cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.1})
	}
	plain, err := PrepareSTKR(task, part, Transductive)
	require.NoError(t, err)
	want, err := plain.Evaluate(ctx, newR())
	require.NoError(t, err)
	p0, err := PrepareSTKR(task, part, Transductive)
	require.NoError(t, err)
	require.NoError(t, p0.UseFeatures(x, 0))
	got, err := p0.Evaluate(ctx, newR())
	require.NoError(t, err)
	require.Equal(t, want.TestAccuracy, got.TestAccuracy)
	require.Equal(t, want.Stats, got.Stats)
	p1, err := PrepareSTKR(task, part, Transductive)
	require.NoError(t, err)
	require.NoError(t, p1.UseFeatures(x, 2))
	r := newR()
	_, err = p1.Evaluate(ctx, r)
	require.NoError(t, err)
	k, err := stkr.NewFeatureKernel(g, x, 2)
	require.NoError(t, err)
	ref := newR()
	require.NoError(t, ref.FitIndexed(ctx, k, part.Train, mat.NewDense(2, 2, []float64{1, 0, 0, 1})))
	require.True(t, mat.EqualApprox(mustPredict(t, ref), mustPredict(t, r), 1e-12))
	pi, err := PrepareSTKR(task, part, Inductive)
	require.NoError(t, err)
	require.ErrorContains(t, pi.UseFeatures(x, 1), "transductive")
}
