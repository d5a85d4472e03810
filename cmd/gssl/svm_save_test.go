package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/svm"
)

// TestSVMSaveThenPredict: gssl svm --save on two moons, then gssl predict
// --features on the test points gives svm --out's classes and decision
// values, as the same digits.
func TestSVMSaveThenPredict(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "svm.gssl"), filepath.Join(dir, "svm.csv")
	stdout, _, err := runRoot(t, "svm", "--n", "80", "--seed", "3", "--save", model, "--out", out, "--json")
	require.NoError(t, err)
	assert.Equal(t, model, decodeOne(t, []byte(stdout))["saved"])
	fit := readCSV(t, out)
	require.Equal(t, []string{"id", "set", "prediction", "decision_0_vs_1", "label"}, fit[0])
	// The test points are rows 40..79 of the same draw: write them out.
	_, _, err = runRoot(t, "predict", "--model", model)
	assert.ErrorContains(t, err, "keeps no fitted nodes or points")
	var rows []string
	x := twoMoonsRows(t, 80, 3)
	for _, r := range x[40:] {
		rows = append(rows, r)
	}
	feats := filepath.Join(dir, "x.csv")
	require.NoError(t, os.WriteFile(feats, []byte("a,b\n"+strings.Join(rows, "\n")+"\n"), 0o644))
	pred := filepath.Join(dir, "pred.csv")
	_, _, err = runRoot(t, "predict", "--model", model, "--features", feats, "--out", pred)
	require.NoError(t, err)
	got := readCSV(t, pred)
	require.Equal(t, []string{"id", "predicted", "decision_0_vs_1"}, got[0])
	require.Len(t, got, len(fit))
	for k, r := range fit[1:] {
		assert.Equal(t, r[2], got[1+k][1], "row %d class", k)
		assert.Equal(t, r[3], got[1+k][2], "row %d decision", k)
	}
}

// twoMoonsRows is svm.TwoMoons as CSV rows, every float in its shortest
// exact form.
func twoMoonsRows(t *testing.T, n int, seed uint64) []string {
	x, _, err := svm.TwoMoons(n, 0.15, seed)
	require.NoError(t, err)
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.FormatFloat(x.At(i, 0), 'g', -1, 64) + "," + strconv.FormatFloat(x.At(i, 1), 'g', -1, 64)
	}
	return out
}
