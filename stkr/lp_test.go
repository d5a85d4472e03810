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
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

// labelSpreading is the LP baseline of the paper's eq. 22,
// F = (1−a)(I − aS)^{-1}Y, from package labelprop (block CG, 1e-6).
func labelSpreading(t testing.TB, g *graph.CSR, train, labels []int, a float64) *mat.Dense {
	t.Helper()
	classes := make([]int, len(train))
	for k, i := range train {
		classes[k] = labels[i]
	}
	m := &labelprop.Spreading{Alpha: a}
	require.NoError(t, m.Fit(context.Background(), g, train, classes))
	return m.Scores()
}

// lpSelected returns label spreading's test accuracy at the a of
// labelprop.AlphaGrid with the best val accuracy (the first on ties).
func lpSelected(t testing.TB, g *graph.CSR, labels, train, val, test []int) float64 {
	bestVal, bestTest := -1.0, 0.0
	for _, a := range labelprop.AlphaGrid() {
		f := labelSpreading(t, g, train, labels, a)
		if v := accuracyOn(f, labels, val); v > bestVal {
			bestVal, bestTest = v, accuracyOn(f, labels, test)
		}
	}
	return bestTest
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
	var lp, lap []float64
	for seed := 0; seed < 10; seed++ {
		sp, err := loaders.ReadSplit(sharedPath(t, fmt.Sprintf("bench/splits/cora/random20_seed%d.txt", seed)), task.Graph.Nodes())
		require.NoError(t, err)
		lp = append(lp, lpSelected(t, task.Graph, task.Labels, sp.Train, sp.Val, sp.Test))

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

// BenchmarkLPPaperProtocol reports label spreading's test accuracy (a chosen
// on val from labelprop.AlphaGrid) on the paper-protocol partitions that
// `gssl stkr --p-test 0.01 --seeds 10` uses for Cora and PubMed (stkr.py's
// splits, the same seeded test subsets): the LP(t) column of BENCHMARKS.md.
//
//	go test ./stkr -run '^$' -bench LPPaperProtocol -benchtime 1x
func BenchmarkLPPaperProtocol(b *testing.B) {
	for _, name := range []string{"cora", "pubmed"} {
		b.Run(name, func(b *testing.B) {
			ds, err := loaders.LoadNodeDataset(sharedPath(b, "data/"+name))
			require.NoError(b, err)
			for it := 0; it < b.N; it++ {
				var accs []float64
				for seed := 0; seed < 10; seed++ {
					sp, err := loaders.ReadSplit(sharedPath(b, fmt.Sprintf("bench/splits/%s/random20_seed%d.txt", name, seed)), ds.Graph.Nodes())
					require.NoError(b, err)
					part, err := NewPartition(ds.Graph.Nodes(), *sp, 0.01, uint64(seed))
					require.NoError(b, err)
					accs = append(accs, lpSelected(b, ds.Graph, ds.Labels, part.Train, part.Val, part.Test))
				}
				m, sd := eval.MeanStd(accs)
				b.ReportMetric(100*m, "test-acc-%")
				b.ReportMetric(100*sd, "test-acc-std-%")
			}
		})
	}
}
