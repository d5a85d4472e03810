package nodeclass

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
)

// TestSGCCora checks SGC with its defaults (K = 2, L2 = DefaultL2) on Cora's
// Planetoid split: Wu et al. (2019) report 81.0 % test accuracy; this fit
// reaches 80.9 %.
func TestSGCCora(t *testing.T) {
	ds, labels, _, _ := coraTrainVal(t)
	m := &SGC{}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph, Features: Matrix(Features{Sparse: ds.Features})}, labels))
	p, err := m.Predict(context.Background(), estimator.FittedNodes)
	require.NoError(t, err)
	acc, err := eval.Accuracy(estimator.Argmax(p), ds.Labels, ds.Split.Test)
	require.NoError(t, err)
	require.GreaterOrEqual(t, acc, 0.79)
}
