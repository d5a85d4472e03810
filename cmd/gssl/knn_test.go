package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
)

func TestKNNJSONOnDigits(t *testing.T) {
	digits := sharedtest.Data(t, "digits8x8")
	out := filepath.Join(t.TempDir(), "g.mtx")
	for _, approx := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		opts := knnTestOptions(digits, 600, 8)
		opts.Approximate, opts.Out, opts.RecallSample, opts.JSON = approx, out, 200, true
		require.NoError(t, runKNN(context.Background(), opts, &stdout, &stderr))
		obj := decodeOne(t, stdout.Bytes())
		assert.Equal(t, 600.0, obj["nodes"])
		assert.Equal(t, 64.0, obj["dim"]) // inferred from labels.txt
		assert.Equal(t, 200.0, obj["recall_queries"])
		if approx {
			assert.Equal(t, "nn-descent", obj["method"])
			assert.GreaterOrEqual(t, obj["recall"], 0.95)
		} else {
			assert.Equal(t, "exact", obj["method"])
			assert.Equal(t, 1.0, obj["recall"])
		}
		for _, key := range []string{"seconds", "peak_rss_mb", "edges", "alpha", "median_kth_distance"} {
			assert.Greater(t, obj[key], 0.0, key)
		}
		// The written file is Ã: every node has its self loop of weight 1,
		// and the edge count matches.
		g, err := loaders.ReadMatrixMarket(out, graph.Options{})
		require.NoError(t, err)
		assert.Equal(t, 600, g.Nodes())
		assert.Equal(t, 600, g.SelfLoops())
		assert.Equal(t, obj["edges"], float64(g.Edges()-g.SelfLoops()))
		for i := 0; i < 600; i++ {
			assert.Equal(t, 1.0, g.Weight(i, i))
		}
	}
}

func TestKNNGroundTruthRecall(t *testing.T) {
	// A ground-truth file in knn.py's format, written from brute force on
	// three 1-D "images": 0, 1, 3 (squared distances 1, 4, 9).
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "img.bin"), []byte{0, 1, 3}, 0o644))
	gt := filepath.Join(dir, "gt.txt")
	require.NoError(t, os.WriteFile(gt, []byte("# header\n0 1 | 1\n2 1 | 4\n"), 0o644))
	var stdout, stderr bytes.Buffer
	opts := knnTestOptions(filepath.Join(dir, "img.bin"), 0, 1)
	opts.Pixels, opts.Precision, opts.Rule, opts.Weights, opts.GroundTruth, opts.JSON = 1, "float64", "mutual", "distance2", gt, true
	require.NoError(t, runKNN(context.Background(), opts, &stdout, &stderr))
	obj := decodeOne(t, stdout.Bytes())
	assert.Equal(t, 1.0, obj["recall"])
	assert.Equal(t, 2.0, obj["recall_queries"])
	assert.Equal(t, 1.0, obj["edges"]) // mutual: only 0–1
}

// knnTestOptions are gssl knn's options on the first n images of images
// with k neighbours: the float32 or-rule search, IMGP's affinity weights,
// no recall sample.
func knnTestOptions(images string, n, k int) knnOptions {
	o := knnOptions{KNNSource: loaders.KNNSource{Images: images, N: n}, Options: knngraph.DefaultOptions()}
	o.Neighbors, o.Weights, o.RecallSample, o.CompareIterations = k, "affinity", 0, nil
	return o
}

func TestKNNErrors(t *testing.T) {
	digits := sharedtest.Data(t, "digits8x8")
	base := knnTestOptions(digits, 0, 5)
	cases := []struct {
		mod  func(*knnOptions)
		want string
	}{
		{func(o *knnOptions) { o.Precision = "half" }, `--precision "half"`},
		{func(o *knnOptions) { o.Rule = "and" }, `--rule "and"`},
		{func(o *knnOptions) { o.Weights = "x" }, `--knn-weights "x"`},
		{func(o *knnOptions) { o.N = 5000 }, "holds only 1797 images"},
		{func(o *knnOptions) { o.N = -1 }, "--n -1"},
		{func(o *knnOptions) { o.N = 10; o.Neighbors = 10 }, "--neighbors 10 is invalid: it must be in [1, 10)"},
		{func(o *knnOptions) { o.Neighbors = 0 }, "--neighbors 0 is invalid"},
		{func(o *knnOptions) { o.Images = "no/such/dir" }, "no/such/dir"},
		{func(o *knnOptions) { o.Bandwidth = -1 }, "--bandwidth -1"},
		{func(o *knnOptions) { o.GroundTruth = "no/such/gt.txt" }, "--groundtruth"},
	}
	for _, c := range cases {
		o := base
		c.mod(&o)
		var stdout bytes.Buffer
		err := runKNN(context.Background(), o, &stdout, &stdout)
		assert.ErrorContains(t, err, c.want)
		assert.Empty(t, stdout.String())
	}
}

// TestKNNBandwidthRenamed: --alpha (IMGP's α of exp(−d²/(4α²)), not the α
// of labelprop) is now --bandwidth, σ of exp(−d²/(2σ²)) as in every command;
// the old name still works, as σ = α√2, with a notice.
func TestKNNBandwidthRenamed(t *testing.T) {
	cmd := newKNNCommand(&globals{})
	var errw bytes.Buffer
	cmd.SetErr(&errw)
	require.NoError(t, cmd.Flags().Parse([]string{"--alpha", "2.5"}))
	assert.Equal(t, strconv.FormatFloat(2.5*math.Sqrt2, 'g', -1, 64), cmd.Flags().Lookup("bandwidth").Value.String())
	assert.Contains(t, errw.String(), "--alpha is deprecated; use --bandwidth")
	assert.True(t, cmd.Flags().Lookup("alpha").Hidden)
}
