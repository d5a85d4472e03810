package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"github.com/gssl/gssl/protocol"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFeatureFolder writes a node folder of c planted communities of m
// nodes with informative binary features.
func writeFeatureFolder(t *testing.T, c, m, d int) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	n := c * m
	var edges, labels strings.Builder
	for u := 0; u < n; u++ {
		fmt.Fprintln(&labels, u%c)
		for v := u + 1; v < n; v++ {
			p := 0.02
			if u%c == v%c {
				p = 0.25
			}
			if rng.Float64() < p {
				fmt.Fprintf(&edges, "%d %d\n", u, v)
			}
		}
	}
	writeNodeFolder(t, dir, rng, edges.String(), labels.String(), n, d, c, 0.4, 0.1)
	return dir
}

// writeNodeFolder writes edges, labels and a gzipped sparse 0/1 feature
// table into dir: n rows of d columns, entry (u, j) set with probability
// pIn when j ≡ u (mod c), else pOut, drawn from rng.
func writeNodeFolder(t *testing.T, dir string, rng *rand.Rand, edges, labels string, n, d, c int, pIn, pOut float64) {
	t.Helper()
	var feats bytes.Buffer
	zw := gzip.NewWriter(&feats)
	fmt.Fprintf(zw, "# %d %d\n", n, d)
	for u := 0; u < n; u++ {
		var row []string
		for j := 0; j < d; j++ {
			p := pOut
			if j%c == u%c {
				p = pIn
			}
			if rng.Float64() < p {
				row = append(row, fmt.Sprintf("%d:1", j))
			}
		}
		fmt.Fprintln(zw, strings.Join(row, " "))
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "edges.txt"), []byte(edges), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(labels), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "features.txt.gz"), feats.Bytes(), 0o644))
}

func TestClassifyJSON(t *testing.T) {
	dir := writeFeatureFolder(t, 3, 40, 12)
	out := filepath.Join(t.TempDir(), "pred.csv")
	var stdout, stderr bytes.Buffer
	err := runClassify(context.Background(), classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:5,5", Seeds: 2, Folds: 5, Out: out, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, &stdout, &stderr)
	require.NoError(t, err)
	var res map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	for _, k := range []string{"test_accuracy", "val_accuracy", "model", "seconds", "test_accuracy_std"} {
		assert.Contains(t, res, k)
	}
	assert.Greater(t, res["test_accuracy"].(float64), 0.7)
	assert.EqualValues(t, 2, res["seeds_run"])
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	assert.Equal(t, "id,predicted,label,split,p_0,p_1,p_2", lines[0])
	assert.Len(t, lines, 1+120-15, "every node but the 15 training nodes")

	// Without val nodes the hyperparameters come from cross-validation.
	stdout.Reset()
	require.NoError(t, runClassify(context.Background(), classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:10,0", Seeds: 1, Folds: 3, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "correct-smooth"}}, &stdout, &stderr))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Greater(t, res["test_accuracy"].(float64), 0.7)

	// SP-Lap on the graph and feature kernels.
	stdout.Reset()
	require.NoError(t, runClassify(context.Background(), classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:5,5", Seeds: 1, Folds: 5, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "stkr", FeatureWeight: 0.1}}, &stdout, &stderr))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Contains(t, res["model"], "γ=0.1")
}

func TestClassifyErrors(t *testing.T) {
	dir := writeFeatureFolder(t, 2, 10, 4)
	var stdout, stderr bytes.Buffer
	for _, tc := range []struct {
		opts classifyOptions
		want string
	}{
		{classifyOptions{In: nodeInput{Data: dir}, Split: "planetoid", Seeds: 1, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "gcn"}}, "--classifier"},
		{classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:x", Seeds: 1, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "per-class:T,V"},
		{classifyOptions{In: nodeInput{Data: dir}, Split: "planetoid", Seeds: 1, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "no split of its own"},
		{classifyOptions{In: nodeInput{Data: dir}, Split: "planetoid", Seeds: 0, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "--seeds"},
		{classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:3,3", Seeds: 1, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc", FeatureWeight: 1}}, "--feature-weight 1 is invalid: it applies to the stkr classifier only"},
		{classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:3,3", Seeds: 1, Folds: 5, NodeClassSpec: protocol.NodeClassSpec{Classifier: "stkr", FeatureWeight: -1}}, "--feature-weight"},
	} {
		err := runClassify(context.Background(), tc.opts, &stdout, &stderr)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestClassifyUserTables runs on the user's tables: text ids, dense CSV
// features, no split (every labelled node trained on, hyperparameters by
// cross-validation, the unlabelled nodes predicted).
func TestClassifyUserTables(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	var edges, labels, feats strings.Builder
	fmt.Fprintln(&edges, "source,target")
	fmt.Fprintln(&labels, "id,label")
	fmt.Fprintln(&feats, "id,f0,f1,f2")
	const n = 60
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if (u%2 == v%2 && rng.Float64() < 0.2) || rng.Float64() < 0.02 {
				fmt.Fprintf(&edges, "n%d,n%d\n", u, v)
			}
		}
		class := []string{"even", "odd"}[u%2]
		if u%3 != 0 {
			class = ""
		}
		fmt.Fprintf(&labels, "n%d,%s\n", u, class)
		fmt.Fprintf(&feats, "n%d,%g,%g,%g\n", u, float64(u%2)+0.5*rng.NormFloat64(), rng.NormFloat64(), 1.0)
	}
	for name, b := range map[string]string{"edges.csv": edges.String(), "labels.csv": labels.String(), "features.csv": feats.String()} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644))
	}
	out := filepath.Join(dir, "pred.csv")
	var stdout, stderr bytes.Buffer
	in := nodeInput{Edges: filepath.Join(dir, "edges.csv"), Labels: filepath.Join(dir, "labels.csv"), Features: filepath.Join(dir, "features.csv")}
	err := runClassify(context.Background(), classifyOptions{In: in, Split: "auto", Seeds: 1, Folds: 3, Out: out, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	var res map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Nil(t, res["test_accuracy"], "no test nodes without a split")
	// Two classes: ROC AUC chooses (--metric auto) and is the validation score.
	assert.Equal(t, "auc", res["metric"])
	assert.NotNil(t, res["val_auc"], "the cross-validation ROC AUC")
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	assert.Equal(t, "id,predicted,label,split,p_even,p_odd", lines[0])
	assert.Len(t, lines, 1+40, "the 40 unlabelled nodes")
	right := 0
	for _, l := range lines[1:] {
		var u int
		var pred string
		f := strings.Split(l, ",")
		_, err := fmt.Sscanf(f[0], "n%d", &u)
		require.NoError(t, err, l)
		require.NotEqual(t, 0, u%3, "labelled node %s in the output", f[0])
		pred = f[1]
		if pred == []string{"even", "odd"}[u%2] {
			right++
		}
	}
	assert.Greater(t, right, 30, "the user's ids and class names, mostly right")
}

// The --report page and the --json object give the same seconds (the
// report once showed 0.000 while the JSON had the run's time).
func TestClassifyReportSeconds(t *testing.T) {
	dir := writeFeatureFolder(t, 3, 40, 12)
	rep := filepath.Join(t.TempDir(), "rep")
	var stdout, stderr bytes.Buffer
	opts := classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:5,5", Seeds: 1, Folds: 5, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}
	opts.Plots.Report = rep
	require.NoError(t, runClassify(context.Background(), opts, &stdout, &stderr))
	var res map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	html, err := os.ReadFile(filepath.Join(rep, "index.html"))
	require.NoError(t, err)
	m := regexp.MustCompile(`<td>seconds</td><td>([0-9.e+-]+)</td>`).FindSubmatch(html)
	require.NotNil(t, m, "the report has a seconds row")
	got, err := strconv.ParseFloat(string(m[1]), 64)
	require.NoError(t, err)
	assert.Greater(t, got, 0.0)
	assert.Equal(t, res["seconds"], got)
}
