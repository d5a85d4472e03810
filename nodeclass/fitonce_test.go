package nodeclass

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
)

// countingBase counts its fits; Predict returns nothing.
type countingBase struct {
	estimator.NodeClassifier
	fits int
}

func (c *countingBase) Fit(context.Context, estimator.Nodes, []int) error {
	c.fits++
	return nil
}

// TestFitOnce checks that FitOnce refits its model exactly when the graph,
// the features or the labels differ from the last fit's.
func TestFitOnce(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	g2, _, _ := heterophilous(t, 30, 2)
	base := &countingBase{}
	m := FitOnce(base)
	nodes := estimator.Nodes{Graph: g, Features: x}
	labels := slices.Clone(truth)
	for k, step := range []struct {
		nodes  estimator.Nodes
		labels []int
		fits   int
	}{
		{nodes, labels, 1},
		{nodes, slices.Clone(labels), 1},                         // equal labels, another slice
		{nodes, append([]int{-1}, labels[1:]...), 2},             // a label hidden
		{estimator.Nodes{Graph: g2, Features: x}, labels, 3},     // another graph
		{estimator.Nodes{Graph: g2, Features: x.T()}, labels, 4}, // other features
		{estimator.Nodes{Graph: g2, Features: x.T()}, labels, 4}, // the same again
	} {
		require.NoError(t, m.Fit(ctx, step.nodes, step.labels))
		require.Equal(t, step.fits, base.fits, "step %d", k)
	}
}

// validatingBase counts its fits and its fits that stop early on val.
type validatingBase struct {
	countingBase
	validated int
}

func (c *validatingBase) FitValidated(context.Context, estimator.Nodes, []int, []int, []int) error {
	c.validated++
	return nil
}

// TestFitOnceValidated checks that FitOnce passes FitValidated on to a base
// that has it (the selection then stops early on the split's val nodes),
// refitting exactly when the labels or the val nodes differ, and that a
// plain Fit after it refits.
func TestFitOnceValidated(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	nodes := estimator.Nodes{Graph: g, Features: x}
	base := &validatingBase{}
	m, ok := FitOnce(base).(interface {
		FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error
	})
	require.True(t, ok, "FitOnce hides FitValidated")
	val, valLabels := []int{0, 1}, []int{truth[0], truth[1]}
	for k, step := range []struct {
		val             []int
		validated, fits int
	}{
		{val, 1, 0},
		{slices.Clone(val), 1, 0}, // the same nodes again
		{[]int{0, 2}, 2, 0},       // other val nodes
	} {
		require.NoError(t, m.FitValidated(ctx, nodes, truth, step.val, valLabels))
		require.Equal(t, [2]int{step.validated, step.fits}, [2]int{base.validated, base.fits}, "step %d", k)
	}
	require.NoError(t, FitOnce(base).Fit(ctx, nodes, truth))
	require.NoError(t, m.(Base).Fit(ctx, nodes, truth))
	require.Equal(t, 2, base.fits, "Fit after FitValidated must refit")
}

// TestTogether checks that the first FitValidated of a member of Together
// fits every member on those inputs once (with two workers), that their
// own calls then fit nothing, that other val nodes refit them all, that
// with one worker a member fits alone, and that the heterophily grid
// fitted together on two workers predicts bitwise what its models fitted
// one by one on one worker do.
func TestTogether(t *testing.T) {
	defer func(c parallel.Config) { require.NoError(t, parallel.Configure(c)) }(parallel.Current())
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	nodes := estimator.Nodes{Graph: g, Features: x}
	type validated interface {
		FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error
	}
	val, valLabels := []int{0, 1}, []int{truth[0], truth[1]}
	labels := slices.Clone(truth)
	labels[0], labels[1] = -1, -1
	for _, workers := range []int{2, 1} {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
		bases := []*validatingBase{{}, {}, {}}
		group := Together(bases[0], bases[1], bases[2])
		counts := func() []int { return []int{bases[0].validated, bases[1].validated, bases[2].validated} }
		require.NoError(t, group[1].(validated).FitValidated(ctx, nodes, labels, val, valLabels))
		if workers == 1 {
			require.Equal(t, []int{0, 1, 0}, counts(), "one worker: the member alone")
			continue
		}
		require.Equal(t, []int{1, 1, 1}, counts(), "the first call fits the group")
		for _, m := range group {
			require.NoError(t, m.(validated).FitValidated(ctx, nodes, labels, slices.Clone(val), valLabels))
		}
		require.Equal(t, []int{1, 1, 1}, counts(), "the members' own calls fit nothing")
		require.NoError(t, group[2].(validated).FitValidated(ctx, nodes, labels, []int{0, 2}, []int{truth[0], truth[2]}))
		require.Equal(t, []int{2, 2, 2}, counts(), "other val nodes refit the group")
	}
	// The heterophily grid on a heterophilous graph with features.
	require.NoError(t, parallel.Configure(parallel.Config{Workers: 2}))
	hg, hx, ht := sepHetero(t, 1200, 6)
	hl, hval, hvalLabels, _ := sepSplit(ht)
	hn := estimator.Nodes{Graph: hg, Features: hx}
	together := HeterophilyGrid()
	for k, m := range together {
		require.NoError(t, m.(validated).FitValidated(ctx, hn, hl, hval, hvalLabels))
		alone := HeterophilyGrid()[k].(*memo).base
		require.NoError(t, parallel.Configure(parallel.Config{Workers: 1}))
		if v, ok := alone.(validated); ok {
			require.NoError(t, v.FitValidated(ctx, hn, hl, hval, hvalLabels))
		} else {
			require.NoError(t, alone.Fit(ctx, hn, hl)) // SGC, no early stopping
		}
		require.NoError(t, parallel.Configure(parallel.Config{Workers: 2}))
		p1, err := m.Predict(ctx, estimator.FittedNodes)
		require.NoError(t, err)
		p0, err := alone.Predict(ctx, estimator.FittedNodes)
		require.NoError(t, err)
		require.Equal(t, p0.RawMatrix().Data, p1.RawMatrix().Data, "candidate %d (%v)", k, m)
	}
}
