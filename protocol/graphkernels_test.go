package protocol

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/svm"
)

// shapeGraphs returns a cycle (class 0), a path (1) and a star (2) of
// every size, with degree labels.
func shapeGraphs(t *testing.T, sizes []int) ([]graphkernels.Graph, []int) {
	t.Helper()
	build := func(n int, edges [][2]int) graphkernels.Graph {
		es := make([]graph.Edge, len(edges))
		for k, e := range edges {
			es[k] = graph.Edge{U: e[0], V: e[1], W: 1}
		}
		a, err := graph.FromEdges(n, es, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
		require.NoError(t, err)
		return graphkernels.Graph{Adj: a, Labels: graphkernels.DegreeLabels(a)}
	}
	var gs []graphkernels.Graph
	var labels []int
	for _, n := range sizes {
		var cyc, pth, str [][2]int
		for i := 0; i < n; i++ {
			cyc = append(cyc, [2]int{i, (i + 1) % n})
			if i+1 < n {
				pth = append(pth, [2]int{i, i + 1})
				str = append(str, [2]int{0, i + 1})
			}
		}
		gs = append(gs, build(n, cyc), build(n, pth), build(n, str))
		labels = append(labels, 0, 1, 2)
	}
	return gs, labels
}

// TestEvaluationFixedFolds: with one candidate and fixed folds, every
// outer fold's score and the out-of-fold predictions are those of the
// machine fitted by hand on the other folds.
func TestEvaluationFixedFolds(t *testing.T) {
	// Two noisy clusters of 12 items: a Gaussian Gram matrix.
	n := 12
	x := make([]float64, n)
	labels := make([]int, n)
	for i := range x {
		labels[i] = i % 2
		x[i] = float64(3*labels[i]) + 0.4*float64((i*7)%5-2)/2
	}
	x[5] = 0.9 // an item of class 1 close to class 0
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			d := x[i] - x[j]
			k.SetSym(i, j, math.Exp(-d*d/2))
		}
	}
	fold := []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}
	ev := GramEvaluation{Grams: []*mat.SymDense{k}, Grid: []float64{1}, InnerFolds: 2, Seeds: 1, Folds: [][]int{fold}}
	res, err := ev.Run(context.Background(), labels)
	require.NoError(t, err)
	require.Equal(t, 3, res.Folds)
	var sum float64
	for f := 0; f < 3; f++ {
		var train, test []int
		for i, g := range fold {
			if g == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		ytr := make([]int, len(train))
		for p, i := range train {
			ytr[p] = labels[i]
		}
		m := &svm.SVC{C: 1}
		require.NoError(t, m.Fit(context.Background(), svm.SubGram(k, train), ytr))
		pred, err := svcClasses(m, svm.SubCross(k, test, train))
		require.NoError(t, err)
		right := 0
		for p, i := range test {
			assert.Equal(t, pred[p], res.Prediction[i], "item %d", i)
			if pred[p] == labels[i] {
				right++
			}
		}
		sum += float64(right) / float64(len(test))
	}
	assert.InDelta(t, sum/3, res.Accuracy[0], 1e-12)

	_, err = GramEvaluation{Grams: []*mat.SymDense{k}, Grid: []float64{1}, InnerFolds: 2, Seeds: 2, Folds: [][]int{fold}}.Run(context.Background(), labels)
	require.ErrorContains(t, err, "1 fold assignments for 2 seeds")
	_, err = GramEvaluation{Grams: []*mat.SymDense{k}, Grid: []float64{0}, InnerFolds: 2, Seeds: 1, OuterFolds: 3}.Run(context.Background(), labels)
	require.ErrorContains(t, err, "grid value 0 is invalid")
}

// TestEvaluationSelect: the selection on all graphs prefers the WL kernel
// to a kernel that knows nothing (the identity), takes the lowest index on
// ties, and with one candidate fits nothing.
func TestEvaluationSelect(t *testing.T) {
	ctx := context.Background()
	graphs, labels := shapeGraphs(t, []int{4, 5, 6, 7, 8, 9})
	wl, err := graphkernels.FitGram(ctx, &graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: 2}}, graphs)
	require.NoError(t, err)
	n := len(graphs)
	id := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		id.SetSym(i, i, 1)
	}
	e := GramEvaluation{Grams: []*mat.SymDense{id, wl}, Grid: []float64{1}, InnerFolds: 3, Seed: 2}
	best, err := e.Select(ctx, labels)
	require.NoError(t, err)
	assert.Equal(t, 1, best, "the WL kernel separates cycles, paths and stars; the identity does not")

	e.Grams = []*mat.SymDense{wl, wl}
	best, err = e.Select(ctx, labels)
	require.NoError(t, err)
	assert.Equal(t, 0, best, "ties go to the lowest index")

	e.Grams, e.InnerFolds = []*mat.SymDense{wl}, 1
	_, err = e.Select(ctx, labels)
	assert.ErrorContains(t, err, "InnerFolds=1")
	e.InnerFolds = 3
	_, err = e.Select(ctx, []int{0}) // one candidate fits nothing, but sizes are still checked
	assert.ErrorContains(t, err, "Gram matrix")
}

// TestSweepKernels: every result of the sweep is the evaluation run on
// that kernel's Gram matrix alone, whether given or computed.
func TestSweepKernels(t *testing.T) {
	ctx := context.Background()
	graphs, labels := shapeGraphs(t, []int{4, 5, 6, 7, 8})
	k1, err := graphkernels.FitGram(ctx, &graphkernels.WeisfeilerLehman{H: 1}, graphs)
	require.NoError(t, err)
	k2, err := graphkernels.FitGram(ctx, &graphkernels.WeisfeilerLehman{H: 2}, graphs)
	require.NoError(t, err)
	e := GramEvaluation{Grid: []float64{1, 10}, OuterFolds: 3, InnerFolds: 2, Seeds: 2, Seed: 5}
	got, err := e.SweepKernels(ctx, labels, graphs,
		[]graphkernels.Kernel{&graphkernels.WeisfeilerLehman{H: 1}, &graphkernels.WeisfeilerLehman{H: 2}}, []*mat.SymDense{k1})
	require.NoError(t, err)
	require.Len(t, got, 2)
	for i, k := range []*mat.SymDense{k1, k2} {
		e.Grams = []*mat.SymDense{k}
		want, err := e.Run(ctx, labels)
		require.NoError(t, err)
		assert.Equal(t, want, got[i], "kernel %d", i)
	}
}

// svcClasses is the predicted class of each row of cross: the most voted.
func svcClasses(s *svm.SVC, cross mat.Matrix) ([]int, error) {
	votes, err := s.Predict(context.Background(), cross)
	if err != nil {
		return nil, err
	}
	return estimator.Argmax(votes), nil
}

// TestTimedGram: one run is timed when runs is 1; otherwise a warm-up and
// runs timed runs, and the Gram matrix is the kernel's.
func TestTimedGram(t *testing.T) {
	ctx := context.Background()
	graphs, _ := shapeGraphs(t, []int{4, 5})
	want, err := graphkernels.FitGram(ctx, &graphkernels.WeisfeilerLehman{H: 2}, graphs)
	require.NoError(t, err)
	for _, runs := range []int{1, 3} {
		calls := 0
		k, gram, secs, err := TimedGram(ctx, graphs, runs, func(int) graphkernels.Kernel {
			calls++
			return &graphkernels.WeisfeilerLehman{H: 2}
		})
		require.NoError(t, err)
		assert.Len(t, secs, runs)
		assert.Equal(t, runs+min(runs-1, 1), calls)
		assert.True(t, mat.Equal(want, gram))
		assert.NotNil(t, k)
	}
	_, _, _, err = TimedGram(ctx, graphs, 0, nil)
	assert.ErrorContains(t, err, "runs=0")
}

// TestGraphKernelStudy: the study's parts are the protocol's pieces run
// by hand — the nested CV over the Gram matrices at heights 1..H fitted
// here, the choice counts read off its Chosen, the sweep over fixed
// heights, and the model the selection on all graphs refits.
func TestGraphKernelStudy(t *testing.T) {
	ctx := context.Background()
	graphs, labels := shapeGraphs(t, []int{4, 5, 6, 7, 8, 9})
	ev := GramEvaluation{Grid: []float64{0.1, 10}, OuterFolds: 3, InnerFolds: 2, Seeds: 2, Seed: 5}
	study := GraphKernelStudy{Kernel: GraphKernelSpec{Name: KernelWL, H: 2, Normalize: true}, SelectH: true, Heights: []int{0, 2},
		Evaluation: ev, GramRuns: 2, Refit: true}
	var stages []string
	study.Progress = func(stage string, done, total int) {
		if done == 1 {
			stages = append(stages, stage)
		}
	}
	res, err := study.Run(ctx, graphs, labels)
	require.NoError(t, err)
	assert.Len(t, res.GramSeconds, 2)
	assert.Equal(t, []string{"Gram matrix", "Gram matrix", "Gram matrix", "nested CV"}, stages, "a warm-up, two timed runs, the seeds")

	var grams []*mat.SymDense
	for h := 1; h <= 2; h++ {
		g, err := graphkernels.FitGram(ctx, &graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: h}}, graphs)
		require.NoError(t, err)
		grams = append(grams, g)
	}
	assert.True(t, mat.Equal(grams[1], res.Gram))
	wl := &graphkernels.WeisfeilerLehman{H: 2}
	require.NoError(t, wl.Fit(ctx, graphs))
	assert.Equal(t, wl.Dimension(), res.Features)
	assert.Equal(t, 4, res.Candidates)

	ev.Grams = grams
	want, err := ev.Run(ctx, labels)
	require.NoError(t, err)
	assert.Equal(t, want, res.Evaluation)
	grid, hs := make([]int, 2), make([]int, 2)
	for _, chosen := range want.Chosen {
		for _, c := range chosen {
			grid[c%2]++
			hs[c/2]++
		}
	}
	assert.Equal(t, grid, res.GridChosen)
	assert.Equal(t, hs, res.HChosen)

	sweep, err := ev.SweepKernels(ctx, labels, graphs, []graphkernels.Kernel{
		&graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: 0}}, &graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: 2}}}, nil)
	require.NoError(t, err)
	require.Len(t, res.Heights, 2)
	for i, h := range []int{0, 2} {
		assert.Equal(t, HeightAccuracy{H: h, Accuracy: sweep[i].Accuracy}, res.Heights[i])
	}

	c, err := ev.Select(ctx, labels)
	require.NoError(t, err)
	require.NotNil(t, res.Model)
	assert.Equal(t, []any{c/2 + 1, ev.Grid[c%2], true}, []any{res.Model.H, res.Model.C, res.Model.Normalize})
	ref := &graphkernels.WLClassifier{H: res.Model.H, C: res.Model.C, Normalize: true}
	require.NoError(t, ref.Fit(ctx, graphs, labels))
	p1, err := ref.Predict(ctx, graphs)
	require.NoError(t, err)
	p2, err := res.Model.Predict(ctx, graphs)
	require.NoError(t, err)
	assert.True(t, mat.Equal(p1, p2))
}

// TestGraphKernelStudyRefusals: settings that cannot run are errors
// naming the field.
func TestGraphKernelStudyRefusals(t *testing.T) {
	graphs, labels := shapeGraphs(t, []int{4, 5})
	ok := GraphKernelStudy{Kernel: GraphKernelSpec{Name: KernelWL, H: 2}, Evaluation: GramEvaluation{Grid: []float64{1}, OuterFolds: 2, InnerFolds: 2, Seeds: 1}, GramRuns: 1}
	for _, tc := range []struct {
		change func(*GraphKernelStudy)
		msg    string
	}{
		{func(s *GraphKernelStudy) { s.Kernel.Name = "xx" }, `Name="xx" is invalid`},
		{func(s *GraphKernelStudy) { s.Kernel.H = 0 }, "H=0 is invalid"},
		{func(s *GraphKernelStudy) { s.Kernel.Name, s.SelectH = KernelSP, true }, "SelectH needs Kernel.Name wl, not sp"},
		{func(s *GraphKernelStudy) { s.GramRuns = 0 }, "GramRuns=0 is invalid"},
		{func(s *GraphKernelStudy) { s.Heights = []int{-1} }, "Heights value -1 is invalid"},
		{func(s *GraphKernelStudy) { s.Heights, s.Evaluation.Seeds = []int{1}, 0 }, "Heights needs"},
		{func(s *GraphKernelStudy) { s.Refit, s.Kernel.Name = true, KernelRW }, "Refit needs"},
		{func(s *GraphKernelStudy) { s.Refit, s.Evaluation.Machine = true, graphkernels.Ridge }, "Refit needs"},
		{func(s *GraphKernelStudy) { s.Evaluation.Grid = nil }, "Evaluation.Grid is empty"},
		{func(s *GraphKernelStudy) { s.Evaluation.Grid = []float64{1, math.Inf(1)} }, "Evaluation.Grid value +Inf is invalid"},
		{func(s *GraphKernelStudy) { s.Evaluation.OuterFolds = 1 }, "Evaluation.OuterFolds=1 is invalid"},
		{func(s *GraphKernelStudy) { s.Evaluation.InnerFolds = 1 }, "Evaluation.InnerFolds=1 is invalid"},
		{func(s *GraphKernelStudy) { s.Evaluation.Seeds = -1 }, "Evaluation.Seeds=-1 is invalid"},
	} {
		s := ok
		tc.change(&s)
		_, err := s.Run(context.Background(), graphs, labels)
		assert.ErrorContains(t, err, tc.msg)
	}
	_, err := ok.Run(context.Background(), graphs, labels[1:])
	assert.ErrorContains(t, err, "labels for")
}
