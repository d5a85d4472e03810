package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/protocol"
)

// writeImageFolder writes n 28×28 images of two classes (a bright top half
// or a bright bottom half, plus noise) with the last nTest marked "test".
func writeImageFolder(t *testing.T, n, nTest int) string { return writeImages(t, n, nTest, 0) }

// writeImages is writeImageFolder where image i ≥ period repeats image
// i − period (period 0: no repeats).
func writeImages(t *testing.T, n, nTest, period int) string {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	var img bytes.Buffer
	zw := gzip.NewWriter(&img)
	var labels, origin strings.Builder
	var all [][]byte
	for i := 0; i < n; i++ {
		c := i % 2
		px := make([]byte, 784)
		for p := range px {
			v := rng.IntN(60)
			if (p < 392) == (c == 0) {
				v += 150
			}
			px[p] = byte(v)
		}
		if period > 0 && i >= period {
			px, c = all[i-period], (i-period)%2
		}
		all = append(all, px)
		_, err := zw.Write(px)
		require.NoError(t, err)
		fmt.Fprintln(&labels, c)
		if i < n-nTest {
			fmt.Fprintln(&origin, "train", i)
		} else {
			fmt.Fprintln(&origin, "test", i-(n-nTest))
		}
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "images_u8.bin.gz"), img.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(labels.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "origin.txt"), []byte(origin.String()), 0o644))
	return dir
}

func falkonDefaults(dir string) falkonOptions {
	return falkonOptions{KRRData: protocol.KRRData{Images: dir}, KRRModels: protocol.KRRModels{M: []int{50}, Spec: krr.Spec{Kernel: "gaussian", Sigma: 15, Lambda: 1e-6, MaxIter: 10,
		Centres: "uniform", Precision: "float32", Solver: "falkon"}}, JSON: true}
}

func TestFalkonJSON(t *testing.T) {
	dir := writeImageFolder(t, 300, 100)
	for _, solver := range []string{"falkon", "nystrom"} {
		for _, centres := range []string{"uniform", "leverage"} {
			var out, errw bytes.Buffer
			opts := falkonDefaults(dir)
			opts.Solver, opts.Centres = solver, centres
			require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
			obj := decodeOne(t, out.Bytes())
			assert.Equal(t, 200.0, obj["n_train"])
			assert.Equal(t, 100.0, obj["n_test"])
			assert.Equal(t, 784.0, obj["d"])
			assert.Equal(t, 50.0, obj["m"])
			// the classes are separable: no test error
			assert.Equal(t, 0.0, obj["test_error"], "%s %s", solver, centres)
			assert.GreaterOrEqual(t, obj["seconds"], 0.0)
			assert.Equal(t, 1e-12, obj["jitter"])
			assert.Equal(t, 0.0, obj["jitter_raises"])
			assert.Equal(t, 0.0, obj["dropped_centres"])
			if solver == "falkon" {
				assert.Equal(t, 10.0, obj["iterations"])
			}
		}
	}
	// a centres file
	f := filepath.Join(t.TempDir(), "centres.txt")
	require.NoError(t, os.WriteFile(f, []byte("# indices\n0\n5\n7\n"), 0o644))
	var out, errw bytes.Buffer
	opts := falkonDefaults(dir)
	opts.Centres = f
	require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
	assert.Equal(t, 3.0, decodeOne(t, out.Bytes())["m"])
	// the text summary
	out.Reset()
	opts.JSON = false
	require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
	assert.Contains(t, out.String(), "test error")
}

// Repeated training images chosen as centres are left out and counted.
func TestFalkonDuplicateCentres(t *testing.T) {
	dir := writeImages(t, 140, 40, 50) // train images 50..99 repeat 0..49
	for _, solver := range []string{"falkon", "nystrom"} {
		var out, errw bytes.Buffer
		opts := falkonDefaults(dir)
		opts.Solver, opts.M = solver, []int{100}
		require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
		obj := decodeOne(t, out.Bytes())
		assert.Equal(t, 50.0, obj["dropped_centres"], solver)
		assert.Equal(t, 50.0, obj["m"], solver)
		assert.Equal(t, 0.0, obj["test_error"], solver)
		assert.Contains(t, errw.String(), "50 centres repeat a point", solver)
	}
}

func TestFalkonBadInput(t *testing.T) {
	dir := writeImageFolder(t, 40, 10)
	bad := filepath.Join(t.TempDir(), "c.txt")
	require.NoError(t, os.WriteFile(bad, []byte("1\n99\n"), 0o644))
	for _, c := range []struct {
		edit func(*falkonOptions)
		msg  string
	}{
		{func(o *falkonOptions) { o.Lambda = 0 }, "--ridge 0 is invalid"},
		{func(o *falkonOptions) { o.Sigma = -1 }, "Gaussian sigma=-1 is invalid"},
		{func(o *falkonOptions) { o.M = []int{31} }, "M=31 is invalid: it must be in [1, n=30]"},
		{func(o *falkonOptions) { o.Kernel = "rbf" }, `--kernel "rbf" is invalid`},
		{func(o *falkonOptions) { o.Precision = "half" }, `--precision "half" is invalid`},
		{func(o *falkonOptions) { o.Solver = "sgd" }, `--solver "sgd" is invalid`},
		{func(o *falkonOptions) { o.MaxIter = 0 }, "--max-iter 0 is invalid"},
		{func(o *falkonOptions) { o.MaxIter = 1_000_000_000 }, "--max-iter 1000000000 is invalid"},
		{func(o *falkonOptions) { o.TrainImages = -5 }, "--train-images -5 / --test-images 0 is invalid: each must be ≥ 0"},
		{func(o *falkonOptions) { o.TestImages = -1 }, "--test-images -1 is invalid"},
		{func(o *falkonOptions) { o.Images = "" }, "no data: give --features FILE with --labels FILE"},
		{func(o *falkonOptions) { o.Centres = bad }, "fixed centre index 99 is outside [0, n=30)"},
		{func(o *falkonOptions) { o.Images = filepath.Join(dir, "nowhere") }, "no such file"},
	} {
		opts := falkonDefaults(dir)
		c.edit(&opts)
		var out, errw bytes.Buffer
		assert.ErrorContains(t, runFalkon(context.Background(), opts, &out, &errw), c.msg)
	}
	// a malformed origin.txt names its line
	require.NoError(t, os.WriteFile(filepath.Join(dir, "origin.txt"), []byte("train 0\nvalid 1\n"), 0o644))
	var out, errw bytes.Buffer
	assert.ErrorContains(t, runFalkon(context.Background(), falkonDefaults(dir), &out, &errw), "origin.txt:2")
}

// TestFalkonOnUserPoints: --features/--labels with string classes and an id
// column, blank labels predicted, --test-features scored; --out has the
// user's ids, class names and one score column per class; regression with
// --targets.
func TestFalkonOnUserPoints(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var feat, lab, tfeat, tlab strings.Builder
	feat.WriteString("id,a,b\n")
	lab.WriteString("id,label\n")
	tfeat.WriteString("id,a,b\n")
	tlab.WriteString("id,label\n")
	for i := 0; i < 80; i++ {
		c := i % 2
		a, b := float64(3*c)+0.3*rng.NormFloat64(), 0.3*rng.NormFloat64()
		fmt.Fprintf(&feat, "u%d,%g,%g\n", i, a, b)
		name := []string{"cat", "dog"}[c]
		if i%5 == 4 {
			name = ""
		}
		fmt.Fprintf(&lab, "u%d,%s\n", i, name)
	}
	for i := 0; i < 10; i++ {
		c := i % 2
		fmt.Fprintf(&tfeat, "t%d,%g,%g\n", i, float64(3*c)+0.3*rng.NormFloat64(), 0.3*rng.NormFloat64())
		fmt.Fprintf(&tlab, "t%d,%s\n", i, []string{"cat", "dog"}[c])
	}
	w := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	opts := falkonOptions{KRRData: protocol.KRRData{Points: pointInput{Features: w("x.csv", feat.String()), TestFeatures: w("xt.csv", tfeat.String()), IDs: "id"},
		Labels: pointLabels{Labels: w("y.csv", lab.String()), TestLabels: w("yt.csv", tlab.String())}},
		KRRModels: protocol.KRRModels{M: []int{20}, Spec: krr.Spec{Kernel: "gaussian", Sigma: 1, Lambda: 1e-6, MaxIter: 20, Centres: "uniform", Precision: "float64", Solver: "falkon"}},
		Out:       filepath.Join(dir, "p.csv"), JSON: true}
	var out, errw bytes.Buffer
	require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 64.0, obj["n_train"])
	assert.Equal(t, 16.0+10, obj["n_predicted"])
	assert.Equal(t, 0.0, obj["test_error"])
	assert.Equal(t, 2.0, obj["classes"])
	rows := readCSVRows(t, opts.Out)
	require.Len(t, rows, 26)
	assert.Equal(t, "u4", rows[0]["id"])
	assert.Equal(t, "cat", rows[0]["prediction"])
	assert.Equal(t, "", rows[0]["label"])
	assert.Equal(t, "t1", rows[17]["id"])
	assert.Equal(t, "dog", rows[17]["prediction"])
	assert.Equal(t, "dog", rows[17]["label"])
	assert.Greater(t, parseNum(t, rows[17]["score_dog"]), parseNum(t, rows[17]["score_cat"]))

	// Regression on the first coordinate's class.
	var tg strings.Builder
	for i := 0; i < 80; i++ {
		if i%5 == 4 {
			tg.WriteString("nan\n") // to predict
			continue
		}
		fmt.Fprintf(&tg, "%d\n", 10*(i%2))
	}
	opts.Targets.Targets, opts.Labels, opts.Points.IDs = w("t.csv", tg.String()), pointLabels{}, ""
	opts.Points.TestFeatures = ""
	opts.Points.IDs = "id" // in the features only
	out.Reset()
	require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Equal(t, "regression", obj["task"])
	assert.Less(t, obj["train_rmse"], 0.5)
	rows = readCSVRows(t, opts.Out)
	require.Len(t, rows, 16)
	assert.Equal(t, "u4", rows[0]["id"])
	assert.InDelta(t, 0, parseNum(t, rows[0]["prediction"]), 1)
}

// TestFalkonDefaultsAgreeWithKRR checks every model flag of gssl falkon
// against krr.DefaultSpec, field by field through the flag tags, and that
// a Spec naming no precision fits what the command fits by default.
func TestFalkonDefaultsAgreeWithKRR(t *testing.T) {
	f := newFalkonCommand(&globals{}).Flags()
	def := reflect.ValueOf(krr.DefaultSpec())
	checked := 0
	for i := range def.NumField() {
		name := def.Type().Field(i).Tag.Get("flag")
		if name == "" || name == "-" {
			continue
		}
		fl := f.Lookup(name)
		require.NotNil(t, fl, "--%s", name)
		assert.Equal(t, fmt.Sprint(def.Field(i).Interface()), fl.DefValue, "--%s against krr.DefaultSpec().%s", name, def.Type().Field(i).Name)
		checked++
	}
	assert.Equal(t, 8, checked, "every model flag is compared")
	assert.Equal(t, "[0]", f.Lookup("m").DefValue, "--m 0: min(n, krr.DefaultM) centres, as Spec.M = 0")

	zero := krr.DefaultSpec()
	zero.Precision = ""
	for _, s := range []krr.Spec{krr.DefaultSpec(), zero} {
		m, err := s.Model()
		require.NoError(t, err)
		fk, ok := m.(*krr.Falkon)
		require.True(t, ok)
		assert.Equal(t, kernel.Float32, fk.Precision, "precision %q", s.Precision)
		assert.Equal(t, krr.DefaultIterations, fk.Iterations)
	}
}
