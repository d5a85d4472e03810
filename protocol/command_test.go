package protocol

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/stkr"
)

// TestNodeInputLoad: nothing named is the embedded Cora; an edge table is
// read with its labels and reports, a file given as Data is read as Edges
// (with a notice, and in says so); the settings are checked before any
// file is read, each error naming its flag; FileOf names the flag of a
// file a reader's error is about.
func TestNodeInputLoad(t *testing.T) {
	in := NodeInput{}
	ds, err := in.Load(context.Background(), nil, nil)
	require.NoError(t, err)
	cora, err := datasets.Cora()
	require.NoError(t, err)
	assert.Equal(t, cora.Graph.Edges(), ds.Graph.Edges())
	assert.Equal(t, "embedded:"+datasets.CoraName, in.Name())

	dir := t.TempDir()
	edges, labels := filepath.Join(dir, "e.csv"), filepath.Join(dir, "l.csv")
	require.NoError(t, os.WriteFile(edges, []byte("source,target\na,b\nb,c\n"), 0o644))
	require.NoError(t, os.WriteFile(labels, []byte("id,label\na,x\nc,y\n"), 0o644))
	var notices []string
	var reports int
	in = NodeInput{Data: edges, Labels: labels}
	ds, err = in.Load(context.Background(), func(s string) { notices = append(notices, s) }, func(r []loaders.TableReport) { reports += len(r) })
	require.NoError(t, err)
	assert.Equal(t, []string{"gssl: --data " + edges + " is a file, not a folder: reading it as --edges"}, notices)
	assert.Equal(t, edges, in.Edges)
	assert.Equal(t, "", in.Data)
	assert.Equal(t, 2, reports, "one report per file read")
	assert.Equal(t, 3, ds.Graph.Nodes())
	assert.Equal(t, 2, ds.Graph.Edges())
	assert.Len(t, ds.Labelled(), 2)
	require.NoError(t, NeedLabels(ds))

	for _, tc := range []struct {
		in   NodeInput
		want string
	}{
		{NodeInput{Data: dir, Edges: edges}, "--data and --edges exclude each other"},
		{NodeInput{Edges: edges, Header: "maybe"}, `--header "maybe" is invalid`},
		{NodeInput{Edges: edges, Directed: "weird"}, `--directed "weird" is invalid`},
		{NodeInput{Edges: edges, Nodes: -1}, "--nodes -1 is invalid"},
		{NodeInput{Labels: labels}, "--labels and --targets need a graph"},
		{NodeInput{Edges: edges, FeatureIDs: labels}, "--feature-ids names the rows of --features"},
	} {
		_, err := tc.in.Load(context.Background(), nil, nil)
		assert.ErrorContains(t, err, tc.want)
	}
	in = NodeInput{Edges: filepath.Join(dir, "missing.csv"), Labels: labels}
	_, err = in.Load(context.Background(), nil, nil)
	flag, path := in.FileOf(err)
	assert.Equal(t, []string{"edges", in.Edges}, []string{flag, path})
}

// TestSTKRRunWithoutSplit: with the split none, STKRRun is RunSTKRCV on
// every labelled node with the folds of the first seed, and its report is
// that run's; a split refuses Out and Save, and no split refuses several
// seeds.
func TestSTKRRunWithoutSplit(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	grid := STKRGrid{Base: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}}, Etas: []float64{0.9}, Betas: []float64{1, 10}, Iterations: []int{0}}
	none, err := eval.ParseSplitSpec("none")
	require.NoError(t, err)
	run := STKRRun{Data: ds, Source: "cora", Split: none, Grid: grid, Setting: Transductive, Folds: 3, Seeds: []uint64{5}}
	used, lcc, err := run.Used()
	require.NoError(t, err)
	got, err := run.Run(context.Background(), used, lcc)
	require.NoError(t, err)
	task := Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	want, err := RunSTKRCV(context.Background(), task, eval.CV{Folds: 3, Seed: 5, Order: ds.IDOrder(ds.Labelled())}, grid, nil)
	require.NoError(t, err)
	require.NotNil(t, got.CV)
	assert.Equal(t, want.Accuracy, got.CV.Accuracy)
	assert.Equal(t, want.Labels, got.CV.Labels)
	wantReport, gotReport := want.Report(task, 5), got.Report
	wantReport.FitSeconds, gotReport.FitSeconds = 0, 0
	assert.Equal(t, wantReport, gotReport)

	run.Seeds = []uint64{1, 2}
	_, err = run.Run(context.Background(), used, lcc)
	assert.ErrorContains(t, err, "--seeds and --test-chunks need a split")
	planetoid, err := eval.ParseSplitSpec("planetoid")
	require.NoError(t, err)
	run.Split, run.Seeds, run.Out = planetoid, []uint64{1}, true
	_, err = run.Run(context.Background(), used, lcc)
	assert.ErrorContains(t, err, "--out writes the predictions of the protocol without a split")
}
