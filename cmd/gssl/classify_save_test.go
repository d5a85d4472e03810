package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassifySaveThenPredict: gssl classify --save (two seeds: the first
// seed's model is saved although the second refits the candidates), then
// gssl predict gives classify --out's predicted class and probabilities,
// bitwise as printed, for every node --out lists; new nodes by --edges
// alone are refused with a message (they need --features too).
func TestClassifySaveThenPredict(t *testing.T) {
	data := writeFeatureFolder(t, 3, 30, 9)
	for _, model := range []string{"sgc", "appnp", "correct-smooth"} {
		dir := t.TempDir()
		saved, out, pred := filepath.Join(dir, "m.gssl"), filepath.Join(dir, "fit.csv"), filepath.Join(dir, "pred.csv")
		stdout, _, err := runRoot(t, "classify", "--data", data, "--model", model, "--split", "per-class:5,5", "--seeds", "2", "--out", out, "--save", saved, "--json")
		require.NoError(t, err, model)
		assert.Equal(t, saved, decodeOne(t, []byte(stdout))["saved"], model)
		_, _, err = runRoot(t, "predict", "--model", saved, "--out", pred)
		require.NoError(t, err, model)
		fit, got := readCSV(t, out), readCSV(t, pred)
		require.Equal(t, []string{"id", "predicted", "p_0", "p_1", "p_2"}, got[0], model)
		require.Equal(t, []string{"id", "predicted", "label", "split", "p_0", "p_1", "p_2"}, fit[0], model)
		require.Len(t, got, 1+90, model)
		byID := map[string][]string{}
		for _, r := range got[1:] {
			byID[r[0]] = r
		}
		require.Len(t, fit, 1+90-15)
		for _, r := range fit[1:] {
			p, ok := byID[r[0]]
			require.True(t, ok, "%s: node %s", model, r[0])
			assert.Equal(t, append([]string{r[0], r[1]}, r[4:]...), p, "%s: node %s", model, r[0])
		}
		edges := filepath.Join(dir, "new.csv")
		require.NoError(t, os.WriteFile(edges, []byte("source,target\nnew_1,1\nnew_1,2\n"), 0o644))
		// New nodes need their features too (predict_nodes_test.go).
		_, _, err = runRoot(t, "predict", "--model", saved, "--edges", edges)
		assert.ErrorContains(t, err, "give --features FILE", model)
		stdout, _, err = runRoot(t, "model", "info", saved, "--json")
		require.NoError(t, err)
		assert.Contains(t, decodeOne(t, []byte(stdout))["kind"], "nodeclass.")
	}
	_, _, err := runRoot(t, "classify", "--data", data, "--model", "stkr", "--save", filepath.Join(t.TempDir(), "m.gssl"))
	assert.ErrorContains(t, err, "--save works with")
}
