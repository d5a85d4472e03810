package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"github.com/gssl/gssl/labelprop"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
)

// coraDir is the embedded data set, relative to this package.
const coraDir = "../../testdata/cora"

// lp.py on Cora's Planetoid split (shared/bench/peers/lp.py, lines lp-zhou
// and lp-harmonic-cmn): validation accuracy per a of the grid, the chosen a
// and its test accuracy, and the harmonic function with CMN.
var (
	coraPeerVal   = []any{0.658, 0.672, 0.692, 0.694, 0.706, 0.686}
	coraPeerAlpha = 0.95
	coraPeerTest  = 0.718
	coraPeerCMN   = 0.734
)

func runLabelpropJSON(t *testing.T, opts labelpropOptions) map[string]any {
	t.Helper()
	opts.JSON = true
	var out, errw bytes.Buffer
	require.NoError(t, runLabelprop(context.Background(), opts, &out, &errw))
	// No bar when stderr is not a terminal: a line per stage (seed, or
	// value of a cross-validated), nothing else.
	for _, line := range strings.Split(strings.TrimSpace(errw.String()), "\n") {
		if line != "" {
			assert.Regexp(t, `^labelprop: (seed \d+ of \d+|cross-validation: \d+ of \d+ values of a) done`, line)
		}
	}
	return decodeOne(t, out.Bytes())
}

// defaults are the flag defaults.
func defaults() labelpropOptions {
	return labelpropOptions{Model: labelprop.Spec{Method: "spreading", Alpha: "auto", Solver: "auto"}, Split: "auto", Val: -1, Test: -1, Folds: 5, Seeds: 1}
}

func TestLabelpropJSONOnCora(t *testing.T) {
	obj := runLabelpropJSON(t, defaults())
	assert.Equal(t, coraPeerAlpha, obj["alpha"])
	assert.Equal(t, coraPeerTest, obj["test_accuracy"])
	assert.Equal(t, 0.706, obj["val_accuracy"])
	assert.Equal(t, coraPeerVal, obj["grid_val_accuracy"])
	for _, k := range []string{"seconds", "fit_seconds", "macro_f1", "iterations", "n_isolated", "n_unreached"} {
		assert.Contains(t, obj, k)
	}
	f1 := obj["macro_f1"].(float64)
	assert.True(t, f1 > 0 && f1 < 1)
	assert.Equal(t, 0.0, obj["n_isolated"])
	assert.Equal(t, 158.0, obj["n_unreached"]) // lp.py's n_unreached on Cora
	// Chebyshev (the default): within ⌈acosh(1e6)/acosh(1/0.95)⌉ = 45.
	assert.LessOrEqual(t, obj["iterations"], 45.0)
	assert.Equal(t, "chebyshev", obj["solver"])
	assert.NotContains(t, obj, "test_accuracy_std", "one split has no spread")
	assert.Equal(t, 2708.0, obj["nodes"])
	assert.Equal(t, 140.0, obj["train"])
}

func TestLabelpropHarmonicAndFixedPoint(t *testing.T) {
	o := defaults()
	o.Model.Method, o.Model.CMN = "harmonic", true
	obj := runLabelpropJSON(t, o)
	assert.InDelta(t, coraPeerCMN, obj["test_accuracy"], 0.003)
	assert.Nil(t, obj["alpha"])
	assert.Equal(t, "cg-jacobi", obj["solver"])

	o = defaults()
	o.Model.Alpha, o.Model.Solver = "0.95", "fixed-point"
	obj = runLabelpropJSON(t, o)
	assert.Equal(t, coraPeerTest, obj["test_accuracy"])
	assert.Equal(t, 216.0, obj["iterations"]) // lp.py: 216 fixed-point sweeps at a = 0.95
	assert.NotContains(t, obj, "alpha_grid")

	// Block CG: lp.py's accuracies and its iteration count for every a.
	o = defaults()
	o.Model.Solver = "cg"
	obj = runLabelpropJSON(t, o)
	assert.Equal(t, "cg", obj["solver"])
	assert.Equal(t, coraPeerAlpha, obj["alpha"])
	assert.Equal(t, coraPeerTest, obj["test_accuracy"])
	assert.Equal(t, coraPeerVal, obj["grid_val_accuracy"])
	assert.Equal(t, 41.0, obj["iterations"]) // lp.py: CG iterations [41 41 41 41 41 41 40] at a = 0.95
}

func TestLabelpropRandomSplitsOverSeeds(t *testing.T) {
	o := defaults()
	o.Split, o.Seeds = "random:20", 3
	var stderr bytes.Buffer
	require.NoError(t, runLabelprop(context.Background(), o, io.Discard, &stderr))
	assert.Equal(t, "labelprop: seed 1 of 3 done\nlabelprop: seed 2 of 3 done\nlabelprop: seed 3 of 3 done\n", stderr.String(), "a line per seed when stderr is not a terminal")
	obj := runLabelpropJSON(t, o)
	assert.Equal(t, 3.0, obj["seeds"])
	std, ok := obj["test_accuracy_std"].(float64)
	require.True(t, ok, "several seeds report a standard deviation")
	assert.Greater(t, std, 0.0)
	assert.Len(t, obj["alpha_per_seed"], 3)
	acc := obj["test_accuracy"].(float64)
	assert.Greater(t, acc, 0.6)
	// The same seeds give the same numbers.
	again := runLabelpropJSON(t, o)
	assert.Equal(t, acc, again["test_accuracy"])
	assert.Equal(t, std, again["test_accuracy_std"])
	// --seed moves the window: seeds 1..2 are the last two of 0..2.
	o.Seed, o.Seeds = 1, 2
	shifted := runLabelpropJSON(t, o)
	assert.Equal(t, 1.0, shifted["first_seed"])
	assert.Equal(t, obj["alpha_per_seed"].([]any)[1:], shifted["alpha_per_seed"])
}

func TestLabelpropPredictionsFile(t *testing.T) {
	o := defaults()
	o.Out = filepath.Join(t.TempDir(), "pred.csv")
	obj := runLabelpropJSON(t, o)
	assert.Equal(t, o.Out, obj["out"])
	f, err := os.Open(o.Out)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 1+2708-140, "a row for every node not trained on")
	assert.Equal(t, []string{"id", "predicted", "label", "split", "p_0", "p_1", "p_2", "p_3", "p_4", "p_5", "p_6"}, rows[0])
	right, test := 0, 0
	for _, r := range rows[1:] {
		var sum float64
		for _, s := range r[4:] {
			p, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			sum += p
		}
		assert.InDelta(t, 1, sum, 1e-12, "probabilities of node %s", r[0])
		assert.NotEqual(t, "train", r[3])
		if r[3] == "test" {
			test++
			if r[1] == r[2] {
				right++
			}
		}
	}
	assert.Equal(t, 1000, test)
	assert.Equal(t, coraPeerTest, float64(right)/float64(test), "the file agrees with the reported accuracy")
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(o.Out), ".*tmp*"))
	assert.Empty(t, matches, "no temporary file left behind")
}

func TestLabelpropTextSummary(t *testing.T) {
	o := defaults()
	var out, errw bytes.Buffer
	require.NoError(t, runLabelprop(context.Background(), o, &out, &errw))
	s := out.String()
	assert.Contains(t, s, "test accuracy 0.7180")
	assert.Contains(t, s, "0.95  *  0.7060   0.7180")
	assert.Contains(t, s, "158 nodes (0 of them isolated) have no path to a labelled training node")
}

func TestLabelpropBadInput(t *testing.T) {
	cases := []struct {
		name string
		edit func(*labelpropOptions)
		want string
	}{
		{"alpha 0", func(o *labelpropOptions) { o.Model.Alpha = "0" }, `--alpha "0" is invalid: it must be a number inside the open interval (0, 1)`},
		{"alpha 1", func(o *labelpropOptions) { o.Model.Alpha = "1" }, `--alpha "1" is invalid`},
		{"alpha text", func(o *labelpropOptions) { o.Model.Alpha = "big" }, `--alpha "big" is invalid`},
		{"method", func(o *labelpropOptions) { o.Model.Method = "gcn" }, `--method "gcn" is invalid: want spreading or harmonic`},
		{"solver", func(o *labelpropOptions) { o.Model.Solver = "lu" }, `--solver "lu" is invalid: want auto, chebyshev, cg or fixed-point`},
		{"alpha with harmonic", func(o *labelpropOptions) { o.Model.Method, o.Model.Alpha = "harmonic", "0.9" }, `--alpha "0.9" is invalid: it applies to the spreading method only`},
		{"split", func(o *labelpropOptions) { o.Split = "random:0" }, "want random:K with K ≥ 1"},
		{"split file", func(o *labelpropOptions) { o.Split = "no/such/split.txt" }, `--split "no/such/split.txt" is not auto, none, planetoid, random:K or per-class:T,V`},
		{"seeds with planetoid", func(o *labelpropOptions) { o.Split, o.Seeds = "planetoid", 3 }, "--seeds 3 needs --split random:K"},
		{"seeds without split", func(o *labelpropOptions) { o.Split, o.Seeds = "none", 3 }, "--seeds 3 needs --split random:K"},
		{"val", func(o *labelpropOptions) { o.Split, o.Val = "random:20", -5 }, "--val -5 is invalid: it must be ≥ 0, or -1"},
		{"folds", func(o *labelpropOptions) { o.Folds = 1 }, "--folds 1 is invalid: it must be ≥ 2"},
		{"alpha near 1", func(o *labelpropOptions) { o.Model.Alpha = "0.9999999999999999" }, "it must be at most"},
		{"out folder", func(o *labelpropOptions) { o.Out = "no/such/dir/p.csv" }, "--out no/such/dir/p.csv: the folder no/such/dir does not exist"},
		{"seeds 0", func(o *labelpropOptions) { o.Seeds = 0 }, "--seeds 0 is invalid"},
		{"seeds 10^9", func(o *labelpropOptions) { o.Seeds = 1_000_000_000; o.Split = "random:1" }, "--seeds 1000000000 is invalid"},
		{"tol", func(o *labelpropOptions) { o.Model.Tol = 3 }, "--tol 3 is invalid"},
		{"data", func(o *labelpropOptions) { o.In.Data = "no/such/dir" }, "no/such/dir"},
		{"labels without graph", func(o *labelpropOptions) { o.In.Labels = "l.csv" }, "--labels and --targets need a graph"},
		{"too many per class", func(o *labelpropOptions) { o.Split = "random:200" }, "class 6 has 180 labelled items, fewer than perClass=200"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := defaults()
			tc.edit(&o)
			var out bytes.Buffer
			err := runLabelprop(context.Background(), o, &out, &out)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, out.String(), "nothing on stdout on error")
		})
	}
}

func TestLabelpropIsolatedTrainingNode(t *testing.T) {
	// A tiny data set: a path 0-1-2-3 and an isolated node 4 that is in the
	// training split.
	dir := t.TempDir()
	write := func(name, s string) { require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644)) }
	write("edges.txt", "0 1\n1 2\n2 3\n")
	write("labels.txt", "0\n0\n1\n1\n1\n")
	write("split_planetoid.txt", "train 0\ntrain 4\ntrain 3\ntest 1\ntest 2\n")
	o := defaults()
	o.In.Data, o.Model.Alpha = dir, "0.9"
	var out bytes.Buffer
	err := runLabelprop(context.Background(), o, &out, &out)
	assert.ErrorContains(t, err, "training node 4 is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds")
	o.Model.KeepIsolatedSeeds = true
	obj := runLabelpropJSON(t, o)
	assert.Equal(t, 1.0, obj["n_isolated_seeds"])
	assert.Equal(t, 1.0, obj["test_accuracy"])
	assert.Nil(t, obj["val_accuracy"], "no validation nodes: null, not NaN")

	o.Model.Alpha = "auto"
	err = runLabelprop(context.Background(), o, &out, &out)
	assert.ErrorContains(t, err, "--alpha auto needs validation nodes")
}

func TestRootRegistersLabelprop(t *testing.T) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"labelprop", "--json", "--data", coraDir, "--alpha", "0.95"})
	require.NoError(t, root.Execute())
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, coraPeerTest, obj["test_accuracy"])
	assert.False(t, math.IsNaN(obj["seconds"].(float64)))
}

// TestLabelpropOnImages: --images classifies the nodes of the unweighted
// KNN graph of an image set (as gssl stkr --images does); --data and
// --images together are refused.
func TestLabelpropOnImages(t *testing.T) {
	digits := sharedtest.Data(t, "digits8x8")
	var out, errw bytes.Buffer
	opts := defaults()
	opts.Images, opts.N, opts.In.KNN.Neighbors, opts.Split, opts.Seeds, opts.JSON = digits, 1700, 8, "random:10", 2, true
	require.NoError(t, runLabelprop(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, "digits8x8-knn8", obj["dataset"])
	assert.Equal(t, 1700.0, obj["nodes"])
	// 10 labelled digits per class on a KNN graph of pixels: chance is 10 %.
	assert.Greater(t, obj["test_accuracy"].(float64), 0.85)

	root := newRoot()
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	root.SetArgs([]string{"labelprop", "--data", coraDir, "--images", digits})
	assert.ErrorContains(t, root.Execute(), "--images excludes --data, --edges and --labels")
}
