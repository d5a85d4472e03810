package protocol

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/eval"
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
