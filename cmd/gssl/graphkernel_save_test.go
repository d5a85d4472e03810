package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// writeTUSubset writes the graphs idx of ds (in that order) as a TU folder
// named name, with their node and graph labels.
func writeTUSubset(t *testing.T, ds *loaders.TUDataset, idx []int, dir, name string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var a, ind, gl, nl strings.Builder
	first := 1
	for k, g := range idx {
		tg := ds.Graphs[g]
		n := tg.Graph.Nodes()
		for u := 0; u < n; u++ {
			fmt.Fprintln(&ind, k+1)
			if tg.NodeLabels != nil {
				fmt.Fprintln(&nl, tg.NodeLabels[u])
			}
			cols, _ := tg.Graph.Row(u)
			for _, v := range cols {
				fmt.Fprintf(&a, "%d, %d\n", first+u, first+int(v))
			}
		}
		fmt.Fprintln(&gl, tg.Label)
		first += n
	}
	files := map[string]string{"A": a.String(), "graph_indicator": ind.String(), "graph_labels": gl.String()}
	if nl.Len() > 0 {
		files["node_labels"] = nl.String()
	}
	for suffix, s := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_"+suffix+".txt"), []byte(s), 0o644))
	}
}

// TestGraphKernelSavedModelMatchesOutOfFold is the independent path: for
// every outer fold of gssl graphkernel's own evaluation on MUTAG (one
// height, one C, the folds read from a file), a model saved by gssl
// graphkernel --save from the other folds' graphs alone, then read by
// gssl predict --graphs on the fold's graphs, predicts each of them as the
// evaluation's --out says it did.
func TestGraphKernelSavedModelMatchesOutOfFold(t *testing.T) {
	data := sharedtest.Data(t, "MUTAG")
	ds, err := loaders.LoadTU(data)
	require.NoError(t, err)
	dir := t.TempDir()
	const folds = 4
	fold := make([]string, len(ds.Graphs))
	for i := range fold {
		fold[i] = strconv.Itoa((i * 7) % folds)
	}
	foldFile := filepath.Join(dir, "folds.txt")
	require.NoError(t, os.WriteFile(foldFile, []byte(strings.Join(fold, " ")+"\n"), 0o644))
	oof := filepath.Join(dir, "oof.csv")
	common := []string{"--h", "3", "--select-h=false", "--grid", "10", "--normalize"}
	_, stderr, err := runRoot(t, append([]string{"graphkernel", "--data", data, "--fold-file", foldFile, "--seeds", "1", "--out", oof}, common...)...)
	require.NoError(t, err, stderr)
	rows := readCSV(t, oof)
	require.Equal(t, []string{"graph", "label", "fold", "prediction"}, rows[0])
	rows = rows[1:]
	require.Len(t, rows, len(ds.Graphs))

	checked, wrong := 0, 0
	for f := 0; f < folds; f++ {
		var train, test []int
		for i := range ds.Graphs {
			if fold[i] == strconv.Itoa(f) {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		trainDir, testDir := filepath.Join(dir, fmt.Sprintf("train%d", f)), filepath.Join(dir, fmt.Sprintf("test%d", f))
		writeTUSubset(t, ds, train, trainDir, "MUTAGTRAIN")
		writeTUSubset(t, ds, test, testDir, "MUTAGTEST")
		model := filepath.Join(dir, fmt.Sprintf("m%d.gssl", f))
		_, stderr, err := runRoot(t, append([]string{"graphkernel", "--data", trainDir, "--seeds", "0", "--save", model}, common...)...)
		require.NoError(t, err, stderr)
		pred := filepath.Join(dir, fmt.Sprintf("p%d.csv", f))
		_, stderr, err = runRoot(t, "predict", "--model", model, "--graphs", testDir, "--out", pred)
		require.NoError(t, err, stderr)
		got := readCSV(t, pred)
		require.Equal(t, []string{"graph", "label", "prediction", "decision_-1_vs_1"}, got[0])
		got = got[1:]
		require.Len(t, got, len(test))
		for k, i := range test {
			want := rows[i]
			require.Equal(t, strconv.Itoa(i+1), want[0])
			require.Equal(t, strconv.Itoa(f), want[2], "graph %d's fold", i+1)
			assert.Equal(t, strconv.Itoa(k+1), got[k][0])
			assert.Equal(t, want[1], got[k][1], "graph %d's class", i+1)
			assert.Equal(t, want[3], got[k][2], "graph %d (fold %d): the saved model's prediction against the evaluation's", i+1, f)
			checked++
			if want[3] != want[1] {
				wrong++
			}
		}
	}
	assert.Equal(t, len(ds.Graphs), checked)
	// The comparison means something only if the classifier errs somewhere
	// (MUTAG's accuracy is 82–90 %).
	assert.Greater(t, wrong, 0)
	assert.Less(t, wrong, len(ds.Graphs)/4)
}

// TestGraphKernelSaveChoosesAndServes: on a toy set, with heights and C to
// choose from, --save refits the candidate protocol.GramEvaluation.Select
// picks on all graphs; gssl predict without --graphs answers for the
// training graphs, and the file opens as a model of graphs.
func TestGraphKernelSaveChoosesAndServes(t *testing.T) {
	data := writeTU(t, 8)
	dir := t.TempDir()
	model := filepath.Join(dir, "wl.gssl")
	stdout, stderr, err := runRoot(t, "--json", "graphkernel", "--data", data, "--h", "3", "--grid", "0.01,1,100", "--folds", "2", "--inner-folds", "2",
		"--seeds", "1", "--seed", "4", "--save", model)
	require.NoError(t, err, stderr)
	obj := decodeOne(t, []byte(stdout))
	assert.Equal(t, model, obj["saved"])
	cfg := obj["saved_config"].(map[string]any)
	assert.Equal(t, graphkernels.WLClassifierKind, cfg["kind"])
	assert.Equal(t, 16.0, cfg["graphs"])
	assert.Contains(t, cfg["chosen"], "on 2 inner folds of all graphs (seed 4)")

	// The same choice, made here from the candidates the command builds.
	ds, err := loaders.LoadTU(data)
	require.NoError(t, err)
	var graphs []graphkernels.Graph
	for _, g := range ds.Graphs {
		graphs = append(graphs, graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels})
	}
	spec := protocol.GraphKernelSpec{Name: protocol.KernelWL, H: 3, Normalize: true}
	grams, heights, err := spec.CandidateGrams(t.Context(), graphs, nil, true)
	require.NoError(t, err)
	grid := []float64{0.01, 1, 100}
	c, err := protocol.GramEvaluation{Grams: grams, Grid: grid, InnerFolds: 2, Seed: 4}.Select(t.Context(), ds.Classes())
	require.NoError(t, err)
	assert.Equal(t, float64(heights[c/3]), cfg["h"])
	assert.Equal(t, grid[c%3], cfg["c"])

	s, err := savedmodel.Open(model)
	require.NoError(t, err)
	meta := s.Metadata()
	assert.Equal(t, serve.InputGraphs, meta.Input)
	assert.Equal(t, []string{"-1", "1"}, meta.Classes)
	var hyper struct {
		H         int     `json:"h"`
		C         float64 `json:"c"`
		Normalize bool    `json:"normalize"`
	}
	require.NoError(t, json.Unmarshal(meta.Hyperparameters, &hyper))
	assert.Equal(t, []any{cfg["h"], cfg["c"], true}, []any{float64(hyper.H), hyper.C, hyper.Normalize})

	out := filepath.Join(dir, "fitted.jsonl")
	_, stderr, err = runRoot(t, "predict", "--model", model, "--out", out)
	require.NoError(t, err, stderr)
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	require.Len(t, lines, 16)
	first := decodeOne(t, []byte(lines[0]))
	assert.Equal(t, 1.0, first["graph"], "graphs numbered as in the TU files")
	assert.Equal(t, "-1", first["prediction"], "a cycle, class −1, on its training graph")
	assert.Contains(t, first, "decision_-1_vs_1")

	// --json with --graphs: the predictions inside the object, numbered as
	// the folder's graphs, with the class names and decision values.
	stdout, stderr, err = runRoot(t, "--json", "predict", "--model", model, "--graphs", data)
	require.NoError(t, err, stderr)
	obj = decodeOne(t, []byte(stdout))
	assert.Equal(t, "graphs", obj["input"])
	assert.Equal(t, 16.0, obj["predicted"])
	preds := obj["predictions"].([]any)
	require.Len(t, preds, 16)
	p0 := preds[0].(map[string]any)
	assert.Equal(t, "1", p0["id"])
	assert.Equal(t, "-1", p0["label"])
	assert.Len(t, p0["scores"], 1)

	// vh saves as WL of height 0.
	vh := filepath.Join(dir, "vh.gssl")
	_, stderr, err = runRoot(t, "--json", "graphkernel", "--data", data, "--kernel", "vh", "--grid", "1", "--seeds", "0", "--save", vh)
	require.NoError(t, err, stderr)
	s, err = savedmodel.Open(vh)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(s.Metadata().Hyperparameters, &hyper))
	assert.Equal(t, 0, hyper.H)
}

// TestGraphKernelSaveRefusals: kernels and machines that cannot be saved,
// and inputs a model does not take, are errors naming the flag.
func TestGraphKernelSaveRefusals(t *testing.T) {
	data := writeTU(t, 4)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--kernel", "sp"}, "--save with --kernel sp: only the wl and vh kernels can be saved"},
		{[]string{"--kernel", "rw"}, "--save with --kernel rw: only the wl and vh kernels can be saved"},
		{[]string{"--classifier", "ridge"}, "--save with --classifier ridge: only --classifier svm can be saved"},
	} {
		args := append([]string{"graphkernel", "--data", data, "--seeds", "0", "--save", filepath.Join(dir, "x.gssl")}, tc.args...)
		_, _, err := runRoot(t, args...)
		require.Error(t, err, tc.args)
		assert.Contains(t, err.Error(), tc.msg)
	}
	_, err := os.Stat(filepath.Join(dir, "x.gssl"))
	assert.True(t, os.IsNotExist(err), "nothing saved")

	model := filepath.Join(dir, "wl.gssl")
	_, stderr, err := runRoot(t, "graphkernel", "--data", data, "--h", "2", "--select-h=false", "--grid", "1", "--seeds", "0", "--save", model)
	require.NoError(t, err, stderr)
	_, _, err = runRoot(t, "predict", "--model", model, "--edges", "../../testdata/serve/edges.csv")
	assert.ErrorContains(t, err, "a graphkernels.WLClassifier model classifies whole graphs, not nodes: give --graphs DIR")
	_, _, err = runRoot(t, "predict", "--model", model, "--graphs", data, "--features", "x.csv")
	assert.ErrorContains(t, err, "--graphs excludes --edges and --features")
	_, _, err = runRoot(t, "predict", "--model", model, "--graphs", dir)
	assert.ErrorContains(t, err, "predict: --graphs: loaders:")
	unlabelled := t.TempDir()
	for _, suffix := range []string{"A", "graph_indicator", "node_labels"} {
		b, err := os.ReadFile(filepath.Join(data, "TOY_"+suffix+".txt"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(unlabelled, "TOY_"+suffix+".txt"), b, 0o644))
	}
	_, _, err = runRoot(t, "predict", "--model", model, "--graphs", unlabelled)
	assert.ErrorContains(t, err, "no TOY_graph_labels.txt: the TU loader needs one graph label per graph")

	lp := filepath.Join(dir, "lp.gssl")
	_, stderr, err = runRoot(t, "labelprop", "--edges", "../../testdata/serve/edges.csv", "--labels", "../../testdata/serve/labels.csv", "--save", lp)
	require.NoError(t, err, stderr)
	_, _, err = runRoot(t, "predict", "--model", lp, "--graphs", data)
	assert.ErrorContains(t, err, "a labelprop.Spreading model does not classify graphs")
}
