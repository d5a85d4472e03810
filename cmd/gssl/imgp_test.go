package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/protocol"
)

func smallIMGP() imgpOptions {
	return imgpOptions{In: regressionInput{Labelled: 0.2, RegressionData: RegressionData{Seed: 1}}, Model: imgpModelFlags{K: 8, Nu: 2, Eigenpairs: 20, MaxIter: 5, LearningRate: 0.05, Probes: 2, Distance: "nearest"}, JSON: true}
}

func TestIMGPJSONOnSyntheticCurve(t *testing.T) {
	opts := smallIMGP()
	opts.In.Synthetic = 300
	opts.Plots.Plot = filepath.Join(t.TempDir(), "imgp.png")
	var out, errw bytes.Buffer
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	for _, k := range []string{"rmse", "nll", "euclidean_rmse", "euclidean_nll", "seconds", "alpha", "kappa", "noise",
		"log_marginal_likelihood", "log_marginal_likelihood_stderr", "seconds_likelihood"} {
		v, ok := obj[k].(float64)
		require.True(t, ok, "key %s missing or not a number: %v", k, obj[k])
		require.False(t, math.IsNaN(v))
	}
	assert.Equal(t, 300.0, obj["nodes"])
	assert.Equal(t, 60.0, obj["n_labelled"])
	assert.InDelta(t, 0.2, obj["labelled"], 1e-12)
	assert.Less(t, obj["rmse"], 0.5, "IMGP on the curve should beat predicting 0 (RMSE ≈ 0.71)")
	assert.Equal(t, true, obj["log_marginal_likelihood_exact"], "60 labels: the determinant lemma")
	assert.Equal(t, 0.0, obj["log_marginal_likelihood_stderr"])
	st, err := os.Stat(opts.Plots.Plot)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))

	opts.JSON = false
	opts.Plots.Plot = ""
	out.Reset()
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	assert.Contains(t, out.String(), "Euclidean GP")
	assert.Contains(t, out.String(), "log marginal likelihood")

	opts.JSON = true
	opts.Lik.Probes = -1
	out.Reset()
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Nil(t, obj["log_marginal_likelihood"], "--likelihood-probes -1 skips it")
}

// writeAngles writes an srmnist-style folder of n training and m test
// "images": a bright bar whose position encodes the angle.
func writeAngles(t *testing.T, n, m int) string {
	dir := t.TempDir()
	write := func(name string, count int, offset float64) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		var angles strings.Builder
		for i := 0; i < count; i++ {
			a := -45 + 90*(float64(i)+offset)/float64(count)
			img := make([]byte, 784)
			c := 4 + (a+45)/90*19
			for p := 0; p < 784; p++ {
				col := float64(p % 28)
				img[p] = byte(255 * math.Exp(-(col-c)*(col-c)/4))
			}
			_, err := zw.Write(img)
			require.NoError(t, err)
			fmt.Fprintf(&angles, "%.6f\n", a)
		}
		require.NoError(t, zw.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_images_u8.bin.gz"), buf.Bytes(), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_angles.txt"), []byte(angles.String()), 0o644))
	}
	write("train", n, 0)
	write("test", m, 0.5)
	return dir
}

func TestIMGPJSONOnImageFolder(t *testing.T) {
	opts := smallIMGP()
	opts.In.Images = writeAngles(t, 120, 20)
	var out, errw bytes.Buffer
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 120.0, obj["nodes"])
	assert.Equal(t, 20.0, obj["test"])
	assert.Equal(t, 24.0, obj["n_labelled"])

	sub := filepath.Join(t.TempDir(), "subset.txt")
	require.NoError(t, os.WriteFile(sub, []byte("3\n50\n100\n7\n"), 0o644))
	opts.In.Subset = sub
	out.Reset()
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	assert.Equal(t, 4.0, decodeOne(t, out.Bytes())["n_labelled"])

	// 96 labels > 50: the determinant term by stochastic Lanczos quadrature.
	opts.In.Subset = ""
	opts.In.Labelled = 0.8
	opts.Lik.ExactLabels = 50
	out.Reset()
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Equal(t, false, obj["log_marginal_likelihood_exact"])
	assert.Greater(t, obj["log_marginal_likelihood_stderr"], 0.0)
	_, ok := obj["log_marginal_likelihood"].(float64)
	assert.True(t, ok)
}

func TestIMGPBadInput(t *testing.T) {
	ctx := context.Background()
	var out, errw bytes.Buffer
	dir := writeAngles(t, 40, 5)
	cases := map[string]struct {
		edit func(*imgpOptions)
		want string
	}{
		"no labels":     {func(o *imgpOptions) { o.In.Labelled = 0.001 }, "labels no point"},
		"fraction":      {func(o *imgpOptions) { o.In.Labelled = 1.5 }, "--labelled 1.5 is invalid"},
		"nu":            {func(o *imgpOptions) { o.Model.Nu = 0 }, "--nu 0 is invalid"},
		"K ≥ N":         {func(o *imgpOptions) { o.Model.K = 40 }, "K = 40 is invalid for 40 points"},
		"max-iter":      {func(o *imgpOptions) { o.Model.MaxIter = -1 }, "--max-iter -1 is invalid: it must be ≥ 0"},
		"max-iter 10^9": {func(o *imgpOptions) { o.Model.MaxIter = 1_000_000_000 }, "--max-iter 1000000000 is invalid"},
		"synthetic":     {func(o *imgpOptions) { o.In.Images, o.In.Synthetic = "", -5 }, "--synthetic -5 is invalid: it must be in [2, "},
		"no data":       {func(o *imgpOptions) { o.In.Images = "" }, "no data: give --features FILE --targets FILE"},
		"two sources":   {func(o *imgpOptions) { o.In.Synthetic = 100 }, "give one of"},
		"plot format":   {func(o *imgpOptions) { o.Plots.Plot = filepath.Join(dir, "x.bogus") }, `unknown image format ".bogus"`},
		"distance":      {func(o *imgpOptions) { o.Model.Distance = "far" }, `--distance "far" is invalid`},
		"missing dir":   {func(o *imgpOptions) { o.In.Images = filepath.Join(dir, "nope") }, "nope"},
	}
	for name, c := range cases {
		opts := smallIMGP()
		opts.In.Images = dir
		c.edit(&opts)
		err := runIMGP(ctx, opts, &out, &errw)
		require.ErrorContains(t, err, c.want, name)
	}
	sub := filepath.Join(t.TempDir(), "subset.txt")
	require.NoError(t, os.WriteFile(sub, []byte("3\n99\n"), 0o644))
	opts := smallIMGP()
	opts.In.Images, opts.In.Subset = dir, sub
	require.ErrorContains(t, runIMGP(ctx, opts, &out, &errw), "line 2: index 99")
}

func TestIMGPSweepJSON(t *testing.T) {
	opts := sweepOptions{In: protocol.IMGPSweepData{RegressionData: smallIMGP().In.RegressionData, Fractions: []float64{0.1, 0.3}, Seeds: 2}, Model: smallIMGP().Model, JSON: true}
	opts.In.Synthetic = 200
	opts.Plot = filepath.Join(t.TempDir(), "sweep.png")
	var out, errw bytes.Buffer
	require.NoError(t, runIMGPSweep(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	runs := obj["runs"].([]any)
	require.Len(t, runs, 4)
	summary := obj["summary"].([]any)
	require.Len(t, summary, 2)
	first := summary[0].(map[string]any)
	for _, k := range []string{"rmse_mean", "rmse_std", "nll_mean", "euclidean_rmse_mean", "euclidean_nll_mean", "euclidean_over_imgp_rmse"} {
		_, ok := first[k].(float64)
		require.True(t, ok, "summary key %s: %v", k, first[k])
	}
	assert.Equal(t, 20.0, runs[0].(map[string]any)["n_labelled"])
	_, err := os.Stat(opts.Plot)
	require.NoError(t, err)

	opts.In.Subsets = t.TempDir()
	require.ErrorContains(t, runIMGPSweep(context.Background(), opts, &out, &errw), "train_subset10_seed0.txt")
	opts.In.Subsets, opts.In.Seeds = "", 0
	require.ErrorContains(t, runIMGPSweep(context.Background(), opts, &out, &errw), "--seeds 0 is invalid")
}
