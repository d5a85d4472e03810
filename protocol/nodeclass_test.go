package protocol

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/stkr"
)

// Each named search is the nodeclass grid it stands for; unknown names and
// misplaced feature weights are refused.
func TestNodeClassSearch(t *testing.T) {
	sgc := len(nodeclass.SGCGrid(&nodeclass.SGC{Classes: 3}))
	appnp := len(nodeclass.APPNPGrid(&nodeclass.APPNP{Classes: 3}))
	for name, want := range map[string]int{"sgc": sgc, "appnp": appnp, "auto": sgc + appnp, "correct-smooth": sgc, "channels": 1, "linbp": 1,
		"stkr": len(stkr.EtaGrid()) * len(stkr.BetaGrid())} {
		s, err := NodeClassSearch(name, 0, false)
		require.NoError(t, err, name)
		assert.Len(t, s.Grid(3), want, name)
		assert.Equal(t, name == "auto" || name == "correct-smooth", s.Refine != nil, name)
	}
	_, err := NodeClassSearch("gcn", 0, false)
	assert.ErrorContains(t, err, `"gcn"`)
	_, err = NodeClassSearch("sgc", 0.5, false)
	assert.ErrorContains(t, err, "stkr model only")
	_, err = NodeClassSearch("stkr", math.Inf(1), false)
	assert.ErrorContains(t, err, "finite")
}

// One run on a fixed split with validation nodes, the seeds asked for on a
// seeded split.
func TestNodeClassSeeds(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	own := &eval.Split{Train: []int{0, 1}, Val: []int{2, 3}, Test: []int{4, 5}}
	fixed, err := eval.NewSplitter(eval.SplitSpec{Kind: eval.SplitOwn}, eval.SplitData{Labels: labels, Own: own}, eval.DefaultSizes)
	require.NoError(t, err)
	assert.Equal(t, []uint64{7}, NodeClassSeeds(fixed, 7, 3))
	spec, err := eval.ParseSplitSpec("random:1")
	require.NoError(t, err)
	random, err := eval.NewSplitter(spec, eval.SplitData{Labels: labels}, eval.SplitSizes{Val: 2, Test: 2})
	require.NoError(t, err)
	assert.Equal(t, []uint64{7, 8, 9}, NodeClassSeeds(random, 7, 3))
}

// The report's means and spreads are eval.MeanStd's; a run without test
// nodes has no test accuracy.
func TestReportNodeClass(t *testing.T) {
	s, err := NodeClassSearch("linbp", 0, false)
	require.NoError(t, err)
	runs := []eval.NodeRun{
		{Seed: 1, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "a", Val: 0.5, Test: 0.75, TestAccuracy: 0.75}},
		{Seed: 2, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "b", Val: 0.7, Test: 0.25, TestAccuracy: 0.25}},
	}
	r := ReportNodeClass(s, 2, runs)
	mean, std := eval.MeanStd([]float64{0.75, 0.25})
	assert.Equal(t, mean, r.TestAccuracy)
	assert.Equal(t, std, r.TestAccuracyStd)
	assert.InDelta(t, 0.6, r.ValAccuracy, 1e-15)
	assert.Equal(t, "a", r.Model)
	assert.Equal(t, 1, r.Candidates)
	assert.Equal(t, "accuracy", r.Metric)
	assert.Nil(t, r.TestAUC)

	// With ROC AUC as the metric, Val and Test are AUCs, reported as such,
	// and the accuracy is the outcome's TestAccuracy.
	s.Metric = eval.MetricROCAUC
	auc := []eval.NodeRun{
		{Seed: 1, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "a", Metric: eval.MetricROCAUC, Val: 0.9, Test: 0.8, TestAccuracy: 0.6}},
		{Seed: 2, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "b", Metric: eval.MetricROCAUC, Val: 0.7, Test: 0.6, TestAccuracy: 0.7}},
	}
	r = ReportNodeClass(s, 2, auc)
	assert.Equal(t, "auc", r.Metric)
	m, sd := eval.MeanStd([]float64{0.8, 0.6})
	assert.Equal(t, m, r.TestAUC)
	assert.Equal(t, sd, r.TestAUCStd)
	ma, _ := eval.MeanStd([]float64{0.6, 0.7})
	assert.Equal(t, ma, r.TestAccuracy)
	assert.InDelta(t, 0.8, r.ValAUC, 1e-15)
	assert.Nil(t, r.ValAccuracy)
	assert.Equal(t, 0.9, r.Runs[0].ValAUC)
	assert.Nil(t, r.Runs[0].Val)
	s.Metric = eval.MetricAccuracy

	runs[1].Split.Test = nil
	r = ReportNodeClass(s, 2, runs[1:])
	assert.Nil(t, r.TestAccuracy)
	assert.Nil(t, r.Runs[0].Test)
}

// With no edge between two training nodes NodeClassAuto searches both
// families: SGC's and APPNP's grids and the three trained feature models,
// a chosen SGC or APPNP refined by Correct & Smooth, any other kept. With
// such an edge it searches the family the labels call for.
func TestNodeClassAutoUnknownFamily(t *testing.T) {
	n := 12
	var edges []graph.Edge
	for u := 0; u < n; u++ {
		edges = append(edges, graph.Edge{U: u, V: (u + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	train := make([]int, n)
	for i := range train {
		train[i] = -1
		if i%2 == 0 {
			train[i] = (i / 2) % 2
		}
	}
	s, fam, why, err := NodeClassAuto(g, train, false)
	require.NoError(t, err)
	assert.Equal(t, homophily.Unknown, fam)
	assert.Contains(t, why, "cannot tell")
	sgc := len(nodeclass.SGCGrid(&nodeclass.SGC{Classes: 2}))
	appnp := len(nodeclass.APPNPGrid(&nodeclass.APPNP{Classes: 2}))
	assert.Len(t, s.Grid(2), sgc+appnp+len(nodeclass.HeterophilyNetworks()))
	cs := len(nodeclass.CorrectSmoothGrid(&nodeclass.SGC{}))
	assert.Len(t, s.Refine(&nodeclass.SGC{}), cs)
	assert.Len(t, s.Refine(&nodeclass.APPNP{}), cs)
	for _, m := range []nodeclass.Base{&nodeclass.ChannelMLP{}, &nodeclass.SepGNN{}, &nodeclass.LINKX{}} {
		assert.Empty(t, s.Refine(m), "%T is kept as chosen", m)
	}
	// Nodes 0 and 1 labelled alike and joined: a measurable, homophilous
	// graph.
	train[1] = train[0]
	_, fam, _, err = NodeClassAuto(g, train, false)
	require.NoError(t, err)
	assert.NotEqual(t, homophily.Unknown, fam)
}

// A refining search whose Refine returns no models for a run keeps that
// run's choice and reports no base for it; the report's base model and
// base accuracies are those of the refined runs.
func TestReportNodeClassUnrefinedRuns(t *testing.T) {
	s, err := NodeClassSearch("auto", 0, false)
	require.NoError(t, err)
	runs := []eval.NodeRun{
		{Seed: 1, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "LINKX", Val: 0.5, Test: 0.75, TestAccuracy: 0.75}},
		{Seed: 2, Split: eval.Split{Test: []int{1}}, NodeOutcome: eval.NodeOutcome{Model: "cs", Val: 0.7, Test: 0.5, TestAccuracy: 0.5, Base: "sgc", BaseVal: 0.6, BaseTest: 0.25}},
	}
	r := ReportNodeClass(s, 2, runs)
	assert.Equal(t, "sgc", r.BaseModel)
	assert.Equal(t, 0.25, r.BaseTest)
	assert.Zero(t, r.BaseTestStd)
	assert.Empty(t, r.Runs[0].Base)
	assert.Equal(t, "sgc", r.Runs[1].Base)
	r = ReportNodeClass(s, 2, runs[:1])
	assert.Empty(t, r.BaseModel)
	assert.Zero(t, r.BaseTest)
}
