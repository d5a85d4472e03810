package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/protocol"
)

// userCurve writes the synthetic curve as the files a user would have: a
// features CSV with a header and an id column, targets with blanks for the
// points to predict, and test files; it returns the paths and the data.
func userCurve(t *testing.T, n int) (dir string, x *mat.Dense, y []float64, xt *mat.Dense, yt []float64, known []int) {
	dir = t.TempDir()
	var err error
	x, y, xt, yt, err = imgp.SyntheticCurve(n, 30, 3)
	require.NoError(t, err)
	write := func(name string, m *mat.Dense, vals []float64, prefix string, blank func(i int) bool) {
		var f, v strings.Builder
		r, c := m.Dims()
		f.WriteString("name")
		for j := 0; j < c; j++ {
			fmt.Fprintf(&f, ",x%d", j)
		}
		f.WriteString("\n")
		v.WriteString("name,target\n")
		for i := 0; i < r; i++ {
			fmt.Fprintf(&f, "%s%d", prefix, i)
			for j := 0; j < c; j++ {
				fmt.Fprintf(&f, ",%s", strconv.FormatFloat(m.At(i, j), 'g', -1, 64))
			}
			f.WriteString("\n")
			if blank(i) {
				fmt.Fprintf(&v, "%s%d,\n", prefix, i)
			} else {
				fmt.Fprintf(&v, "%s%d,%s\n", prefix, i, strconv.FormatFloat(vals[i], 'g', -1, 64))
			}
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_x.csv"), []byte(f.String()), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"_y.csv"), []byte(v.String()), 0o644))
	}
	write("train", x, y, "p", func(i int) bool { return i%4 != 0 })
	write("test", xt, yt, "q", func(int) bool { return false })
	for i := 0; i < n; i += 4 {
		known = append(known, i)
	}
	return dir, x, y, xt, yt, known
}

func readCSVRows(t *testing.T, path string) []map[string]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for j, k := range recs[0] {
			m[k] = r[j]
		}
		out = append(out, m)
	}
	return out
}

func parseNum(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

// TestIMGPOnUserPoints: --features/--targets (ids, header, blanks) and
// --test-features; --out has a row per unlabelled point and per test point
// with the user's ids, and the test predictions equal the library's on the
// same standardised data.
func TestIMGPOnUserPoints(t *testing.T) {
	dir, x, y, xt, _, known := userCurve(t, 200)
	opts := smallIMGP()
	opts.In.Points = pointInput{Features: filepath.Join(dir, "train_x.csv"), TestFeatures: filepath.Join(dir, "test_x.csv"), IDs: "name"}
	opts.In.Targets = pointTargets{Targets: filepath.Join(dir, "train_y.csv"), TestTargets: filepath.Join(dir, "test_y.csv")}
	opts.Out = filepath.Join(dir, "pred.csv")
	opts.Lik.Probes = -1
	var out, errw bytes.Buffer
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 200.0, obj["nodes"])
	assert.Equal(t, 50.0, obj["n_labelled"])
	assert.Equal(t, 30.0, obj["test"])
	_, ok := obj["rmse"].(float64)
	assert.True(t, ok, "scored with --test-targets")
	rows := readCSVRows(t, opts.Out)
	require.Len(t, rows, 150+30)
	assert.Equal(t, "p1", rows[0]["id"])
	assert.Equal(t, "features", rows[0]["set"])
	assert.Equal(t, "q0", rows[150]["id"])

	// The same fit through the library.
	ky := make([]float64, len(known))
	for p, i := range known {
		ky[p] = y[i]
	}
	mu, sd := meanStd(ky)
	for p := range ky {
		ky[p] = (ky[p] - mu) / sd
	}
	r := &imgp.Regressor{K: 8, Nu: 2, Eigenpairs: 20, Iterations: 5, LearningRate: 0.05, Probes: 2, Seed: 1, Euclidean: &gp.Regressor{}}
	require.NoError(t, r.FitIndexed(context.Background(), x, known, ky))
	p, err := r.Predict(context.Background(), xt)
	require.NoError(t, err)
	for i := range p.Mean {
		assert.InDelta(t, mu+sd*p.Mean[i], parseNum(t, rows[150+i]["prediction"]), 1e-6)
		assert.InDelta(t, sd*sd*p.Variance[i], parseNum(t, rows[150+i]["variance"]), 1e-6)
	}

	// JSON Lines by extension; no test files: only the unlabelled rows.
	opts.In.Points.TestFeatures, opts.In.Targets.TestTargets = "", ""
	opts.Out = filepath.Join(dir, "pred.jsonl")
	out.Reset()
	require.NoError(t, runIMGP(context.Background(), opts, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Nil(t, obj["rmse"], "nothing to score")
	b, err := os.ReadFile(opts.Out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Len(t, lines, 150)
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, "p1", first["id"])
	assert.Nil(t, first["target"])
}

func meanStd(v []float64) (float64, float64) {
	var m, s float64
	for _, x := range v {
		m += x / float64(len(v))
	}
	for _, x := range v {
		s += (x - m) * (x - m) / float64(len(v))
	}
	return m, math.Sqrt(s)
}

// TestPlotBogusLeavesNoFile: --plot x.bogus is refused before any work and
// leaves no file (#16).
func TestPlotBogusLeavesNoFile(t *testing.T) {
	opts := smallIMGP()
	opts.In.Synthetic = 100
	opts.Plots.Plot = filepath.Join(t.TempDir(), "x.bogus")
	var out, errw bytes.Buffer
	require.ErrorContains(t, runIMGP(context.Background(), opts, &out, &errw), "unknown image format")
	_, err := os.Stat(opts.Plots.Plot)
	assert.True(t, os.IsNotExist(err))
}

// TestDeprecatedAliases: an old flag name still works and prints a notice
// on stderr.
func TestDeprecatedAliases(t *testing.T) {
	root := newRoot()
	var out, errw bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errw)
	root.SetArgs([]string{"imgp", "--json", "--synthetic", "100", "--k", "8", "--iterations", "2", "--eigenpairs", "10", "--likelihood-probes", "-1"})
	require.NoError(t, root.Execute())
	assert.Contains(t, errw.String(), "--k is deprecated; use --neighbors")
	assert.Contains(t, errw.String(), "--iterations is deprecated; use --max-iter")
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 8.0, obj["k"])
}

// TestGPOnUserPoints: gssl gp on the user's files predicts the blank rows
// and the test points as the library does, and scores the test points.
func TestGPOnUserPoints(t *testing.T) {
	dir, x, y, xt, yt, known := userCurve(t, 120)
	opts := gpOptions{Spec: gp.Spec{Covariance: "matern52", MaxIter: 200}, In: regressionInput{RegressionData: RegressionData{Points: pointInput{Features: filepath.Join(dir, "train_x.csv"), TestFeatures: filepath.Join(dir, "test_x.csv"), IDs: "1"},
		Targets: pointTargets{Targets: filepath.Join(dir, "train_y.csv"), TestTargets: filepath.Join(dir, "test_y.csv")}}}, Out: filepath.Join(dir, "gp.csv"), JSON: true}
	var out, errw bytes.Buffer
	require.NoError(t, runGP(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 30.0, obj["n_labelled"])
	assert.Equal(t, 90.0+30, obj["n_predicted"])
	rows := readCSVRows(t, opts.Out)
	require.Len(t, rows, 120)
	assert.Equal(t, "p1", rows[0]["id"])
	assert.Equal(t, "q29", rows[119]["id"])

	ky := make([]float64, len(known))
	for p, i := range known {
		ky[p] = y[i]
	}
	mu, sd := meanStd(ky)
	for p := range ky {
		ky[p] = (ky[p] - mu) / sd
	}
	m := &gp.Regressor{}
	require.NoError(t, m.Fit(context.Background(), protocol.Rows(x, known), ky))
	pr, err := m.Predict(context.Background(), xt)
	require.NoError(t, err)
	mean := pr.Mean
	var se float64
	for i := range mean {
		got := parseNum(t, rows[90+i]["prediction"])
		assert.InDelta(t, mu+sd*mean[i], got, 1e-6)
		se += (got - yt[i]) * (got - yt[i])
	}
	assert.InDelta(t, math.Sqrt(se/float64(len(mean))), obj["rmse"], 1e-9)

	// No data: an error naming the flags; too little memory: refused.
	require.ErrorContains(t, runGP(context.Background(), gpOptions{Spec: gp.Spec{Covariance: "matern52", MaxIter: 10}}, &out, &errw), "--features FILE --targets FILE")
	opts.MaxMemory = "1KB"
	require.ErrorContains(t, runGP(context.Background(), opts, &out, &errw), "--max-memory 1024B")
}

// TestPointsFromNumPy: features and targets saved by NumPy (testdata/points,
// make.py) give the same predictions as the same arrays saved as text by
// numpy.savetxt; labels.npy (−1 = to predict) drives svm.
func TestPointsFromNumPy(t *testing.T) {
	td := filepath.Join("..", "..", "testdata", "points")
	run := func(features, targets string) []map[string]string {
		out := filepath.Join(t.TempDir(), "p.csv")
		opts := gpOptions{Spec: gp.Spec{Covariance: "matern52", MaxIter: 100}, In: regressionInput{RegressionData: RegressionData{Points: pointInput{Features: filepath.Join(td, features)}, Targets: pointTargets{Targets: filepath.Join(td, targets)}}}, Out: out, JSON: true}
		var stdout, errw bytes.Buffer
		require.NoError(t, runGP(context.Background(), opts, &stdout, &errw))
		assert.Equal(t, 45.0, decodeOne(t, stdout.Bytes())["n_labelled"])
		return readCSVRows(t, out)
	}
	npy, txt := run("features.npy", "targets.npy"), run("features.csv", "targets.csv")
	require.Len(t, npy, 15)
	require.Len(t, txt, 15)
	for i := range npy {
		assert.Equal(t, txt[i]["id"], npy[i]["id"])
		assert.InDelta(t, parseNum(t, txt[i]["prediction"]), parseNum(t, npy[i]["prediction"]), 1e-9)
	}
	f32 := run("features_f32.npy", "targets.npy")
	assert.InDelta(t, parseNum(t, npy[0]["prediction"]), parseNum(t, f32[0]["prediction"]), 1e-3)

	var stdout, errw bytes.Buffer
	opts := svmOptions{SVMData: protocol.SVMData{Points: pointInput{Features: filepath.Join(td, "features.npy")}, Labels: pointLabels{Labels: filepath.Join(td, "labels.npy")}}, Model: svmModelFlags{Kernel: "gaussian", Sigma: 0.5, C: 10}, JSON: true}
	require.NoError(t, runSVM(context.Background(), opts, &stdout, &errw))
	obj := decodeOne(t, stdout.Bytes())
	assert.Equal(t, 45.0, obj["train"])
	assert.Equal(t, 15.0, obj["test"])
	assert.Equal(t, 1.0, obj["train_accuracy"])

	opts.Points.IDs = "id"
	require.ErrorContains(t, runSVM(context.Background(), opts, &stdout, &errw), "a NumPy array has no id column")
}

// TestOutIsAtomic: a failed write leaves an existing --out file as it was
// and no temporary file behind.
func TestOutIsAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.csv")
	require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
	err := writeAtomic(p, func(w io.Writer) error {
		if _, err := w.Write([]byte("new, half")); err != nil {
			return err
		}
		return errors.New("interrupted")
	})
	require.ErrorContains(t, err, "interrupted")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "old\n", string(b))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	require.NoError(t, writeTable(p, []string{"id", "v"}, 2, func(r int, rec []any) {
		rec[0], rec[1] = r, math.NaN()
	}))
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "id,v\n0,\n1,\n", string(b), "NaN is an empty field")
	require.NoError(t, writeTable(p+".jsonl", []string{"id", "v"}, 1, func(r int, rec []any) {
		rec[0], rec[1] = "a\"b", math.Inf(1)
	}))
	b, err = os.ReadFile(p + ".jsonl")
	require.NoError(t, err)
	assert.Equal(t, `{"id":"a\"b","v":null}`+"\n", string(b), "never NaN or Inf in JSON")
}
