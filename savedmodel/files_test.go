package savedmodel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/serve"
)

func TestAnswerTable(t *testing.T) {
	m, v := 1.5, 0.25
	a := &Answer{Predictions: []serve.Prediction{{ID: "x", Mean: &m, Variance: &v}}}
	cols, row := a.Table(serve.Metadata{Task: serve.Regression})
	require.Equal(t, []string{"id", "prediction", "variance"}, cols)
	rec := make([]any, len(cols))
	row(0, rec)
	require.Equal(t, []any{"x", 1.5, 0.25}, rec)

	a = &Answer{Predictions: []serve.Prediction{{ID: "y", Label: "b", Probabilities: []float64{0.25, 0.75}, Prior: true}}}
	cols, row = a.Table(serve.Metadata{Classes: []string{"a", "b"}})
	require.Equal(t, []string{"id", "predicted", "p_a", "p_b"}, cols)
	rec = make([]any, len(cols))
	row(0, rec)
	require.Equal(t, []any{"y", "b", 0.25, 0.75}, rec)
	require.Equal(t, 1, a.NoEvidence())
}

// TestDecisionColumns names the one-vs-one machines of 3 classes in the
// order (0,1), (0,2), (1,2), and falls back to numbers otherwise.
func TestDecisionColumns(t *testing.T) {
	p := []serve.Prediction{{Scores: []float64{1, 2, 3}}}
	require.Equal(t, []string{"decision_a_vs_b", "decision_a_vs_c", "decision_b_vs_c"}, DecisionColumns([]string{"a", "b", "c"}, p))
	require.Equal(t, []string{"decision_0", "decision_1", "decision_2"}, DecisionColumns([]string{"a", "b"}, p))
}
