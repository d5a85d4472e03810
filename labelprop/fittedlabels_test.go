package labelprop

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

// TestFittedLabelsIsArgmaxOfPredict: FittedLabels, by which eval scores a
// fit without the n×c matrix, is the Argmax of Predict on the fitted nodes
// and its number of columns, for both models, with and without class mass
// normalisation, and nil before Fit.
func TestFittedLabelsIsArgmaxOfPredict(t *testing.T) {
	g, nodes, classes := heapTestGraph(t, 3000, 9000, 5)
	for _, m := range []Classifier{&Spreading{Alpha: 0.9}, &Spreading{Alpha: 0.5, ClassMassNormalization: true, Float32: true}, &Harmonic{}, &Harmonic{ClassMassNormalization: true}} {
		pred, c := m.(interface{ FittedLabels() ([]int, int) }).FittedLabels()
		require.Nil(t, pred)
		require.Zero(t, c)
		require.NoError(t, m.FitIndexed(context.Background(), g, nodes, classes))
		p, err := m.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		pred, c = m.(interface{ FittedLabels() ([]int, int) }).FittedLabels()
		_, want := p.Dims()
		require.Equal(t, want, c, "%T", m)
		require.Equal(t, estimator.Argmax(p), pred, "%T", m)
	}
}
