package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSineRegression writes x ∈ [0, 6) (features), sin(2x) (targets) for
// n training and m test points, and returns the flags that read them.
func writeSineRegression(t *testing.T, n, m int) []string {
	dir := t.TempDir()
	write := func(name string, rows int, off float64, f func(x float64) float64) string {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			x := 6 * (float64(i) + off) / float64(rows)
			fmt.Fprintf(&b, "%.17g\n", f(x))
		}
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		return path
	}
	id := func(x float64) float64 { return x }
	sin := func(x float64) float64 { return math.Sin(2 * x) }
	return []string{"--features", write("x.txt", n, 0, id), "--targets", write("y.txt", n, 0, sin),
		"--test-features", write("xt.txt", m, 0.5, id), "--test-targets", write("yt.txt", m, 0.5, sin)}
}

// A sweep over M is the list of the single fits (same seed, same numbers),
// drawn as two panels (error and time against M) and reported.
func TestFalkonSweepAndPlot(t *testing.T) {
	data := writeSineRegression(t, 200, 50)
	base := append([]string{"--json", "falkon", "--sigma", "0.5", "--ridge", "1e-6", "--max-iter", "30", "--precision", "float64", "--seed", "3"}, data...)
	dir := t.TempDir()
	png, rep := filepath.Join(dir, "sweep.png"), filepath.Join(dir, "rep")
	out, _, err := runRoot(t, append(base, "--m", "2,5,40", "--plot", png, "--report", rep)...)
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, "regression", obj["task"])
	sweep, ok := obj["sweep"].([]any)
	require.True(t, ok, "sweep is an array: %v", obj["sweep"])
	require.Len(t, sweep, 3)
	var rmse []float64
	for i, m := range []string{"2", "5", "40"} {
		pt := sweep[i].(map[string]any)
		assert.Equal(t, m, fmt.Sprint(pt["m"]))
		assert.Equal(t, pt["m"], pt["centres_used"])
		assert.GreaterOrEqual(t, pt["fit_seconds"], 0.0)
		one, _, err := runRoot(t, append(base, "--m", m)...)
		require.NoError(t, err)
		single := decodeOne(t, []byte(one))
		assert.Equal(t, single["test_rmse"], pt["test_rmse"], "M=%s: the sweep's fit is the single fit", m)
		rmse = append(rmse, pt["test_rmse"].(float64))
	}
	// Two centres cannot follow three periods of a sine; forty can.
	assert.Greater(t, rmse[0], 0.3)
	assert.Less(t, rmse[2], 0.05)
	readPNG(t, png, 2, 1)
	checkReport(t, rep, 2, 1, "<caption>sweep over M</caption>", "<td>load_seconds</td>")

	// The text summary has one row per M.
	text, _, err := runRoot(t, append(base[1:], "--m", "2,5")...)
	require.NoError(t, err)
	assert.Contains(t, text, "test RMSE")
	assert.Equal(t, 2+1, strings.Count(text, "\n")-1, text)
}

func TestFalkonSweepRefusals(t *testing.T) {
	data := writeSineRegression(t, 30, 5)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--m", "5,10", "--out", filepath.Join(dir, "p.csv")}, "--out needs one --m (a sweep fits 2 models)"},
		{[]string{"--m", "5,10", "--save", filepath.Join(dir, "m.gssl")}, "--save needs one --m"},
		{[]string{"--m", "5,0"}, "--m 0 is invalid: every M of a sweep must be ≥ 1 (value 2)"},
		{[]string{"--m", "5,31"}, "--m 31 is invalid: there are 30 training points"},
		{[]string{"--m", "5,10", "--plot", filepath.Join(dir, "p.jpg")}, `unknown image format ".jpg"`},
		{[]string{"--m", "5", "--plot", filepath.Join(dir, "p.png")}, "give several values to --m"},
	} {
		_, _, err := runRoot(t, append(append([]string{"falkon"}, data...), c.args...)...)
		require.ErrorContains(t, err, c.want, c.args)
	}
}
