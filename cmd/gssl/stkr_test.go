package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"github.com/gssl/gssl/protocol"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

func TestSTKRJSONOnCora(t *testing.T) {
	for _, setting := range []string{"transductive", "inductive", "inductive-strict"} {
		t.Run(setting, func(t *testing.T) {
			var out, errw bytes.Buffer
			opts := stkrOptions{In: nodeInput{Data: "../../testdata/cora"}, Seeds: 2, Folds: 5, Val: -1, Test: -1, JSON: true, STKRGridSpec: protocol.STKRGridSpec{Transform: "inverse-laplacian", Eta: "0.9", Ridge: "auto", Solver: "auto"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: setting, PTest: 0.01}}
			require.NoError(t, runSTKR(context.Background(), opts, &out, &errw))
			obj := decodeOne(t, out.Bytes())
			for _, key := range []string{"test_accuracy_mean", "test_accuracy_std", "iterations", "seconds", "matvecs", "eta", "beta", "fit_seconds"} {
				assert.Contains(t, obj, key)
			}
			acc := obj["test_accuracy_mean"].(float64)
			// 27 test nodes (1 % of 2708) per seed; anything below 40 % would
			// mean the propagation is broken (chance is 1/7).
			assert.Greater(t, acc, 0.4)
			assert.LessOrEqual(t, acc, 1.0)
			assert.Equal(t, 27.0, obj["test_nodes"])
			assert.Len(t, obj["eta"], 2)
			assert.Len(t, obj["beta"], 2)
			assert.Positive(t, obj["matvecs"].(float64))
			assert.Equal(t, setting, obj["setting"])
			switch setting {
			case "inductive":
				// test (27) hidden at the refit that predicts it
				assert.Equal(t, 2708.0-27, obj["visible_nodes"])
			case "inductive-strict":
				// val (500) and test (27) hidden at every fit
				assert.Equal(t, 2708.0-527, obj["visible_nodes"])
			}
		})
	}
}

// TestSTKRIterations: --iterations N stops every fit after N Richardson
// steps (N per class column: 7·N solver iterations on Cora), and
// --iterations auto reports the count chosen on val from the grid.
func TestSTKRIterations(t *testing.T) {
	base := stkrOptions{In: nodeInput{Data: "../../testdata/cora"}, Seeds: 1, Folds: 5, Val: -1, Test: -1, JSON: true, STKRGridSpec: protocol.STKRGridSpec{Transform: "inverse-laplacian", Eta: "0.9", Ridge: "10", Solver: "auto"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: "transductive", PTest: 0.01}}
	t.Run("fixed", func(t *testing.T) {
		o := base
		o.MaxIter = "4"
		var out, errw bytes.Buffer
		require.NoError(t, runSTKR(context.Background(), o, &out, &errw))
		obj := decodeOne(t, out.Bytes())
		assert.Equal(t, []any{4.0}, obj["chosen_iterations"])
		assert.Equal(t, 7*4.0, obj["iterations"])
	})
	t.Run("auto", func(t *testing.T) {
		o := base
		o.MaxIter = "auto"
		var out, errw bytes.Buffer
		require.NoError(t, runSTKR(context.Background(), o, &out, &errw))
		obj := decodeOne(t, out.Bytes())
		chosen := obj["chosen_iterations"].([]any)
		require.Len(t, chosen, 1)
		assert.Contains(t, []float64{0, 1, 2, 4, 8, 16, 32, 64, 128, 256}, chosen[0])
		assert.Equal(t, 10.0, obj["candidates"])
	})
}

func TestSTKRBadInput(t *testing.T) {
	base := stkrOptions{In: nodeInput{Data: "../../testdata/cora"}, Seeds: 1, Folds: 5, Val: -1, Test: -1, STKRGridSpec: protocol.STKRGridSpec{Transform: "inverse-laplacian", Eta: "auto", Ridge: "auto", Solver: "auto"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: "transductive", PTest: 0.01}}
	cases := []struct {
		name string
		edit func(o *stkrOptions)
		want string
	}{
		{"eta at 1", func(o *stkrOptions) { o.Eta = "1" }, `--eta "1" is invalid: it must be a number inside the open interval`},
		{"eta word", func(o *stkrOptions) { o.Eta = "big" }, `--eta "big" is invalid`},
		{"beta zero", func(o *stkrOptions) { o.Ridge = "0" }, `--ridge "0" is invalid: it must be a finite number > 0, or auto`},
		{"transform", func(o *stkrOptions) { o.Transform = "heat" }, `--transform "heat" is invalid: want inverse-laplacian, poly:P, krr or topd:D`},
		{"eta with poly", func(o *stkrOptions) { o.Transform, o.Eta = "poly:8", "0.5" }, `--eta "0.5" is invalid: it applies only to the inverse-laplacian transform`},
		{"setting", func(o *stkrOptions) { o.Setting = "online" }, `--setting "online" is invalid: want transductive`},
		{"solver", func(o *stkrOptions) { o.Solver = "lu" }, `--solver "lu" is invalid: want one of auto`},
		{"seeds", func(o *stkrOptions) { o.Seeds = 0 }, "--seeds 0 is invalid"},
		{"seeds 10^9", func(o *stkrOptions) { o.Seeds = 1_000_000_000 }, "--seeds 1000000000 is invalid: it must be in [1, 10000]"},
		{"p-test", func(o *stkrOptions) { o.PTest = 1 }, "--p-test 1 is invalid: it must be in [0, 1)"},
		{"d larger than N", func(o *stkrOptions) { o.Transform, o.Ridge = "topd:5000", "1" }, "d=5000 is larger than the number of visible nodes N=2708"},
		{"missing data", func(o *stkrOptions) { o.In.Data = "no/such/dir" }, "no/such/dir"},
		{"missing splits", func(o *stkrOptions) { o.Splits = "no/such/splits" }, "--splits no/such/splits is not a folder"},
		{"folds", func(o *stkrOptions) { o.Folds = 0 }, "--folds 0 is invalid"},
		{"test size", func(o *stkrOptions) { o.Test = -3 }, "--test -3 is invalid"},
		{"out with a split", func(o *stkrOptions) { o.Out = "p.csv" }, "--out writes the predictions of the protocol without a split"},
		{"iterations word", func(o *stkrOptions) { o.MaxIter = "many" }, `--max-iter "many" is invalid`},
		{"iterations negative", func(o *stkrOptions) { o.MaxIter = "-2" }, `--max-iter "-2" is invalid`},
		{"iterations 10^9", func(o *stkrOptions) { o.MaxIter = "8,1000000000" }, `--max-iter "8,1000000000" is invalid`},
		{"iterations list", func(o *stkrOptions) { o.MaxIter = "0,8,x" }, `--max-iter "0,8,x" is invalid`},
		{"iterations with topd", func(o *stkrOptions) { o.Transform, o.Ridge, o.MaxIter = "topd:8", "1", "8" }, `--max-iter "8" is invalid: it does not apply to the transform topd:8: kernel PCA has no iterative solve`},
		{"test chunks without p-test", func(o *stkrOptions) { o.TestChunks, o.PTest = true, 0 }, "--p-test 0 is invalid: test chunks need it > 0"},
		{"iterations auto with topd", func(o *stkrOptions) { o.Transform, o.Ridge, o.MaxIter = "topd:8", "1", "auto" }, `--max-iter "auto" is invalid: it does not apply`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := base
			c.edit(&o)
			var out, errw bytes.Buffer
			err := runSTKR(context.Background(), o, &out, &errw)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Empty(t, out.String())
		})
	}
}

// TestSTKRLargestComponent: --lcc works on Cora's largest component (2485
// nodes, as gssl info and Cora's README report), maps the saved split to it
// and counts the split nodes it drops (each one outside the component).
func TestSTKRLargestComponent(t *testing.T) {
	opts := stkrOptions{In: nodeInput{Data: "../../testdata/cora"}, Seeds: 1, LCC: true, Folds: 5, Val: -1, Test: -1, Splits: sharedtest.Path(t, "bench/splits/cora"), JSON: true, STKRGridSpec: protocol.STKRGridSpec{Transform: "inverse-laplacian", Eta: "0.9", Ridge: "10", Solver: "auto"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: "transductive", PTest: 0.01}}
	var out, errw bytes.Buffer
	require.NoError(t, runSTKR(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, true, obj["lcc"])
	assert.Equal(t, 2485.0, obj["nodes"])
	assert.Equal(t, 25.0, obj["test_nodes"]) // round(0.01 · 2485)
	acc := obj["test_accuracy_mean"].(float64)
	assert.Greater(t, acc, 0.4)

	// The dropped count, independently: split nodes whose component is not
	// the one of 2485 nodes.
	ds, err := loaders.LoadNodeDataset("../../testdata/cora")
	require.NoError(t, err)
	comp, count := ds.Graph.Components()
	size := make([]int, count)
	for _, c := range comp {
		size[c]++
	}
	sp, err := loaders.ReadSplit(filepath.Join(opts.Splits, "random20_seed0.txt"), ds.Graph.Nodes())
	require.NoError(t, err)
	outside := 0
	for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
		for _, i := range part {
			if size[comp[i]] != 2485 {
				outside++
			}
		}
	}
	assert.Positive(t, outside)
	assert.Equal(t, float64(outside), obj["dropped_split_nodes"])
}

// TestSTKRTestChunks: with --test-chunks every test node of the split is
// scored, one fit per chunk; in the transductive setting the chunks' fits
// are all the same fit, so the accuracy equals --p-test 0's. In the
// inductive setting the final fits (refits) see the val nodes: N − chunk
// nodes visible; in inductive-strict they do not.
func TestSTKRTestChunks(t *testing.T) {
	base := stkrOptions{In: nodeInput{Data: "../../testdata/cora"}, Seeds: 1, Folds: 5, Val: -1, Test: -1, JSON: true, STKRGridSpec: protocol.STKRGridSpec{Transform: "poly:4", Eta: "auto", Ridge: "1", Solver: "auto"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: "transductive", PTest: 0.2}}
	run := func(o stkrOptions) map[string]any {
		var out, errw bytes.Buffer
		require.NoError(t, runSTKR(context.Background(), o, &out, &errw))
		return decodeOne(t, out.Bytes())
	}
	chunked := base
	chunked.TestChunks = true
	got := run(chunked)
	whole := base
	whole.PTest = 0
	want := run(whole)
	assert.Equal(t, true, got["test_chunks"])
	assert.Equal(t, 1000.0, got["test_nodes"])
	assert.Equal(t, 2.0, got["fits"]) // chunks of round(0.2·2708) = 542: 542 + 458
	assert.Len(t, got["beta"], 2)
	assert.Equal(t, want["test_accuracy_mean"], got["test_accuracy_mean"])

	refit := chunked
	refit.Setting, refit.PTest = "inductive", 0.1 // chunks of 271: 3 × 271 + 187
	obj := run(refit)
	assert.Equal(t, true, obj["refit"])
	assert.Equal(t, 4.0, obj["fits"])
	assert.Equal(t, 1000.0, obj["test_nodes"])
	assert.Equal(t, 2708.0-187, obj["visible_nodes"], "the last chunk's refit hides only its 187 test nodes")
	assert.Greater(t, obj["test_accuracy_mean"].(float64), 0.4)

	strict := refit
	strict.Setting = "inductive-strict"
	sobj := run(strict)
	assert.Equal(t, false, sobj["refit"])
	assert.Equal(t, "inductive-strict", sobj["setting"])
	assert.Equal(t, 2708.0-187-500, sobj["visible_nodes"], "the strict setting hides the 500 val nodes as well")
	assert.Equal(t, obj["beta"], sobj["beta"], "both choose on the same val-hidden view")
	assert.NotEqual(t, obj["test_accuracy_mean"], sobj["test_accuracy_mean"])
}

// TestSTKRDeprecatedRefit: --refit (what --setting inductive now does) is
// still accepted with a deprecation notice on stderr, and --refit=false
// points to inductive-strict instead of being ignored.
func TestSTKRDeprecatedRefit(t *testing.T) {
	run := func(args ...string) (string, string, error) {
		root := newRoot()
		var out, errw bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errw)
		root.SetArgs(append([]string{"stkr", "--json", "--data", "../../testdata/cora", "--transform", "poly:2",
			"--beta", "1", "--setting", "inductive", "--seeds", "1"}, args...))
		err := root.Execute()
		return out.String(), errw.String(), err
	}
	out, errw, err := run("--refit")
	require.NoError(t, err)
	assert.Contains(t, errw, "--refit is deprecated")
	assert.Equal(t, true, decodeOne(t, []byte(out))["refit"])
	_, _, err = run("--refit=false")
	assert.ErrorContains(t, err, "use --setting inductive-strict")
}

// TestSTKROnImages: --images runs STKR on the unweighted KNN graph of the
// first N images (labels from labels.txt, seeded 20-per-class splits), in
// both settings; bad --n / --k and --data with --images are refused.
func TestSTKROnImages(t *testing.T) {
	digits := sharedtest.Data(t, "digits8x8")
	base := stkrOptions{ImageGraph: ImageGraph{Images: digits, N: 600}, In: nodeInput{KNN: knnFlags{Neighbors: 8}}, Split: "random:20", Seeds: 2, Folds: 5, Val: -1, Test: -1, JSON: true, STKRGridSpec: protocol.STKRGridSpec{Transform: "poly:2", Eta: "auto", Ridge: "1", Solver: "auto", MaxIter: "0"}, STKRSettingSpec: protocol.STKRSettingSpec{Setting: "transductive", PTest: 0.05}}
	for _, setting := range []string{"transductive", "inductive"} {
		o := base
		o.Setting = setting
		var out, errw bytes.Buffer
		require.NoError(t, runSTKR(context.Background(), o, &out, &errw))
		obj := decodeOne(t, out.Bytes())
		assert.Equal(t, "digits8x8-knn8", obj["dataset"])
		assert.Equal(t, 600.0, obj["nodes"])
		assert.Equal(t, 30.0, obj["test_nodes"]) // 5 % of 600
		assert.Contains(t, obj["split_source"], "random: 20 per class, 200 val, 30 test")
		// 20 labelled digits per class on a KNN graph of pixels: chance is 10 %.
		assert.Greater(t, obj["test_accuracy_mean"].(float64), 0.8, setting)
	}
	for _, c := range []struct {
		name string
		mod  func(*stkrOptions)
		want string
	}{
		{"k = n", func(o *stkrOptions) { o.In.KNN.Neighbors = 600 }, "--neighbors 600 is invalid: it must be in [1, 600)"},
		{"k zero", func(o *stkrOptions) { o.In.KNN.Neighbors = 0 }, "--neighbors 0 is invalid"},
		{"n too large", func(o *stkrOptions) { o.N = 5000 }, "--n 5000 is invalid: "},
		{"no such folder", func(o *stkrOptions) { o.Images = "no/such/images" }, "no/such/images"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := base
			c.mod(&o)
			var out, errw bytes.Buffer
			err := runSTKR(context.Background(), o, &out, &errw)
			assert.ErrorContains(t, err, c.want)
			assert.Empty(t, out.String())
		})
	}
	root := newRoot()
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	root.SetArgs([]string{"stkr", "--data", "../../testdata/cora", "--images", digits})
	assert.ErrorContains(t, root.Execute(), "--images excludes --data, --edges and --labels")
}

// TestImageGraphDatasetBadInput: an image set whose labels.txt does not
// match its images, or holds a negative label, is refused with the file
// named.
func TestImageGraphDatasetBadInput(t *testing.T) {
	write := func(labels string) string {
		dir := t.TempDir()
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, err := zw.Write(make([]byte, 10*4)) // 10 images of 4 pixels
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dir, "images_u8.bin.gz"), buf.Bytes(), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(labels), 0o644))
		return dir
	}
	ok := "0\n1\n0\n1\n0\n1\n0\n1\n0\n1\n"
	_, err := imageGraphDataset(context.Background(), write(ok+"1\n"), 0, 3, io.Discard)
	assert.ErrorContains(t, err, "labels.txt")
	neg := "0\n1\n0\n1\n-2\n1\n0\n1\n0\n1\n"
	_, err = imageGraphDataset(context.Background(), write(neg), 0, 3, io.Discard)
	assert.ErrorContains(t, err, "image 4 has label -2")
	ds, err := imageGraphDataset(context.Background(), write(ok), 0, 3, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 10, ds.Graph.Nodes())
	assert.Equal(t, 2, ds.Classes)
}
