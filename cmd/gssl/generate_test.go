package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/generate"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/loaders"
)

func defaultGenerateOptions() generateOptions {
	return generateOptions{Spec: generate.Spec{Model: "sbm", Nodes: 400, Classes: 4, Degree: 6, Exponent: 2.5, Mixing: 0.2,
		Scale: 8, EdgeFactor: 8, ABCD: []float64{0.57, 0.19, 0.19, 0.05}, Seed: 1, Format: "txt",
		PerClass: 5, Val: 50, Test: 100, TopicProb: 0.5}}
}

func TestGenerateFolderLoads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sbm")
	opts := defaultGenerateOptions()
	opts.Out, opts.Format, opts.Features, opts.JSON = dir, "folder", 40, true
	var out, errw bytes.Buffer
	require.NoError(t, runGenerate(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 400.0, obj["nodes"])
	assert.Equal(t, 1200.0, obj["edges"])
	assert.Equal(t, 4.0, obj["classes"])
	assert.Equal(t, []any{100.0, 100.0, 100.0, 100.0}, obj["class_sizes"])
	assert.Equal(t, 20.0, obj["train"])
	assert.Equal(t, 50.0, obj["val"])
	assert.Equal(t, 100.0, obj["test"])

	ds, err := loaders.LoadNodeDataset(dir)
	require.NoError(t, err)
	assert.Equal(t, 400, ds.Graph.Nodes())
	assert.Equal(t, 4, ds.Classes)
	assert.Len(t, ds.Split.Train, 20)
	require.NotNil(t, ds.Features)
	assert.Equal(t, 40, ds.Features.Cols)

	// The commands read it: info sees the same counts.
	out.Reset()
	require.NoError(t, runInfo(context.Background(), infoOptions{Path: dir, JSON: true}, &out, &errw))
	info := decodeOne(t, out.Bytes())
	assert.Equal(t, 400.0, info["nodes"])
	assert.Equal(t, 20.0, info["train"])
}

func TestGenerateFormats(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, tc := range []struct {
		format string
		gzip   bool
		files  []string
	}{
		{"txt", false, []string{"p.edges.txt", "p.labels.txt", "p.split.txt", "p.features.txt.gz"}},
		{"csv", true, []string{"p.edges.csv.gz", "p.labels.csv", "p.split.txt", "p.features.txt.gz"}},
		{"gsg", false, []string{"p.gsg", "p.labels.csv", "p.split.txt", "p.features.txt.gz"}},
	} {
		sub := filepath.Join(dir, tc.format)
		require.NoError(t, os.Mkdir(sub, 0o755))
		opts := defaultGenerateOptions()
		opts.Out, opts.Format, opts.Gzip, opts.Features = filepath.Join(sub, "p"), tc.format, tc.gzip, 30
		var out bytes.Buffer
		require.NoError(t, runGenerate(ctx, opts, &out, &out))
		for _, f := range tc.files {
			assert.FileExists(t, filepath.Join(sub, f), "format %s", tc.format)
			assert.Contains(t, out.String(), f)
		}
		es, err := os.ReadDir(sub)
		require.NoError(t, err)
		assert.Len(t, es, len(tc.files), "no other (temporary) files")
	}
	b, err := os.ReadFile(filepath.Join(dir, "txt", "p.edges.txt"))
	require.NoError(t, err)
	assert.Equal(t, 1200, strings.Count(string(b), "\n"))
	lb, err := os.ReadFile(filepath.Join(dir, "csv", "p.labels.csv"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(lb), "id,label\n"))

	// The .gsg holds the text edge list's graph (repeats merged, self
	// loops dropped).
	want, err := loaders.ReadEdgeList(filepath.Join(dir, "txt", "p.edges.txt"), 400, loaders.NodeGraphOptions())
	require.NoError(t, err)
	f, err := graphfile.Open(filepath.Join(dir, "gsg", "p.gsg"))
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, want.NNZ(), f.Graph.NNZ())
	for i := 0; i < 400; i++ {
		wc, _ := want.Row(i)
		gc, _ := f.Graph.Row(i)
		require.Equal(t, wc, gc)
	}
}

func TestGenerateRMATAndDeterminism(t *testing.T) {
	dir := t.TempDir()
	opts := defaultGenerateOptions()
	opts.Model, opts.JSON = "rmat", true
	var outs [][]byte
	for _, name := range []string{"a", "b"} {
		opts.Out = filepath.Join(dir, name)
		var out bytes.Buffer
		require.NoError(t, runGenerate(context.Background(), opts, &out, &out))
		obj := decodeOne(t, out.Bytes())
		assert.Equal(t, 256.0, obj["nodes"])
		assert.Equal(t, 2048.0, obj["edges"])
		assert.Nil(t, obj["classes"])
		b, err := os.ReadFile(filepath.Join(dir, name+".edges.txt"))
		require.NoError(t, err)
		outs = append(outs, b)
	}
	assert.Equal(t, outs[0], outs[1], "the same seed, the same file")
	_, err := os.Stat(filepath.Join(dir, "a.labels.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist, "rmat writes no labels")
}

func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		modify func(o *generateOptions)
		want   string
	}{
		{func(o *generateOptions) { o.Model = "er" }, `unknown model "er"`},
		{func(o *generateOptions) { o.Format = "xml" }, `--format "xml"`},
		{func(o *generateOptions) { o.Out = "" }, "--out is required"},
		{func(o *generateOptions) { o.Model, o.Features = "rmat", 5 }, "--feature-columns is for sbm"},
		{func(o *generateOptions) { o.Model, o.ABCD = "rmat", []float64{0.5, 0.5} }, "4 probabilities"},
		{func(o *generateOptions) { o.Mixing = 2 }, "generate: --mixing 2 is invalid"},
		{func(o *generateOptions) { o.Sizes = []int{100, 100} }, "sum to 200"},
		{func(o *generateOptions) { o.PerClass = 200 }, "fewer than perClass=200"},
		// Refused before anything is allocated: 2·10⁹ nodes of tables.
		{func(o *generateOptions) { o.Nodes, o.MaxMemory = 2_000_000_000, "1GB" }, "above the memory limit --max-memory 1.0GB; give fewer --nodes"},
		{func(o *generateOptions) { o.Format, o.MaxMemory = "gsg", "20KB" }, "use --format txt or csv"},
		{func(o *generateOptions) { o.Model, o.Scale, o.MaxMemory = "rmat", 30, "1GB" }, "give a smaller --scale"},
		{func(o *generateOptions) { o.Features, o.MaxMemory = 1_000_000_000, "1GB" }, "give fewer --feature-columns"},
		{func(o *generateOptions) { o.Degree = 1e9 }, "--degree 1e+09 is invalid: it must be below --nodes 400"},
		{func(o *generateOptions) { o.Model, o.Scale, o.EdgeFactor = "rmat", 10, 1_000_000_000 }, "--edge-factor 1000000000 is invalid"},
	} {
		opts := defaultGenerateOptions()
		opts.Out = filepath.Join(dir, "x")
		tc.modify(&opts)
		var out bytes.Buffer
		err := runGenerate(context.Background(), opts, &out, &out)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestGenerateCommandFlags(t *testing.T) {
	dir := t.TempDir()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"generate", "sbm", "--nodes", "200", "--classes", "2", "--exponent", "inf", "--val", "10", "--test", "10", "--out", filepath.Join(dir, "g"), "--json"})
	require.NoError(t, root.Execute())
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 1000.0, obj["edges"])
	assert.Equal(t, 10.0, obj["val"])
}
