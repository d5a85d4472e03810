package savedmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
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

// TestDescribe checks the description of a saved model against the file:
// its size, its SHA-256 computed here, and what was saved.
func TestDescribe(t *testing.T) {
	ds := tiny(t)
	path := filepath.Join(t.TempDir(), "m.gssl")
	require.NoError(t, Save(path, fitTiny(t, ds), Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: "edges.csv"}))
	d, err := Describe(path)
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	require.Equal(t, int64(len(b)), d.Bytes)
	require.Equal(t, hex.EncodeToString(sum[:]), d.SHA256)
	require.Equal(t, labelprop.SpreadingKind, d.Kind)
	require.Equal(t, ds.ClassNames, d.Classes)
	require.Equal(t, 12, d.Nodes)
	require.Equal(t, "edges.csv", d.Data)
	_, err = Describe(filepath.Join(t.TempDir(), "none.gssl"))
	require.Error(t, err)
}

// TestReadNewNodesFile reads an edge table of new nodes against the fitted
// ids of the tiny data set.
func TestReadNewNodesFile(t *testing.T) {
	ds := tiny(t)
	p := filepath.Join(t.TempDir(), "new.csv")
	require.NoError(t, os.WriteFile(p, []byte("source,target,weight\nx,paper_2,1\nparper_9,y,2\npaper_9,x,0.5\n"), 0o644))
	_, _, err := ReadNewNodes(p, loaders.EdgeTableOptions{}, ds.IDs)
	require.ErrorContains(t, err, "line 3: neither parper_9 nor y is a fitted node")
	require.NoError(t, os.WriteFile(p, []byte("source,target,weight\nx,paper_2,1\npaper_9,x,0.5\n"), 0o644))
	nodes, rep, err := ReadNewNodes(p, loaders.EdgeTableOptions{}, ds.IDs)
	require.NoError(t, err)
	require.Equal(t, []serve.NewNode{{ID: "x", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}}}, nodes)
	require.Equal(t, "edges", rep.Role)
}
