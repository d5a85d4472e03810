package nodeclass

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
)

// scriptedNet is a net whose validation probabilities follow a script:
// after the k-th parameter step the one validation node has probability
// script[k] on its class. It records its parameter after every step.
type scriptedNet struct {
	p, g   []float64
	script []float64
	steps  int
	pr     *mat.Dense
	after  []float64 // the parameter after step k+1
}

func (s *scriptedNet) params() []float64              { return s.p }
func (s *scriptedNet) grads() []float64               { return s.g }
func (s *scriptedNet) drawMasks(*rand.PCG, float64)   {}
func (s *scriptedNet) backward([]int, []int, float64) { s.g[0] = 1 }
func (s *scriptedNet) prob() *mat.Dense               { return s.pr }

// clearMasks runs once per epoch after the step: the evaluation pass
// follows it.
func (s *scriptedNet) clearMasks() {
	s.steps++
	s.after = append(s.after, s.p[0])
}

func (s *scriptedNet) forward([]int) {
	q := 0.5
	if s.steps > 0 {
		q = s.script[min(s.steps, len(s.script))-1]
	}
	s.pr.Set(0, 0, q)
	s.pr.Set(0, 1, 1-q)
}

// TestTrainNetPatience checks the early-stopping rule the patience sets:
// training stops Patience epochs after the epoch of least validation loss
// and keeps that epoch's parameters.
func TestTrainNetPatience(t *testing.T) {
	// Validation probability rises until epoch 4, then falls: the least
	// loss is at epoch 4.
	script := []float64{0.5, 0.6, 0.7, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3}
	for _, patience := range []int{1, 3, 10} {
		nt := &scriptedNet{p: []float64{0}, g: []float64{0}, script: script, pr: mat.NewDense(1, 2, nil)}
		set := trainSettings{model: "test", epochs: 100, patience: patience, rate: 0.1}
		epochs, loss, err := trainNet(context.Background(), nt, set, rand.NewPCG(1, 1), []int{0}, []int{0}, []int{0}, []int{0})
		require.NoError(t, err)
		require.Equal(t, 4+patience, epochs, "patience %d", patience)
		require.InDelta(t, -math.Log(0.8), loss, 1e-15)
		require.Equal(t, nt.after[3], nt.p[0], "the parameters of epoch 4 are kept")
	}
	// A loss that falls at every epoch runs to the cap and keeps the last.
	falling := make([]float64, 50)
	for k := range falling {
		falling[k] = 0.5 + 0.009*float64(k)
	}
	nt := &scriptedNet{p: []float64{0}, g: []float64{0}, script: falling, pr: mat.NewDense(1, 2, nil)}
	set := trainSettings{model: "test", epochs: 30, patience: 10, rate: 0.1}
	epochs, _, err := trainNet(context.Background(), nt, set, rand.NewPCG(1, 1), []int{0}, []int{0}, []int{0}, []int{0})
	require.NoError(t, err)
	require.Equal(t, 30, epochs)
	require.Equal(t, nt.after[29], nt.p[0])
}

// TestHeterophilyGrid checks the candidates of --classifier auto on a
// heterophilous graph: the three trained models, each with the patience
// AutoPatience, the two networks with at most AutoEpochs epochs, then SGC
// at AutoSGCK, AutoSGCL2 and AutoSGCIter, each fitted once per set of
// training labels.
func TestHeterophilyGrid(t *testing.T) {
	grid := HeterophilyGrid()
	require.Len(t, grid, 4)
	var kinds []string
	for _, b := range grid {
		m, ok := b.(*memo)
		require.True(t, ok, "%T is behind FitOnce", b)
		switch v := m.base.(type) {
		case *ChannelMLP:
			require.Equal(t, AutoPatience, v.MLP.Patience)
			require.Zero(t, v.MLP.Epochs, "the perceptron keeps its default epochs")
			kinds = append(kinds, "channels")
		case *SepGNN:
			require.Equal(t, AutoPatience, v.patience())
			require.Equal(t, AutoEpochs, v.epochs())
			kinds = append(kinds, "sepgnn")
		case *LINKX:
			require.Equal(t, AutoPatience, v.patience())
			require.Equal(t, AutoEpochs, v.epochs())
			kinds = append(kinds, "linkx")
		case *SGC:
			require.Equal(t, AutoSGCK, v.K)
			require.Equal(t, AutoSGCL2, v.L2)
			require.Equal(t, AutoSGCIter, v.MaxIter)
			kinds = append(kinds, "sgc")
		default:
			t.Fatalf("unexpected candidate %T", v)
		}
	}
	require.Equal(t, []string{"channels", "sepgnn", "linkx", "sgc"}, kinds)
}

// TestHeterophilyGridSGC checks the SGC candidate of HeterophilyGrid
// against SGC fitted alone with its settings: the same probabilities
// bitwise, its L-BFGS stopped at AutoSGCIter iterations where the fit to
// the gradient tolerance takes more, and the selection hands on the fitted
// model itself (no memo, no second fit).
func TestHeterophilyGridSGC(t *testing.T) {
	ctx := context.Background()
	// Every other node labelled at random: at the small penalty L-BFGS
	// needs about three times the cap to reach its gradient tolerance.
	g, xs, labels, _ := planted(t, 200, 5, 100, 11)
	for i := range labels {
		if i%2 == 0 {
			labels[i] = (i * 7919 / 3) % 5
		}
	}
	x := estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}
	lone := &SGC{K: AutoSGCK, L2: AutoSGCL2, MaxIter: AutoSGCIter}
	require.NoError(t, lone.Fit(ctx, x, labels))
	want, err := lone.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, AutoSGCIter, lone.Info().Iterations, "the cap binds")
	converged := &SGC{K: AutoSGCK, L2: AutoSGCL2}
	require.NoError(t, converged.Fit(ctx, x, labels))
	require.Greater(t, converged.Info().Iterations, AutoSGCIter)
	require.Equal(t, "sgc(K=3, L2=3e-05, MaxIter=50)", lone.String())

	cand := HeterophilyGrid()[3]
	sel, err := eval.ChooseNode(ctx, []Base{cand}, x, labels, nil, eval.CV{Folds: 2, Seed: 1})
	require.NoError(t, err)
	inner := cand.(*memo).base
	require.Same(t, inner, sel.Best, "the chosen model is the memo's, fitted once on all the labels")
	got, err := sel.Best.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.True(t, slices.Equal(want.RawMatrix().Data, got.RawMatrix().Data), "the probabilities differ from the lone fit's")
}
