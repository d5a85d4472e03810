package nodeclass

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

// pathProbTol bounds the difference of the probabilities of a model of the
// grid's path, stopped at ‖∇J‖_∞ ≤ pathGradTol, from the model fitted
// alone to 1e-6, per class and node (the largest row sum of |Δp| over the
// classes): J is λ-strongly convex, so the coefficients of the path's fit
// are within √p·pathGradTol/λ of the optimum in the worst case; in
// practice the probabilities move 0.012 at λ = 1e-5 (chameleon, K = 1),
// and the bound allows four times that, and 1e-3 where pathGradTol/λ is
// small.
func pathProbTol(l2 float64) float64 { return max(1e-3, 0.05*pathGradTol/l2) }

// TestSGCGridPathMatchesColdFits checks the warm-started, preconditioned
// penalty path of SGCGrid (design.fit, stopped at pathGradTol) against
// every model of the grid fitted alone from zero without preconditioning
// (logreg's defaults, stopped at 1e-6): on Cora's Planetoid split and on
// split 0 of the heterophilous chameleon_filtered, both choose the same
// model on the validation nodes, every model's validation accuracy is
// within one node, and every model's probabilities agree within
// pathProbTol (both fits approach the optimum of the same strictly convex
// J).
func TestSGCGridPathMatchesColdFits(t *testing.T) {
	for _, tc := range []struct{ name, dir, split string }{
		{"cora", "../testdata/cora", ""},
		{"chameleon_filtered", "", "split_0.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := tc.dir
			if dir == "" {
				dir = sharedtest.Data(t, tc.name)
			}
			ds, err := loaders.LoadNodeDataset(dir)
			require.NoError(t, err)
			split := ds.Split
			if tc.split != "" {
				split, err = loaders.ReadSplit(filepath.Join(dir, tc.split), len(ds.Labels))
				require.NoError(t, err)
			}
			require.NotNil(t, split)
			labels := make([]int, len(ds.Labels))
			for i := range labels {
				labels[i] = -1
			}
			for _, i := range split.Train {
				labels[i] = ds.Labels[i]
			}
			x := estimator.Nodes{Graph: ds.Graph, Features: Matrix(Features{Sparse: ds.Features})}
			if ds.DenseFeatures != nil {
				x.Features = ds.DenseFeatures
			}
			grid := SGCGrid(&SGC{Classes: ds.Classes})
			bestGrid, bestCold := -1, -1
			var accGrid, accCold float64
			for k, cand := range grid {
				warm := cand.(*SGC)
				require.NoError(t, warm.Fit(ctx, x, labels))
				pw, err := warm.Predict(ctx, estimator.FittedNodes)
				require.NoError(t, err)
				cold := &SGC{K: warm.K, L2: warm.L2, Classes: ds.Classes}
				require.NoError(t, cold.Fit(ctx, x, labels))
				pc, err := cold.Predict(ctx, estimator.FittedNodes)
				require.NoError(t, err)
				var diff mat.Dense
				diff.Sub(pw, pc)
				require.Less(t, mat.Norm(&diff, math.Inf(1))/float64(ds.Classes), pathProbTol(warm.L2), "%v: probabilities", warm)
				aw, err := eval.Accuracy(estimator.Argmax(pw), ds.Labels, split.Val)
				require.NoError(t, err)
				ac, err := eval.Accuracy(estimator.Argmax(pc), ds.Labels, split.Val)
				require.NoError(t, err)
				require.InDelta(t, ac, aw, 1.5/float64(len(split.Val)), "%v: validation accuracy", warm)
				if aw > accGrid || bestGrid < 0 {
					bestGrid, accGrid = k, aw
				}
				if ac > accCold || bestCold < 0 {
					bestCold, accCold = k, ac
				}
			}
			require.Equal(t, bestCold, bestGrid, "the chosen model: grid %v, cold %v", grid[bestGrid], grid[bestCold])
		})
	}
}
