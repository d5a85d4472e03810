package main

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIMGPSaveThenPredict: gssl imgp --save, then gssl predict gives imgp
// --out's predictions and variances, for the fitted nodes (no --features)
// and for points off the graph (--features).
func TestIMGPSaveThenPredict(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "imgp.gssl"), filepath.Join(dir, "imgp.csv")
	feats := "../../testdata/points/features.csv"
	stdout, _, err := runRoot(t, "imgp", "--features", feats, "--targets", "../../testdata/points/targets.csv",
		"--test-features", feats, "--neighbors", "5", "--eigenpairs", "10", "--max-iter", "2", "--euclidean-fixed",
		"--likelihood-probes", "-1", "--save", model, "--out", out, "--json")
	require.NoError(t, err)
	assert.Equal(t, model, decodeOne(t, []byte(stdout))["saved"])
	fit := readCSV(t, out)
	require.Equal(t, []string{"id", "set", "prediction", "variance", "observation_variance", "gamma", "target"}, fit[0])
	bySet := map[string]map[string][]string{}
	for _, r := range fit[1:] {
		if bySet[r[1]] == nil {
			bySet[r[1]] = map[string][]string{}
		}
		bySet[r[1]][r[0]] = r
	}
	require.NotEmpty(t, bySet["features"])
	require.NotEmpty(t, bySet["test-features"])
	check := func(args []string, set string) {
		pred := filepath.Join(dir, "pred.csv")
		_, _, err := runRoot(t, append(append([]string{"predict", "--model", model}, args...), "--out", pred)...)
		require.NoError(t, err)
		got := readCSV(t, pred)
		require.Equal(t, []string{"id", "prediction", "variance"}, got[0])
		seen := 0
		for _, g := range got[1:] {
			want, ok := bySet[set][g[0]]
			if !ok {
				continue // a labelled node: imgp --out does not list it
			}
			seen++
			for _, col := range [][2]int{{2, 1}, {3, 2}} {
				w, err := strconv.ParseFloat(want[col[0]], 64)
				require.NoError(t, err)
				h, err := strconv.ParseFloat(g[col[1]], 64)
				require.NoError(t, err)
				assert.InDelta(t, w, h, 1e-12*math.Max(1, math.Abs(w)), "%s row %s column %s", set, g[0], fit[0][col[0]])
			}
		}
		assert.Equal(t, len(bySet[set]), seen, set)
	}
	check(nil, "features")
	check([]string{"--features", feats}, "test-features")
	stdout, _, err = runRoot(t, "model", "info", model, "--json")
	require.NoError(t, err)
	assert.Equal(t, "regression", decodeOne(t, []byte(stdout))["task"])
}
