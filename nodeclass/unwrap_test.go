package nodeclass

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
)

// scoresBase is a base whose Predict returns fixed scores; it counts its
// fits.
type scoresBase struct {
	estimator.NodeClassifier
	fits   int
	scores *mat.Dense
}

func (b *scoresBase) Fit(context.Context, estimator.Nodes, []int) error {
	b.fits++
	return nil
}

func (b *scoresBase) Predict(context.Context, estimator.NodeQuery) (*mat.Dense, error) {
	return mat.DenseCopyOf(b.scores), nil
}

// TestChoiceUnwrapsFitOnce checks that eval's selection hands on the model
// behind a FitOnce memo (Together's, and a memo of a memo), the very model
// the memo fitted, and that on validation nodes it is not refitted (the
// selection's refit is the memo's), while without them (cross-validation)
// it is refitted once on every label.
func TestChoiceUnwrapsFitOnce(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	nodes := estimator.Nodes{Graph: g, Features: x}
	right, wrong := mat.NewDense(30, 3, nil), mat.NewDense(30, 3, nil)
	for i, k := range truth {
		right.Set(i, k, 1)
		wrong.Set(i, (k+1)%3, 1)
	}
	for _, val := range [][]int{{4, 5, 14, 15, 24, 25}, nil} {
		bases := []*scoresBase{{scores: wrong}, {scores: right}, {scores: wrong}}
		grid := Together(bases[0], bases[1])
		grid = append(grid, FitOnce(FitOnce(bases[2])))
		cands := make([]estimator.NodeClassifier, len(grid))
		for k, b := range grid {
			cands[k] = b
		}
		sel, err := eval.ChooseNodeBy(ctx, eval.MetricAccuracy, cands, nodes, truth, val, eval.CV{Folds: 3, Seed: 1})
		require.NoError(t, err)
		require.Equal(t, 1, sel.Index)
		best, ok := sel.Best.(*scoresBase)
		require.True(t, ok, "the chosen model is %T, not the model behind the memo", sel.Best)
		require.Same(t, bases[1], best)
		if val != nil {
			require.Equal(t, 1, best.fits, "the choice on val nodes is not refitted")
		} else {
			require.Equal(t, 3+1, best.fits, "one fit per fold, then one on every label")
		}
		require.Same(t, bases[2], grid[2].(*memo).Unwrap(), "a memo of a memo unwraps to the model")
	}
}

// TestHeterophilyChoiceIsTheModel checks, on a heterophilous graph, that
// --classifier auto's choice among HeterophilyGrid is the chosen model
// itself (a ChannelMLP, SepGNN or LINKX, not its memo), bitwise the model
// fitted alone with the same hyperparameters, and that it saves and reads
// back predicting the same bits.
func TestHeterophilyChoiceIsTheModel(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 150, 3)
	labels, val, _, _ := sepSplit(truth)
	for _, i := range val {
		labels[i] = truth[i]
	}
	nodes := estimator.Nodes{Graph: g, Features: x}
	grid := HeterophilyGrid()
	cands := make([]estimator.NodeClassifier, len(grid))
	for k, b := range grid {
		cands[k] = b
	}
	sel, err := eval.ChooseNodeBy(ctx, eval.MetricAccuracy, cands, nodes, labels, val, eval.CV{})
	require.NoError(t, err)
	switch sel.Best.(type) {
	case *ChannelMLP, *SepGNN, *LINKX:
	default:
		t.Fatalf("the chosen model is a %T", sel.Best)
	}
	require.Same(t, grid[sel.Index].(*memo).base, sel.Best)

	alone := HeterophilyGrid()[sel.Index].(*memo).base
	train := make([]int, len(labels))
	copy(train, labels)
	valLabels := make([]int, len(val))
	for k, i := range val {
		train[i], valLabels[k] = -1, truth[i]
	}
	require.NoError(t, alone.(interface {
		FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error
	}).FitValidated(ctx, nodes, train, val, valLabels))
	want, err := alone.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	got, err := sel.Best.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data, "%v", sel.Best)

	saver, ok := sel.Best.(interface {
		MarshalBinary() ([]byte, error)
		Kind() string
	})
	require.True(t, ok, "%T does not save", sel.Best)
	data, err := saver.MarshalBinary()
	require.NoError(t, err)
	back := HeterophilyGrid()[sel.Index].(*memo).base
	require.NoError(t, back.(interface{ UnmarshalBinary([]byte) error }).UnmarshalBinary(data))
	read, err := back.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, got.RawMatrix().Data, read.RawMatrix().Data)

	// Every candidate saves, whichever is chosen.
	for _, b := range grid {
		_, err := b.(*memo).Unwrap().(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
		require.NoError(t, err, "%v", b)
	}
}
