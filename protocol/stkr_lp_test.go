package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/stkr"
)

// labelSpreading is the LP baseline of the paper's eq. 22,
// F = (1−a)(I − aS)^{-1}Y, from package labelprop (block CG, 1e-6).
func labelSpreading(t testing.TB, g *graph.CSR, train, labels []int, a float64) *mat.Dense {
	t.Helper()
	classes := make([]int, len(train))
	for k, i := range train {
		classes[k] = labels[i]
	}
	// A labelled node without edges (Amazon Photo has some) keeps its label
	// and informs nothing else, as in STKR, whose kernel row is zero there.
	m := &labelprop.Spreading{Alpha: a, IsolatedSeeds: labelprop.IsolatedSeedKeep}
	require.NoError(t, m.FitIndexed(context.Background(), g, train, classes))
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
		sp, err := loaders.ReadSplit(sharedtest.Path(t, fmt.Sprintf("bench/splits/cora/random20_seed%d.txt", seed)), task.Graph.Nodes())
		require.NoError(t, err)
		lp = append(lp, lpSelected(t, task.Graph, task.Labels, sp.Train, sp.Val, sp.Test))

		part, err := NewPartition(task.Graph.Nodes(), *sp, 0, uint64(seed))
		require.NoError(t, err)
		prep, err := PrepareSTKR(task, part, Transductive)
		require.NoError(t, err)
		var cands []*stkr.Classifier
		for _, beta := range []float64{1, 10, 100} {
			cands = append(cands, cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.99}, Beta: beta}))
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
	for _, name := range []string{"cora", "pubmed", "amazon_photo", "coauthor_cs", "coauthor_physics"} {
		b.Run(name, func(b *testing.B) {
			ds, err := loaders.LoadNodeDataset(sharedtest.Path(b, "data/"+name))
			require.NoError(b, err)
			n := ds.Graph.Nodes()
			splits := filepath.Join(sharedtest.Root(b), "bench", "splits", name)
			for it := 0; it < b.N; it++ {
				var accs []float64
				for seed := 0; seed < 10; seed++ {
					// gssl stkr's splits: the saved ones where they exist,
					// otherwise eval.RandomPerClass with the same arguments.
					var sp eval.Split
					if saved, err := loaders.ReadSplit(filepath.Join(splits, fmt.Sprintf("random20_seed%d.txt", seed)), n); err == nil {
						sp = *saved
					} else if errors.Is(err, os.ErrNotExist) {
						sp, err = eval.RandomPerClass(ds.Labels, 20, 20*ds.Classes, int(math.Round(0.01*float64(n))), uint64(seed))
						require.NoError(b, err)
					} else {
						require.NoError(b, err)
					}
					part, err := NewPartition(n, sp, 0.01, uint64(seed))
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

// labelSpreadingSteps runs Zhou et al.'s iteration F ← aSF + (1−a)Y from
// F = Y for a fixed number of steps (the paper's LP with its "number of
// iterations" hyperparameter), with S the graph kernel's normalised
// adjacency: one block product per step.
func labelSpreadingSteps(t testing.TB, k *stkr.GraphKernel, train, labels []int, classes int, a float64, steps int) *mat.Dense {
	t.Helper()
	N := k.Dim()
	y := mat.NewDense(N, classes, nil)
	for _, i := range train {
		y.Set(i, labels[i], 1)
	}
	f := mat.DenseCopyOf(y)
	sf := mat.NewDense(N, classes, nil)
	for s := 0; s < steps; s++ {
		k.MulBlockTo(sf, f)
		f.Scale(a, sf)
		f.Add(f, mat.NewDense(N, classes, scaled(1-a, y.RawMatrix().Data)))
	}
	return f
}

func scaled(c float64, x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = c * v
	}
	return out
}

// lpStepsGrid is the number of LP steps searched on val; 0 means solved to
// convergence (labelprop.Spreading, block CG at 1e-6) and comes first, so
// it wins ties.
var lpStepsGrid = []int{0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}

// lpStepsSelected returns LP's test accuracy at the (a, steps) of
// labelprop.AlphaGrid × lpStepsGrid with the best val accuracy (the first
// on ties), and the chosen steps.
func lpStepsSelected(t testing.TB, g *graph.CSR, k *stkr.GraphKernel, labels []int, classes int, train, val, test []int) (float64, int) {
	bestVal, bestTest, bestSteps := -1.0, 0.0, 0
	for _, a := range labelprop.AlphaGrid() {
		for _, steps := range lpStepsGrid {
			var f *mat.Dense
			if steps == 0 {
				f = labelSpreading(t, g, train, labels, a)
			} else {
				f = labelSpreadingSteps(t, k, train, labels, classes, a, steps)
			}
			if v := accuracyOn(f, labels, val); v > bestVal {
				bestVal, bestTest, bestSteps = v, accuracyOn(f, labels, test), steps
			}
		}
	}
	return bestTest, bestSteps
}

// TestLabelSpreadingStepsConverge: the fixed-step iteration used for LP(t)
// approaches the solved label spreading (labelprop.Spreading) as the steps
// grow: the error after t steps is a^t times the initial one.
func TestLabelSpreadingStepsConverge(t *testing.T) {
	g, _, _ := smallProblem(t)
	k, err := stkr.NewGraphKernel(g)
	require.NoError(t, err)
	train := []int{0, 3, 7, 12, 18, 22}
	labels := make([]int, g.Nodes())
	for i := range labels {
		labels[i] = i % 3
	}
	const a = 0.5
	ref := labelSpreading(t, g, train, labels, a)
	// 60 steps: a^60 ≈ 1e-18, far below labelprop's 1e-6 tolerance, which
	// is then what separates the two.
	const lpStepsTol = 1e-5
	got := labelSpreadingSteps(t, k, train, labels, 3, a, 60)
	// labelprop.Spreading may scale its scores; compare after normalising
	// both by their largest entry.
	assert.Less(t, relDiff(scaledBy(got, 1/mat.Max(got)), scaledBy(ref, 1/mat.Max(ref))), lpStepsTol)
	few := labelSpreadingSteps(t, k, train, labels, 3, a, 2)
	assert.Greater(t, relDiff(scaledBy(few, 1/mat.Max(few)), scaledBy(ref, 1/mat.Max(ref))), lpStepsTol)
}

func scaledBy(m *mat.Dense, c float64) *mat.Dense {
	var out mat.Dense
	out.Scale(c, m)
	return &out
}

// BenchmarkLPStepsPaperProtocol reports LP with the number of steps chosen
// on val (with a) next to LP solved to convergence, on Cora's saved splits
// with the paper's p_test = 0.01 and with all 1000 test nodes:
//
//	go test ./stkr -run '^$' -bench LPStepsPaperProtocol -benchtime 1x -v
func BenchmarkLPStepsPaperProtocol(b *testing.B) {
	ds, err := loaders.LoadNodeDataset(sharedtest.Path(b, "data/cora"))
	require.NoError(b, err)
	k, err := stkr.NewGraphKernel(ds.Graph)
	require.NoError(b, err)
	for _, pTest := range []float64{0.01, 0} {
		b.Run(fmt.Sprintf("p_test=%g", pTest), func(b *testing.B) {
			for it := 0; it < b.N; it++ {
				var conv, early []float64
				var chosen []int
				for seed := 0; seed < 10; seed++ {
					sp, err := loaders.ReadSplit(sharedtest.Path(b, fmt.Sprintf("bench/splits/cora/random20_seed%d.txt", seed)), ds.Graph.Nodes())
					require.NoError(b, err)
					part, err := NewPartition(ds.Graph.Nodes(), *sp, pTest, uint64(seed))
					require.NoError(b, err)
					conv = append(conv, lpSelected(b, ds.Graph, ds.Labels, part.Train, part.Val, part.Test))
					acc, steps := lpStepsSelected(b, ds.Graph, k, ds.Labels, ds.Classes, part.Train, part.Val, part.Test)
					early = append(early, acc)
					chosen = append(chosen, steps)
				}
				m, sd := eval.MeanStd(conv)
				me, sde := eval.MeanStd(early)
				b.ReportMetric(100*m, "lp-acc-%")
				b.ReportMetric(100*sd, "lp-std-%")
				b.ReportMetric(100*me, "lp-steps-acc-%")
				b.ReportMetric(100*sde, "lp-steps-std-%")
				b.Logf("p_test=%g: LP %.2f ± %.2f, LP(steps on val) %.2f ± %.2f, chosen steps %v", pTest, 100*m, 100*sd, 100*me, 100*sde, chosen)
			}
		})
	}
}
