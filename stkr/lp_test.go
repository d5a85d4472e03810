package stkr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/loaders"
)

// labelSpreading is the LP baseline of the paper's eq. 22,
// F = (1−a)(I − aS)^{-1}Y, solved directly by block CG for this comparison
// only (the library's label propagation lives in package labelprop).
func labelSpreading(t testing.TB, s *laplacian.Operator, train, labels []int, classes int, a float64) *mat.Dense {
	n := s.Dim()
	y := mat.NewDense(n, classes, nil)
	for _, i := range train {
		y.Set(i, labels[i], 1-a)
	}
	f := mat.NewDense(n, classes, nil)
	op := linop.Affine{A: s, Scale: -a, Shift: 1}
	_, err := krylov.BlockCG(context.Background(), op, y, f, krylov.Settings{Tol: 1e-6})
	require.NoError(t, err)
	return f
}

// sharedPath finds rel under the shared folder: ../../shared from a package
// directory (CI's layout, and the main checkout's), or one level further up
// (a worktree under /work/wt/NAME).
func sharedPath(t testing.TB, rel string) string {
	t.Helper()
	for _, up := range []string{"../../shared", "../../../shared"} {
		p := filepath.Join(up, rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("shared data %s not found above the package directory", rel)
	return ""
}

func accuracyOn(f *mat.Dense, labels, nodes []int) float64 {
	right := 0
	for _, i := range nodes {
		row := f.RawRowView(i)
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		if best == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(nodes))
}

// TestInverseLaplacianBeatsLabelPropagationOnCora: on stkr.py's ten random
// 20-per-class splits of Cora (all 1000 test nodes, hyperparameters chosen
// on val), SP-Lap's mean test accuracy is above label spreading's. stkr.py
// measured 71.38 % against 69.88 % with the full grids; to stay fast this
// test searches η = 0.99 and β ∈ {1, 10, 100} only (the val set picks η =
// 0.99 on 9 of the 10 splits and β ≥ 1 on 9; small β needs thousands of
// MINRES iterations). LP searches stkr.py's whole grid of a.
func TestInverseLaplacianBeatsLabelPropagationOnCora(t *testing.T) {
	_, task := loadCora(t)
	s, err := laplacian.New(task.Graph, laplacian.NormalizedAdjacency, laplacian.Options{Isolated: laplacian.IsolatedZero})
	require.NoError(t, err)
	var lp, lap []float64
	for seed := 0; seed < 10; seed++ {
		sp, err := loaders.ReadSplit(sharedPath(t, fmt.Sprintf("bench/splits/cora/random20_seed%d.txt", seed)), task.Graph.Nodes())
		require.NoError(t, err)
		bestVal, bestTest := -1.0, 0.0
		for _, a := range []float64{0.5, 0.7, 0.8, 0.9, 0.95, 0.99} {
			f := labelSpreading(t, s, sp.Train, task.Labels, task.Classes, a)
			if v := accuracyOn(f, task.Labels, sp.Val); v > bestVal {
				bestVal, bestTest = v, accuracyOn(f, task.Labels, sp.Test)
			}
		}
		lp = append(lp, bestTest)

		part, err := NewPartition(task.Graph.Nodes(), *sp, 0, uint64(seed))
		require.NoError(t, err)
		prep, err := Prepare(task, part, Transductive)
		require.NoError(t, err)
		var cands []*Regressor
		for _, beta := range []float64{1, 10, 100} {
			cands = append(cands, &Regressor{Transform: InverseLaplacian{Eta: 0.99}, Beta: beta})
		}
		best, outs, err := prep.Select(context.Background(), cands)
		require.NoError(t, err)
		lap = append(lap, outs[best].TestAccuracy)
	}
	lpMean, _ := eval.MeanStd(lp)
	lapMean, _ := eval.MeanStd(lap)
	t.Logf("Cora, 10 random splits: SP-Lap %.4f, LP %.4f", lapMean, lpMean)
	require.Greater(t, lapMean, lpMean)
}
