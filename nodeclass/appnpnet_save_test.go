package nodeclass

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// TestAPPNPNetSaveLoad: an APPNPNet read back from its bytes predicts its
// fitted nodes bitwise as the fitted one, keeps every hyperparameter and
// Info, refuses new nodes with the fitted model's error, and a file whose
// metadata disagrees with its sections, or that is cut short, is refused
// with an error naming the field, the model left as it was.
func TestAPPNPNetSaveLoad(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 90, 3)
	labels, val, valLabels, _ := sepSplit(truth)
	m := &APPNPNet{Hidden: 8, Steps: 4, Alpha: 0.8, Dropout: 0.3, WeightDecay: 1e-3, LearningRate: 0.02, Epochs: 30, Patience: 7,
		Stop: StopAccuracy, HoldOut: 0.3, Normalization: NoNormalization, Seed: 5}
	require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels))
	data, err := m.MarshalBinary()
	require.NoError(t, err)
	var back APPNPNet
	require.NoError(t, back.UnmarshalBinary(data))
	require.Equal(t, m.Clone(), back.Clone(), "the hyperparameters")
	require.Equal(t, APPNPNetKind, back.Kind())
	require.Zero(t, back.Features())
	checkFittedOnlyReadBack(t, m, &back, 90)

	checkTampered(t, m, &back, (*APPNPNet).ReadModelFile, map[string]func(meta *appnpNetMeta){
		"probabilities": func(meta *appnpNetMeta) { meta.Classes++ },
		"nodes = ":      func(meta *appnpNetMeta) { meta.Nodes = 1 << 40 },
		"classes = ":    func(meta *appnpNetMeta) { meta.Classes = 0 },
		"Steps":         func(meta *appnpNetMeta) { meta.Hyperparameters.Steps = -1 },
		"Alpha":         func(meta *appnpNetMeta) { meta.Hyperparameters.Alpha = 1 },
		"Normalization": func(meta *appnpNetMeta) { meta.Hyperparameters.Normalization = 99 },
		"Stop":          func(meta *appnpNetMeta) { meta.Hyperparameters.Stop = 7 },
		"iterations":    func(meta *appnpNetMeta) { meta.Iterations = -1 },
		// The section is compared with the declared shape before any
		// allocation of nodes × classes.
		`"probabilities"`: func(meta *appnpNetMeta) { meta.Nodes, meta.Classes = maxNetDim, maxNetDim },
	})
	checkShortFile(t, APPNPNetKind, APPNPNetVersion, appnpNetMeta{Nodes: 90, Classes: 3}, back.ReadModelFile)

	// Every cut of the bytes is an error, not a panic.
	for _, k := range []int{0, 1, 8, len(data) / 3, len(data) / 2, len(data) - 1} {
		var cut APPNPNet
		require.Error(t, cut.UnmarshalBinary(data[:k]), "%d of %d bytes", k, len(data))
	}

	var unfitted APPNPNet
	_, err = unfitted.MarshalBinary()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = (&APPNPNet{}).MarshalJSON()
	require.ErrorIs(t, err, estimator.ErrJSON)
}

// savedFittedOnly is what the save tests of the models that predict their
// fitted nodes only (ChannelMLP, APPNPNet) compare.
type savedFittedOnly interface {
	estimator.NodeClassifier
	String() string
	Info() estimator.Info
}

// checkFittedOnlyReadBack: back, read from m's file, has m's String and
// Info, predicts the n fitted nodes bitwise as m does, and refuses new
// nodes with m's error.
func checkFittedOnlyReadBack(t *testing.T, m, back savedFittedOnly, n int) {
	t.Helper()
	ctx := context.Background()
	require.Equal(t, m.String(), back.String())
	require.Equal(t, m.Info(), back.Info())
	require.NotZero(t, back.Info().Iterations)
	a, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	b, err := back.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, n, a.RawMatrix().Rows)
	require.Equal(t, a.RawMatrix().Data, b.RawMatrix().Data)
	nn := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{2}}
	for _, q := range []estimator.NodeQuery{{New: &nn}, {New: &nn, Features: mat.NewDense(1, 6, nil)}} {
		_, want := m.Predict(ctx, q)
		require.ErrorContains(t, want, "fitted nodes only")
		_, got := back.Predict(ctx, q)
		require.EqualError(t, got, want.Error())
	}
}

// modelFiler is a fitted model that writes its model file.
type modelFiler interface {
	ModelFile() (*modelfile.File, error)
}

// checkTampered changes the metadata of m's file as another writer could,
// by each of changes, and reads it into back: each is refused with an
// error containing the change's name, and back is left as it was.
func checkTampered[T, M any](t *testing.T, m modelFiler, back *T, read func(*T, *modelfile.File) error, changes map[string]func(*M)) {
	t.Helper()
	for what, change := range changes {
		f, err := m.ModelFile()
		require.NoError(t, err)
		var meta M
		require.NoError(t, f.DecodeMetadata(&meta))
		change(&meta)
		require.NoError(t, f.SetMetadata(meta))
		kept := *back
		require.ErrorContains(t, read(back, f), what)
		require.Equal(t, kept, *back, what)
	}
}

// checkShortFile: a file of kind whose metadata meta declares 90 nodes and
// 3 classes is refused, naming the section, when "probabilities" holds
// one number too few or "residual" is missing.
func checkShortFile(t *testing.T, kind string, version int, meta any, read func(*modelfile.File) error) {
	t.Helper()
	short := modelfile.New(kind, version)
	require.NoError(t, short.SetMetadata(meta))
	short.PutFloat64s("probabilities", make([]float64, 90*3-1))
	short.PutFloat64s("residual", []float64{0})
	require.ErrorContains(t, read(short), "probabilities")
	p := make([]float64, 90*3)
	for i := range p {
		p[i] = 1.0 / 4
		if i%3 == 0 {
			p[i] = 1.0 / 2
		}
	}
	noResidual := modelfile.New(kind, version)
	require.NoError(t, noResidual.SetMetadata(meta))
	noResidual.PutDense("probabilities", mat.NewDense(90, 3, p))
	require.ErrorContains(t, read(noResidual), "residual")
}
