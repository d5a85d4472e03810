package nodeclass

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
)

// TestSelectionChoiceIsLoneFit checks that the selection's chosen model —
// refitted detached from its grid, on the grid's propagated designs and
// with Correct & Smooth's shared propagated errors — is bitwise the model
// fitted alone with the same hyperparameters (what a user, and the Python
// package's tests against the CLI, fit): on Cora's Planetoid split, the
// search of classify --classifier auto (SGC and APPNP grids, then Correct &
// Smooth on the chosen base), stage by stage, and the grid's own fits of
// those hyperparameters are not (they are warm-started), so the test can
// fail.
func TestSelectionChoiceIsLoneFit(t *testing.T) {
	ctx := context.Background()
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	require.NoError(t, err)
	x := estimator.Nodes{Graph: ds.Graph, Features: Matrix(Features{Sparse: ds.Features})}
	known := make([]int, len(ds.Labels))
	train := make([]int, len(ds.Labels))
	for i := range known {
		known[i], train[i] = -1, -1
	}
	for _, i := range ds.Split.Train {
		known[i], train[i] = ds.Labels[i], ds.Labels[i]
	}
	for _, i := range ds.Split.Val {
		known[i] = ds.Labels[i]
	}
	probs := func(m estimator.NodeClassifier) *mat.Dense {
		p, err := m.Predict(ctx, estimator.FittedNodes)
		require.NoError(t, err)
		return p
	}
	grid := append(SGCGrid(&SGC{Classes: ds.Classes}), APPNPGrid(&APPNP{Classes: ds.Classes})...)
	base, err := eval.ChooseNode(ctx, grid, x, known, ds.Split.Val, eval.CV{})
	require.NoError(t, err)
	var lone Base
	switch b := base.Best.(type) {
	case *SGC:
		lone = &SGC{K: b.K, L2: b.L2, Classes: ds.Classes}
	case *APPNP:
		lone = &APPNP{Alpha: b.Alpha, L2: b.L2, Classes: ds.Classes}
	default:
		t.Fatalf("chosen base %T", base.Best)
	}
	require.NoError(t, lone.Fit(ctx, x, train))
	require.True(t, mat.Equal(probs(lone), probs(base.Best)), "chosen %v against the lone fit", base.Best)
	// The same hyperparameters in the grid, fitted on its warm path, differ
	// (so that the comparison above means something).
	require.False(t, mat.Equal(probs(lone), probs(grid[base.Index])), "grid candidate %v", grid[base.Index])

	// Refitted on other classes of the same training nodes, the chosen
	// model (which keeps the grid's designs and fits) is the lone fit of
	// those labels, not a kept fit.
	shifted := make([]int, len(train))
	for i, l := range train {
		shifted[i] = l
		if l >= 0 {
			shifted[i] = (l + 1) % ds.Classes
		}
	}
	again := base.Best.(interface {
		Detached() estimator.NodeClassifier
	}).Detached()
	require.NoError(t, again.Fit(ctx, x, shifted))
	require.NoError(t, base.Best.Fit(ctx, x, shifted))
	loneShifted := cloneBase(lone)
	require.NoError(t, loneShifted.Fit(ctx, x, shifted))
	require.True(t, mat.Equal(probs(loneShifted), probs(again)), "detached refit on other labels")
	require.True(t, mat.Equal(probs(loneShifted), probs(base.Best)), "chosen model refitted on other labels")
	require.NoError(t, base.Best.Fit(ctx, x, train))

	cs, err := eval.ChooseNode(ctx, CorrectSmoothGrid(base.Best), x, known, ds.Split.Val, eval.CV{})
	require.NoError(t, err)
	chosen := cs.Best.(*CorrectSmooth)
	loneCS := &CorrectSmooth{CorrectAlpha: chosen.CorrectAlpha, SmoothAlpha: chosen.SmoothAlpha, Scale: chosen.Scale}
	switch b := base.Best.(type) {
	case *SGC:
		loneCS.Base = &SGC{K: b.K, L2: b.L2, Classes: ds.Classes}
	case *APPNP:
		loneCS.Base = &APPNP{Alpha: b.Alpha, L2: b.L2, Classes: ds.Classes}
	}
	require.NoError(t, loneCS.Fit(ctx, x, train))
	require.True(t, mat.Equal(probs(loneCS), probs(chosen)), "chosen %v against the lone fit", chosen)
	// Every candidate of the C&S grid against its lone fit on the chosen
	// base's scores: the shared propagated errors change nothing, and the
	// smoothing of the 12 candidates of one α₂ in one block solve stops
	// within the solve's tolerance (1e-4 relative) of the lone solve.
	z := probs(lone)
	for k, c := range CorrectSmoothGrid(base.Best) {
		c := c.(*CorrectSmooth)
		require.NoError(t, c.Fit(ctx, x, train))
		one := &CorrectSmooth{CorrectAlpha: c.CorrectAlpha, SmoothAlpha: c.SmoothAlpha, Scale: c.Scale}
		require.NoError(t, one.FitScores(ctx, ds.Graph, z, train))
		var diff mat.Dense
		diff.Sub(probs(one), probs(c))
		require.Less(t, mat.Norm(&diff, math.Inf(1)), 1e-3, "C&S candidate %d (%v)", k, c)
		require.Equal(t, estimator.Argmax(probs(one)), estimator.Argmax(probs(c)), "C&S candidate %d (%v): classes", k, c)
	}
}
