package labelprop

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

// peerAccuracyTol is the agreement asked with lp.py for the same a: issue 5
// allows 0.3 points. On the Planetoid splits every number below agrees
// exactly; the slack covers argmax ties that rounding may break differently.
const peerAccuracyTol = 0.003

func loadPlanetoid(t testing.TB, dir string) (*loaders.NodeDataset, []int) {
	ds, err := loaders.LoadNodeDataset(dir)
	require.NoError(t, err)
	require.NotNil(t, ds.Split)
	cls := make([]int, len(ds.Split.Train))
	for k, v := range ds.Split.Train {
		cls[k] = ds.Labels[v]
	}
	return ds, cls
}

// peerRun holds what lp.py printed for one data set, from
//
//	OMP_NUM_THREADS=2 /usr/bin/python3 shared/bench/peers/lp.py shared/data/<ds>
//
// (lines lp-zhou with peer scipy-cg, lp-harmonic, lp-harmonic-cmn).
type peerRun struct {
	val, test           []float64 // per a of AlphaGrid
	harmonic, harmonicC float64   // test accuracy, plain and with CMN
}

var peer = map[string]peerRun{
	"cora": {
		val:      []float64{0.658, 0.672, 0.692, 0.694, 0.706, 0.686},
		test:     []float64{0.682, 0.687, 0.700, 0.713, 0.718, 0.689},
		harmonic: 0.717, harmonicC: 0.734,
	},
	"pubmed": {
		val:      []float64{0.696, 0.706, 0.708, 0.718, 0.716, 0.708},
		test:     []float64{0.693, 0.705, 0.714, 0.712, 0.717, 0.710},
		harmonic: 0.219, harmonicC: 0.720,
	},
}

// checkPlanetoid fits spreading for every a of the grid by CG, chooses a on
// the validation nodes and checks every accuracy against the peer's, and
// the same for the Chebyshev solver; then the fixed point at the chosen a and the harmonic function with and
// without class-mass normalisation.
func checkPlanetoid(t *testing.T, name, dir string) {
	ds, cls := loadPlanetoid(t, dir)
	sp := ds.Split
	want := peer[name]
	ctx := context.Background()
	acc := func(m Classifier, idx []int) float64 {
		a, err := eval.Accuracy(m.Labels(), ds.Labels, idx)
		require.NoError(t, err)
		return a
	}
	var tests []float64
	best, vals, err := eval.GridSearch(ctx, AlphaGrid(), func(ctx context.Context, a float64) (float64, error) {
		m := Spreading{Alpha: a, Classes: ds.Classes, Solver: CG}
		if err := m.FitIndexed(ctx, ds.Graph, sp.Train, cls); err != nil {
			return 0, err
		}
		assert.Equal(t, 0, m.Details().Isolated)
		tests = append(tests, acc(&m, sp.Test))
		return acc(&m, sp.Val), nil
	})
	require.NoError(t, err)
	assert.InDeltaSlice(t, want.val, vals, peerAccuracyTol, "%s: val accuracy per a", name)
	assert.InDeltaSlice(t, want.test, tests, peerAccuracyTol, "%s: test accuracy per a", name)
	wantBest, err := eval.FirstBest(want.val)
	require.NoError(t, err)
	assert.Equal(t, wantBest, best, "%s: the same a is chosen", name)
	assert.GreaterOrEqual(t, tests[best], 0.70, "%s: issue 5 target", name)

	// The Chebyshev semi-iteration, for every a of the grid: the same
	// accuracies as lp.py's CG (it stops by the same residual rule).
	for k, a := range AlphaGrid() {
		ch := Spreading{Alpha: a, Solver: Chebyshev, Classes: ds.Classes}
		require.NoError(t, ch.FitIndexed(ctx, ds.Graph, sp.Train, cls))
		assert.InDelta(t, want.val[k], acc(&ch, sp.Val), peerAccuracyTol, "%s: Chebyshev val accuracy at a=%v", name, a)
		assert.InDelta(t, want.test[k], acc(&ch, sp.Test), peerAccuracyTol, "%s: Chebyshev test accuracy at a=%v", name, a)
		assert.LessOrEqual(t, ch.Info().Iterations, chebyshevBound(a, DefaultTol), "%s: Chebyshev iterations at a=%v", name, a)
		t.Logf("%s a=%v: Chebyshev %d iterations (bound %d)", name, a, ch.Info().Iterations, chebyshevBound(a, DefaultTol))
	}

	a := AlphaGrid()[best]
	fp := Spreading{Alpha: a, Solver: FixedPoint, Classes: ds.Classes}
	require.NoError(t, fp.FitIndexed(ctx, ds.Graph, sp.Train, cls))
	assert.InDelta(t, want.test[best], acc(&fp, sp.Test), peerAccuracyTol, "%s: fixed point at a=%v", name, a)

	h := Harmonic{Classes: ds.Classes}
	require.NoError(t, h.FitIndexed(ctx, ds.Graph, sp.Train, cls))
	assert.InDelta(t, want.harmonic, acc(&h, sp.Test), peerAccuracyTol, "%s: harmonic", name)
	hc := Harmonic{Classes: ds.Classes, ClassMassNormalization: true}
	require.NoError(t, hc.FitIndexed(ctx, ds.Graph, sp.Train, cls))
	cmn := acc(&hc, sp.Test)
	assert.InDelta(t, want.harmonicC, cmn, peerAccuracyTol, "%s: harmonic + CMN", name)
	// Issue 5: with CMN the harmonic function is near spreading's accuracy
	// (within 2 points) instead of collapsing.
	assert.InDelta(t, tests[best], cmn, 0.02, "%s: harmonic + CMN against spreading", name)
}

func TestCoraPlanetoidMatchesPeer(t *testing.T) {
	checkPlanetoid(t, "cora", filepath.Join("..", "testdata", "cora"))
}

func TestPubMedPlanetoidMatchesPeer(t *testing.T) {
	checkPlanetoid(t, "pubmed", sharedtest.Data(t, "pubmed"))
}

func TestCoraUnreachedNodes(t *testing.T) {
	// Cora has 78 components; lp.py reports 158 unlabelled nodes in
	// components without a training node (n_unreached).
	ds, cls := loadPlanetoid(t, filepath.Join("..", "testdata", "cora"))
	m := Harmonic{}
	require.NoError(t, m.FitIndexed(context.Background(), ds.Graph, ds.Split.Train, cls))
	assert.Equal(t, 158, m.Details().Unreached)
	assert.Equal(t, 0, m.Details().Isolated)
}
