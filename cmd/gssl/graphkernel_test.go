package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
)

// writeTU writes a small TU data set: graphs of class 0 are cycles with
// labels 0, class 1 are paths whose ends have label 1; count of each.
func writeTU(t *testing.T, count int) string {
	dir := t.TempDir()
	var a, ind, gl, nl strings.Builder
	node := 1
	gid := 1
	for k := 0; k < 2*count; k++ {
		class := k % 2
		n := 5 + k%4
		for i := 0; i < n; i++ {
			fmt.Fprintln(&ind, gid)
			lab := 0
			if class == 1 && (i == 0 || i == n-1) {
				lab = 1
			}
			fmt.Fprintln(&nl, lab)
		}
		for i := 0; i < n; i++ {
			j := i + 1
			if j == n {
				if class == 1 {
					break
				}
				j = 0
			}
			fmt.Fprintf(&a, "%d, %d\n%d, %d\n", node+i, node+j, node+j, node+i)
		}
		fmt.Fprintln(&gl, 2*class-1)
		node += n
		gid++
	}
	for name, s := range map[string]string{"A": a.String(), "graph_indicator": ind.String(), "graph_labels": gl.String(), "node_labels": nl.String()} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "TOY_"+name+".txt"), []byte(s), 0o644))
	}
	return dir
}

func TestGraphKernelJSONOnToyData(t *testing.T) {
	dir := writeTU(t, 12)
	for _, kern := range []string{"wl", "sp", "vh", "rw"} {
		var out, errw bytes.Buffer
		opts := graphKernelOptions{Data: dir, Kernel: kern, H: 2, Lambda: 0.05, Normalize: true, Classifier: "svm",
			Grid: defaultCGrid, CV: 4, Inner: 2, Repeats: 2, GramRuns: 1, JSON: true}
		require.NoError(t, runGraphKernel(context.Background(), opts, &out, &errw), kern)
		obj := decodeOne(t, out.Bytes())
		for _, key := range []string{"accuracy_mean", "accuracy_std", "gram_seconds", "cv_seconds", "dataset", "graphs"} {
			assert.Contains(t, obj, key, kern)
		}
		assert.Equal(t, "TOY", obj["dataset"])
		assert.Equal(t, 24.0, obj["graphs"])
		acc := obj["accuracy_mean"].(float64)
		assert.GreaterOrEqual(t, acc, 0.0)
		assert.LessOrEqual(t, acc, 1.0)
		if kern != "vh" { // cycles and paths differ in structure, not only in label counts
			assert.Equal(t, 1.0, acc, kern)
		}
		assert.Greater(t, obj["gram_seconds"].(float64), 0.0)
	}
	// The Gram matrix written to a file reads back as the same numbers.
	out := filepath.Join(t.TempDir(), "K.txt")
	var sink bytes.Buffer
	opts := graphKernelOptions{Data: dir, Kernel: "wl", H: 2, Grid: defaultCGrid, Classifier: "svm", CV: 2, Inner: 2, GramRuns: 1, GramOut: out, JSON: true}
	require.NoError(t, runGraphKernel(context.Background(), opts, &sink, &sink))
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	require.Len(t, lines, 24)
	// Graph 0 is a 5-cycle labelled 0: WL h = 2 gives 5 nodes × 3 rounds, all
	// the same label per round: k(G0, G0) = 3 · 5².
	assert.Equal(t, "75", strings.Fields(lines[0])[0])

	// The readable summary and kernel ridge.
	var summary bytes.Buffer
	opts = graphKernelOptions{Data: dir, Kernel: "wl", H: 3, SelectH: true, Normalize: true, Classifier: "ridge",
		Grid: []float64{0.1, 1}, CV: 3, Inner: 2, Repeats: 1, GramRuns: 3}
	require.NoError(t, runGraphKernel(context.Background(), opts, &summary, &summary))
	assert.Contains(t, summary.String(), "accuracy     100.00")
	assert.Contains(t, summary.String(), "heights      1..3 chosen")
}

func TestGraphKernelMUTAGWithSavedFolds(t *testing.T) {
	data := sharedtest.Data(t, "MUTAG")
	folds := sharedtest.Path(t, "bench/splits/MUTAG/wl_outer10fold.txt")
	var out, errw bytes.Buffer
	opts := graphKernelOptions{Data: data, Kernel: "wl", H: 3, Normalize: true, Classifier: "svm",
		Grid: defaultCGrid, CV: 10, Inner: 3, Repeats: 1, Folds: folds, GramRuns: 1, JSON: true}
	require.NoError(t, runGraphKernel(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 188.0, obj["graphs"])
	assert.Equal(t, 10.0, obj["outer_folds"])
	// Published WL accuracies on MUTAG are 82–90 %; one repeat with h = 3
	// must land in a band around them.
	acc := obj["accuracy_mean"].(float64)
	assert.Greater(t, acc, 0.80)
	assert.Less(t, acc, 0.95)
}

func TestGraphKernelBadInput(t *testing.T) {
	dir := writeTU(t, 4)
	base := graphKernelOptions{Data: dir, Kernel: "wl", H: 2, Normalize: true, Classifier: "svm", Grid: defaultCGrid, CV: 2, Inner: 2, Repeats: 1, GramRuns: 1}
	bad := filepath.Join(t.TempDir(), "folds.txt")
	require.NoError(t, os.WriteFile(bad, []byte("# comment\n0 1 0\n"), 0o644))
	for _, c := range []struct {
		change func(*graphKernelOptions)
		msg    string
	}{
		{func(o *graphKernelOptions) { o.Kernel = "xx" }, `--kernel "xx" is invalid`},
		{func(o *graphKernelOptions) { o.H = 0 }, "--h 0 is invalid"},
		{func(o *graphKernelOptions) { o.Kernel = "sp"; o.SelectH = true }, "--select-h needs --kernel wl"},
		{func(o *graphKernelOptions) { o.Classifier = "tree" }, `--classifier "tree" is invalid`},
		{func(o *graphKernelOptions) { o.Grid = []float64{1, -1} }, "--grid value -1 is invalid"},
		{func(o *graphKernelOptions) { o.CV = 1 }, "--folds 1 is invalid"},
		{func(o *graphKernelOptions) { o.Inner = 0 }, "--inner-folds 0 is invalid"},
		{func(o *graphKernelOptions) { o.Repeats = -1 }, "--seeds -1 is invalid"},
		{func(o *graphKernelOptions) { o.Repeats = 1_000_000_000 }, "--seeds 1000000000 is invalid"},
		{func(o *graphKernelOptions) { o.GramRuns = 0 }, "--gram-runs 0 is invalid"},
		{func(o *graphKernelOptions) { o.Data = filepath.Join(dir, "missing") }, "missing"},
		{func(o *graphKernelOptions) { o.Folds = bad }, "folds.txt:2: 3 fold ids, want 8"},
		{func(o *graphKernelOptions) { o.Kernel = "rw"; o.Lambda = 0.5 }, "Lambda=0.5 is invalid: it must be below 1/ρ(A×)"},
	} {
		o := base
		c.change(&o)
		var out bytes.Buffer
		err := runGraphKernel(context.Background(), o, &out, &out)
		require.Error(t, err, c.msg)
		assert.Contains(t, err.Error(), c.msg)
	}
}

// TestGraphKernelOutAndFoldFile: --out has a row per graph whose
// out-of-fold predictions score what the nested CV reports for a fixed
// candidate; a fold file with a fold id of 10⁹ is refused (#16); the old
// --folds FILE and --lambda still work with a notice.
func TestGraphKernelOutAndFoldFile(t *testing.T) {
	dir := writeTU(t, 12)
	out := filepath.Join(t.TempDir(), "pred.csv")
	var stdout, errw bytes.Buffer
	opts := graphKernelOptions{Data: dir, Kernel: "wl", H: 2, Normalize: true, Classifier: "svm", Grid: []float64{1},
		CV: 4, Inner: 2, Repeats: 1, GramRuns: 1, Out: out, JSON: true}
	require.NoError(t, runGraphKernel(context.Background(), opts, &stdout, &errw))
	obj := decodeOne(t, stdout.Bytes())
	rows := readCSVRows(t, out)
	require.Len(t, rows, 24)
	right := 0
	for _, r := range rows {
		if r["label"] == r["prediction"] {
			right++
		}
	}
	// One candidate: the out-of-fold accuracy is the mean over equal folds.
	assert.InDelta(t, obj["accuracy_mean"], float64(right)/24, 1e-12)
	assert.Equal(t, "1", rows[0]["graph"])
	assert.Equal(t, "-1", rows[0]["label"], "class names as in the labels file")

	folds := filepath.Join(t.TempDir(), "folds.txt")
	ids := strings.TrimSpace(strings.Repeat("0 0 1 1 ", 6))
	require.NoError(t, os.WriteFile(folds, []byte(strings.Replace(ids, "1", "1000000000", 1)+"\n"), 0o644))
	opts.Folds, opts.Out = folds, ""
	require.ErrorContains(t, runGraphKernel(context.Background(), opts, &stdout, &errw), `fold id "1000000000" of item 2 is invalid`)

	require.NoError(t, os.WriteFile(folds, []byte(ids+"\n"), 0o644))
	root := newRoot()
	stdout.Reset()
	errw.Reset()
	root.SetOut(&stdout)
	root.SetErr(&errw)
	root.SetArgs([]string{"graphkernel", "--json", "--data", dir, "--fold-file", folds, "--repeats", "1", "--inner", "2", "--h", "2", "--lambda", "0.01"})
	require.NoError(t, root.Execute())
	assert.Contains(t, errw.String(), "--repeats is deprecated; use --seeds")
	assert.Equal(t, 2.0, decodeOne(t, stdout.Bytes())["outer_folds"])

	// --folds is a number of folds, as in every command; a file there is
	// an error pointing to --fold-file.
	root = newRoot()
	root.SetArgs([]string{"graphkernel", "--data", dir, "--folds", folds})
	require.ErrorContains(t, root.Execute(), "is not a number of folds (a file of fold assignments is --fold-file FILE)")

	root = newRoot()
	root.SetOut(&stdout)
	root.SetErr(&errw)
	root.SetArgs([]string{"graphkernel"})
	require.ErrorContains(t, root.Execute(), "no data: give --data DIR")
}
