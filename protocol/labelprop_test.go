package protocol

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

func coraSplitter(t *testing.T, ds *loaders.NodeDataset, split string) *eval.Splitter {
	spec, err := eval.ParseSplitSpec(split)
	require.NoError(t, err)
	s, err := eval.NewSplitter(spec, eval.SplitData{Labels: ds.Labels, Own: ds.Split, Source: "cora"}, eval.DefaultSizes)
	require.NoError(t, err)
	return s
}

// EvaluateLabelProp on Cora's Planetoid split gives lp.py's choice and figures
// (shared/bench/peers/lp.py, line lp-zhou: a = 0.95, val 0.706, test 0.718).
func TestEvaluateCoraSplit(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	for _, solver := range []labelprop.Solver{labelprop.Auto, labelprop.CG} { // warm-started, and from zero
		out, err := EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: ds.Graph, Labels: ds.Labels, Model: &labelprop.Spreading{Classes: ds.Classes, Solver: solver},
			Grid: labelprop.AlphaGrid(), Splits: coraSplitter(t, ds, "planetoid")})
		require.NoError(t, err)
		require.Len(t, out.Runs, 1)
		r := out.Runs[0]
		assert.Equal(t, 0.95, r.Alpha)
		assert.Equal(t, []float64{0.658, 0.672, 0.692, 0.694, 0.706, 0.686}, r.GridVal)
		assert.Equal(t, 0.718, r.Test)
		assert.Equal(t, 0.706, r.Val)
		assert.Equal(t, 0.95, r.Model.(*labelprop.Spreading).Alpha)
		rep := LabelPropExperiment{Graph: ds.Graph, Labels: ds.Labels, Model: &labelprop.Spreading{Solver: solver}, Splits: coraSplitter(t, ds, "planetoid")}.Report(out)
		assert.Equal(t, 0.95, rep.Alpha)
		assert.Equal(t, 0.718, rep.TestAccuracy)
		assert.Equal(t, []any{0.658, 0.672, 0.692, 0.694, 0.706, 0.686}, rep.GridValAccuracy)
		assert.Equal(t, ds.Graph.Nodes()-140, rep.Predicted)
		assert.Equal(t, labelprop.DefaultTol, rep.Tol)
		assert.Equal(t, "split", rep.Protocol)
		assert.Nil(t, rep.TestAccuracyStd, "one run has no spread")
	}

	noVal := *ds.Split
	noVal.Val = nil
	s, err := eval.NewSplitter(eval.SplitSpec{Kind: eval.SplitOwn}, eval.SplitData{Labels: ds.Labels, Own: &noVal}, eval.DefaultSizes)
	require.NoError(t, err)
	_, err = EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: ds.Graph, Labels: ds.Labels, Model: &labelprop.Spreading{}, Grid: labelprop.AlphaGrid(), Splits: s})
	assert.ErrorIs(t, err, eval.ErrNoValidation)
}

// Without a split, EvaluateLabelProp cross-validates a over the labelled nodes
// (ChooseAlpha) and fits on all of them; with too few labels it falls back
// to labelprop.DefaultAlpha and says so.
func TestEvaluateAllLabelled(t *testing.T) {
	x, labels := coraTrainLabels(t)
	spec, _ := eval.ParseSplitSpec("none")
	s, err := eval.NewSplitter(spec, eval.SplitData{Labels: labels}, eval.DefaultSizes)
	require.NoError(t, err)
	base := &labelprop.Spreading{Float32: true}
	out, err := EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: x.Graph, Labels: labels, Model: base, Grid: labelprop.AlphaGrid(), Splits: s, CV: eval.CV{Seed: 1}})
	require.NoError(t, err)
	c, err := ChooseAlpha(context.Background(), x, labels, base, labelprop.AlphaGrid(), eval.CV{Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, &c, out.CV)
	r := out.Runs[0]
	assert.Equal(t, c.Alpha, r.Alpha)
	assert.Len(t, r.Split.Train, 140)
	assert.True(t, r.Model.(*labelprop.Spreading).Float32, "the final model is a clone of the base")

	one := make([]int, len(labels))
	for i := range one {
		one[i] = -1
	}
	for k := 0; k < 7; k++ { // one label per class
		for i, l := range labels {
			if l == k {
				one[i] = k
				break
			}
		}
	}
	s, err = eval.NewSplitter(spec, eval.SplitData{Labels: one}, eval.DefaultSizes)
	require.NoError(t, err)
	out, err = EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: x.Graph, Labels: one, Model: &labelprop.Spreading{}, Grid: labelprop.AlphaGrid(), Splits: s})
	require.NoError(t, err)
	assert.Equal(t, labelprop.DefaultAlpha, out.Runs[0].Alpha)
	assert.Nil(t, out.CV)
	assert.Contains(t, out.Notes[0], "no class has two labels")
}

// An isolated training node is refused, named, unless the model keeps it.
func TestEvaluateIsolated(t *testing.T) {
	// A path 0–1–2–3 and node 4 of degree 0, labelled like nodes 0 and 3.
	g, err := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	require.NoError(t, err)
	p := struct {
		g        *graph.CSR
		isolated int
	}{g, 4}
	labels := []int{0, -1, -1, 1, 0}
	spec, _ := eval.ParseSplitSpec("none")
	s, err := eval.NewSplitter(spec, eval.SplitData{Labels: labels}, eval.DefaultSizes)
	require.NoError(t, err)
	_, err = EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: p.g, Labels: labels, Model: &labelprop.Harmonic{}, Splits: s})
	var iso *IsolatedError
	require.True(t, errors.As(err, &iso), "%v", err)
	assert.Equal(t, p.isolated, iso.Node)
	_, err = EvaluateLabelProp(context.Background(), LabelPropExperiment{Graph: p.g, Labels: labels, Model: &labelprop.Harmonic{IsolatedSeeds: labelprop.IsolatedSeedKeep}, Splits: s})
	assert.NoError(t, err)
}

// TestEvaluateSeeds: random splits over seeds, each seed's run that of a
// one-seed EvaluateLabelProp, and the LabelPropSummary their mean, spread, largest counters
// and most frequent a.
func TestEvaluateSeeds(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	exp := LabelPropExperiment{Graph: ds.Graph, Labels: ds.Labels, Model: &labelprop.Spreading{Classes: ds.Classes}, Grid: labelprop.AlphaGrid(),
		Splits: coraSplitter(t, ds, "random:5"), Seeds: []uint64{3, 4, 5}}
	done := 0
	exp.Progress = func(n int) { done = n }
	out, err := EvaluateLabelProp(context.Background(), exp)
	require.NoError(t, err)
	require.Len(t, out.Runs, 3)
	assert.Equal(t, 3, done)
	var tests []float64
	iters, count := 0, map[float64]int{}
	for k, r := range out.Runs {
		one := exp
		one.Seeds, one.Progress = []uint64{exp.Seeds[k]}, nil
		single, err := EvaluateLabelProp(context.Background(), one)
		require.NoError(t, err)
		assert.Equal(t, single.Runs[0].Test, r.Test, "seed %d", exp.Seeds[k])
		assert.Equal(t, single.Runs[0].Alpha, r.Alpha, "seed %d", exp.Seeds[k])
		assert.Len(t, r.Split.Train, 35)
		tests = append(tests, r.Test)
		iters = max(iters, r.Details.Iterations)
		count[r.Alpha]++
	}
	s := out.Summary()
	mean, std := eval.MeanStd(tests)
	assert.Equal(t, mean, s.Test.Mean)
	assert.Equal(t, std, s.Test.Std)
	assert.Equal(t, iters, s.Iterations)
	for a, c := range count {
		assert.LessOrEqual(t, c, count[s.Alpha], "a = %v is chosen %d times, the summary's %v %d", a, c, s.Alpha, count[s.Alpha])
	}
	assert.NotEqual(t, out.Runs[0].Split.Train, out.Runs[1].Split.Train, "each seed has its own split")
}
