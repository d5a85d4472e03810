package protocol

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/stkr"
)

// TestGridCandidates: η outermost, then β, then the iterations; every
// other hyperparameter is Base's; a transform other than the inverse
// Laplacian ignores the η grid.
func TestGridCandidates(t *testing.T) {
	cache := &stkr.EigenCache{}
	g := STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.5}, Solver: stkr.SolverGMRES, Tol: 1e-7, Eigen: cache},
		Etas: []float64{0.5, 0.9}, Betas: []float64{1, 10, 100}, Iterations: []int{0, 4}}
	c := g.Candidates()
	require.Len(t, c, 12)
	k := 0
	for _, eta := range g.Etas {
		for _, beta := range g.Betas {
			for _, it := range g.Iterations {
				assert.Equal(t, stkr.InverseLaplacian{Eta: eta}, c[k].Transform)
				assert.Equal(t, []any{beta, it, stkr.SolverGMRES, 1e-7, stkr.Eigensolver(cache)}, []any{c[k].Beta, c[k].Iterations, c[k].Solver, c[k].Tol, c[k].Eigen})
				k++
			}
		}
	}
	p := STKRGrid{Base: stkr.Regressor{Transform: stkr.Power(2)}, Etas: []float64{0.5, 0.9}, Betas: []float64{1}, Iterations: []int{0}}
	require.Len(t, p.Candidates(), 1)
	assert.Equal(t, stkr.Power(2), p.Candidates()[0].Transform)
}

// TestRunBenchmarkIsChooseSplit: each seed's run is ChooseSTKRSplit's on that
// seed's split, and SummarizeSTKR's per-fit means are those of the chosen fits.
func TestRunBenchmarkIsChooseSplit(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	task := Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	g := STKRGrid{Base: stkr.Regressor{Transform: stkr.Power(2)}, Betas: []float64{0.1, 1}, Iterations: []int{0}}
	b := STKRBenchmark{Task: task, Setting: Transductive, PTest: DefaultPTest, Seeds: []uint64{3, 4}, Grid: g,
		Split: func(seed uint64) (eval.Split, string, int, error) { return *ds.Split, "planetoid", int(seed), nil }}
	runs, err := RunSTKRBenchmark(context.Background(), b)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	var iters float64
	for k, r := range runs {
		want, err := ChooseSTKRSplit(context.Background(), task, *ds.Split, Transductive, DefaultPTest, false, uint64(b.Seeds[k]), g.Candidates, nil)
		require.NoError(t, err)
		assert.Equal(t, want.TestCorrect, r.TestCorrect)
		assert.Equal(t, want.TestScored, r.TestScored)
		assert.Equal(t, want.Chosen[0].Beta, r.Chosen[0].Beta)
		iters += float64(want.Choices[0].Final.Stats.TotalIterations())
	}
	s := SummarizeSTKR(runs, false)
	assert.Equal(t, 2, s.Fits)
	assert.Equal(t, 4, s.Candidates)
	assert.Equal(t, 3+4, s.Dropped)
	assert.Equal(t, []uint64{3, 4}, s.Seeds)
	assert.Nil(t, s.Eta)
	assert.Equal(t, iters/2, s.Iterations)
	assert.Equal(t, float64(runs[1].TestCorrect)/float64(runs[1].TestScored), s.Test[1])

	r := s.Report(Inductive, "first")
	mean, std := eval.MeanStd(s.Test)
	assert.Equal(t, mean, r.TestAccuracyMean)
	assert.Equal(t, std, r.TestAccuracyStd)
	assert.Equal(t, []any{s.Test[0], s.Test[1]}, r.TestAccuracies)
	assert.True(t, r.Refit, "the inductive setting refits")
	assert.Equal(t, "split", r.Protocol)
	assert.Equal(t, []string{"first"}, r.Notes)
	assert.Equal(t, s.Beta, r.Beta)
}

// TestRunCVFallsBack: with no class of two labels nothing is held out, and
// RunSTKRCV fits the middle of the grid.
func TestRunCVFallsBack(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	seen := map[int]bool{}
	for _, i := range ds.Split.Train {
		if l := ds.Labels[i]; !seen[l] {
			seen[l], labels[i] = true, l
		}
	}
	task := Task{Graph: ds.Graph, Labels: labels, Classes: ds.Classes}
	g := STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{}}, Etas: stkr.EtaGrid(), Betas: stkr.BetaGrid(), Iterations: []int{0}}
	_, err = ChooseSTKRCV(context.Background(), task, eval.CV{}, g.Candidates())
	require.True(t, errors.Is(err, eval.ErrTooFewLabels))
	run, err := RunSTKRCV(context.Background(), task, eval.CV{}, g, nil)
	require.NoError(t, err)
	assert.True(t, run.FellBack)
	require.Len(t, run.Candidates, 1)
	mid := g.Candidates()[len(g.Candidates())/2]
	assert.Equal(t, mid.Transform, run.Best.Transform)
	assert.Equal(t, mid.Beta, run.Best.Beta)
	assert.True(t, math.IsNaN(run.Accuracy[0]))

	r := run.Report(task, 0)
	assert.Nil(t, r.CVAccuracy, "nothing was cross-validated")
	assert.Equal(t, "all-labelled", r.Protocol)
	assert.Equal(t, len(labels)-len(seen), r.Predicted)
	assert.Equal(t, []float64{mid.Beta}, r.Beta)
	assert.Contains(t, r.Notes[0], "no class has two labels")
}

// STKRSplitSizes: K per class val nodes and round(p_test·N) test nodes for
// a random split by default; anything else as asked.
func TestSTKRSplitSizes(t *testing.T) {
	random, err := eval.ParseSplitSpec("random:20")
	require.NoError(t, err)
	assert.Equal(t, eval.SplitSizes{Val: 140, Test: 27}, STKRSplitSizes(random, 7, 2708, 0.01, eval.DefaultSizes))
	assert.Equal(t, eval.SplitSizes{Val: 140, Test: -1}, STKRSplitSizes(random, 7, 2708, 0, eval.DefaultSizes))
	assert.Equal(t, eval.SplitSizes{Val: 5, Test: 6}, STKRSplitSizes(random, 7, 2708, 0.01, eval.SplitSizes{Val: 5, Test: 6}))
	assert.Equal(t, eval.SplitSizes{Val: 1, Test: 1}, STKRSplitSizes(random, 7, 10, 0.01, eval.SplitSizes{Val: 1, Test: -1}), "at least one test node")
	planetoid, err := eval.ParseSplitSpec("planetoid")
	require.NoError(t, err)
	assert.Equal(t, eval.DefaultSizes, STKRSplitSizes(planetoid, 7, 2708, 0.01, eval.DefaultSizes))
}

// TestSTKRGridCells: the best accuracy per (η, β) cell, against a brute
// force over the candidates' own hyperparameters.
func TestSTKRGridCells(t *testing.T) {
	g := STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{}}, Etas: []float64{0.5, 0.9}, Betas: []float64{0.1, 1, 10}, Iterations: []int{0, 4}}
	cands := g.Candidates()
	acc := make([]float64, len(cands))
	for k := range acc {
		acc[k] = float64((k*7)%11) / 10
	}
	acc[3] = math.NaN()
	acc[6], acc[7] = math.NaN(), math.NaN() // the cell (η 0.9, β 0.1) failed
	cells := g.Cells(acc)
	require.Len(t, cells, 2)
	for i, eta := range g.Etas {
		for j, beta := range g.Betas {
			want := math.NaN()
			for k, c := range cands {
				if c.Transform.(stkr.InverseLaplacian).Eta == eta && c.Beta == beta && !math.IsNaN(acc[k]) && (math.IsNaN(want) || acc[k] > want) {
					want = acc[k]
				}
			}
			if math.IsNaN(want) {
				assert.True(t, math.IsNaN(cells[i][j]), "cell %d,%d", i, j)
			} else {
				assert.Equal(t, want, cells[i][j], "cell %d,%d", i, j)
			}
		}
	}
	assert.Nil(t, g.Cells(acc[:5]))
	g.Base.Transform = stkr.Power(2) // no η: one row
	assert.Len(t, g.Cells(acc[:6]), 1)
}
