package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	out, _, err := runRoot(t, "version", "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, "github.com/gssl/gssl", obj["module"])
	assert.NotEmpty(t, obj["version"])
	assert.NotEmpty(t, obj["go"])
	text, _, err := runRoot(t, "--version")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "gssl "), text)
}

// gssl --json with no command prints nothing on stdout and is a usage
// error (exit status 2), not help text posing as JSON.
func TestJSONAloneIsAUsageError(t *testing.T) {
	out, _, err := runRoot(t, "--json")
	require.Error(t, err)
	assert.True(t, errors.As(err, new(usageError)))
	assert.Empty(t, out)
	_, _, err = runRoot(t, "labelprop", "--bogus")
	assert.True(t, errors.As(err, new(usageError)), "an unknown flag is a usage error")
	out, _, err = runRoot(t)
	require.NoError(t, err)
	assert.Contains(t, out, "Usage:", "gssl alone prints help")
}

// Old flag names still work, with a notice on stderr (never on stdout).
func TestNodeCommandDeprecatedAliases(t *testing.T) {
	out, errw, err := runRoot(t, "eigs", "--k", "3", "--json", "--lcc=false")
	if err != nil { // --lcc is not an eigs flag
		out, errw, err = runRoot(t, "eigs", "--k", "3", "--json")
	}
	require.NoError(t, err)
	assert.Contains(t, errw, "--k is deprecated; use --eigenpairs")
	assert.Equal(t, 3.0, decodeOne(t, []byte(out))["eigenpairs"])
	out, errw, err = runRoot(t, "cluster", "--k", "2", "--restarts", "1", "--json")
	require.NoError(t, err)
	assert.Contains(t, errw, "--k is deprecated; use --clusters")
	assert.Equal(t, 2.0, decodeOne(t, []byte(out))["clusters"])
}

// --plot with an unknown format is refused before anything is computed and
// leaves no file; --out writes the user's ids for every node, also with
// --lcc (the nodes outside the component get empty coordinates).
func TestEmbedPlotAndOut(t *testing.T) {
	dir := t.TempDir()
	bogus := filepath.Join(dir, "x.bogus")
	_, _, err := runRoot(t, "embed", "--plot", bogus)
	assert.ErrorContains(t, err, "--plot "+bogus+": unknown image format")
	_, statErr := os.Stat(bogus)
	assert.True(t, os.IsNotExist(statErr), "no file left behind")

	p := writePlanted(t, 2, 30)
	edges := filepath.Join(dir, "e.tsv")
	b, err := os.ReadFile(filepath.Join(p, "edges.txt"))
	require.NoError(t, err)
	var tsv strings.Builder
	tsv.WriteString("from\tto\n")
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		tsv.WriteString("n" + f[0] + "\tn" + f[1] + "\n")
	}
	tsv.WriteString("lone1\tlone2\n") // a second component
	require.NoError(t, os.WriteFile(edges, []byte(tsv.String()), 0o644))
	out := filepath.Join(dir, "x.csv")
	_, _, err = runRoot(t, "embed", "--edges", edges, "--lcc", "--out", out)
	require.NoError(t, err)
	rows := readCSV(t, out)
	require.Len(t, rows, 1+62)
	assert.Equal(t, []string{"id", "label", "x1", "x2"}, rows[0])
	empty := 0
	for _, r := range rows[1:] {
		assert.True(t, strings.HasPrefix(r[0], "n") || strings.HasPrefix(r[0], "lone"), r[0])
		if r[2] == "" {
			empty++
			assert.True(t, strings.HasPrefix(r[0], "lone"))
		}
	}
	assert.Equal(t, 2, empty)

	cl := filepath.Join(dir, "c.jsonl")
	_, _, err = runRoot(t, "cluster", "--edges", edges, "--lcc", "--clusters", "2", "--out", cl)
	require.NoError(t, err)
	b, err = os.ReadFile(cl)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Len(t, lines, 62)
	assert.Contains(t, string(b), `{"id":"lone1","cluster":null}`)
	assert.Contains(t, string(b), `{"id":"n0","cluster":`)

	ev := filepath.Join(dir, "v.csv")
	_, _, err = runRoot(t, "eigs", "--edges", edges, "--eigenpairs", "3", "--out", ev)
	require.NoError(t, err)
	rows = readCSV(t, ev)
	require.Len(t, rows, 63)
	assert.Equal(t, []string{"id", "v1", "v2", "v3"}, rows[0])
}

// Splits: random:K sizes scale with the graph; a split without test nodes
// reports null with a reason (never NaN); a split listing an unlabelled node
// is refused.
func TestLabelpropSplitEdgeCases(t *testing.T) {
	p := writePlanted(t, 4, 50) // 200 nodes
	out, _, err := runRoot(t, "labelprop", "--data", p, "--split", "random:5", "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, 20.0, obj["train"])
	assert.Equal(t, 60.0, obj["val"]) // ⌊180/3⌋
	assert.Equal(t, 90.0, obj["test"])

	split := filepath.Join(t.TempDir(), "split.txt")
	require.NoError(t, os.WriteFile(split, []byte("train 0\ntrain 60\ntrain 110\ntrain 160\nval 1\nval 61\n"), 0o644))
	out, _, err = runRoot(t, "labelprop", "--data", p, "--split", split, "--json")
	require.NoError(t, err)
	obj = decodeOne(t, []byte(out))
	assert.Nil(t, obj["test_accuracy"])
	assert.Nil(t, obj["macro_f1"])
	assert.Equal(t, "the split has no test node", obj["test_accuracy_reason"])
	assert.NotNil(t, obj["val_accuracy"])

	noVal := filepath.Join(t.TempDir(), "noval.txt")
	require.NoError(t, os.WriteFile(noVal, []byte("train 0\ntrain 60\ntrain 110\ntrain 160\ntest 1\ntest 61\ntest 111\n"), 0o644))
	out, _, err = runRoot(t, "stkr", "--data", p, "--split", noVal, "--p-test", "0", "--eta", "0.9", "--json")
	require.NoError(t, err)
	obj = decodeOne(t, []byte(out))
	assert.Nil(t, obj["val_accuracy_mean"], "no validation nodes: null, not NaN")
	assert.Equal(t, "the split has no labelled validation node", obj["val_accuracy_reason"])
	assert.Equal(t, 3.0, obj["test_nodes"])

	labels := filepath.Join(p, "labels.txt")
	b, err := os.ReadFile(labels)
	require.NoError(t, err)
	b = []byte("-1" + string(b[1:]))
	require.NoError(t, os.WriteFile(labels, b, 0o644))
	_, _, err = runRoot(t, "labelprop", "--data", p, "--split", split)
	assert.ErrorContains(t, err, "train node 0 has no label (−1)")

	_, _, err = runRoot(t, "stkr", "--data", p, "--splits", filepath.Join(p, "missing"))
	assert.ErrorContains(t, err, "is not a folder of split files")
}

// A directed input names the flag that reads it, not a library option.
func TestDirectedInputMessages(t *testing.T) {
	dir := t.TempDir()
	mtx := filepath.Join(dir, "d.mtx")
	require.NoError(t, os.WriteFile(mtx, []byte("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 1\n"), 0o644))
	_, _, err := runRoot(t, "info", "--edges", mtx)
	assert.ErrorContains(t, err, "pass --directed max, sum, mean or mutual")
	assert.NotContains(t, err.Error(), "graph.Options")
	out, _, err := runRoot(t, "info", "--edges", mtx, "--directed", "max", "--json")
	require.NoError(t, err)
	assert.Equal(t, 2.0, decodeOne(t, []byte(out))["edges"])
	e := filepath.Join(dir, "e.csv")
	require.NoError(t, os.WriteFile(e, []byte("a,b\nb,a\n"), 0o644))
	_, _, err = runRoot(t, "info", "--edges", e, "--directed", "error")
	assert.ErrorContains(t, err, "--directed error refuses an edge given twice")
	out, _, err = runRoot(t, "info", "--edges", e, "--json")
	require.NoError(t, err)
	assert.Equal(t, 1.0, decodeOne(t, []byte(out))["edges"], "undirected: merged")
	_, _, err = runRoot(t, "info", "--edges", e, "--directed", "both")
	assert.ErrorContains(t, err, `--directed "both" is invalid`)
}

// info on a user's tables: text ids, class names, dense features and
// targets are reported.
func TestInfoOnUserTables(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	e := write("e.csv", "source,target,weight\nu1,u2,0.5\nu2,u3,2\nu4,u5,1\n")
	l := write("l.csv", "id,label\nu1,cat\nu2,\nu3,dog\nu5,cat\n")
	f := write("f.csv", "id,a,b\nu1,1,0\nu2,0,1\nu3,1,1\nu4,0,0\nu5,2,2\n")
	y := write("y.csv", "id,value\nu1,0.5\nu4,1.5\n")
	out, _, err := runRoot(t, "info", "--edges", e, "--labels", l, "--features", f, "--targets", y, "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, 5.0, obj["nodes"])
	assert.Equal(t, 2.0, obj["components"])
	assert.Equal(t, 2.0, obj["classes"])
	assert.ElementsMatch(t, []any{"cat", "dog"}, obj["class_names"])
	assert.Equal(t, 2.0, obj["unlabelled"])
	assert.Equal(t, 2.0, obj["features"])
	assert.Equal(t, true, obj["dense_features"])
	assert.Equal(t, 2.0, obj["targets"])
	assert.Equal(t, "text", obj["ids"])
}

// An OGB node-property folder is read with --data, with its own split.
func TestOGBFolder(t *testing.T) {
	out, _, err := runRoot(t, "labelprop", "--data", "../../testdata/ogb-tiny/tiny", "--alpha", "0.9", "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, 40.0, obj["nodes"])
	assert.Equal(t, "auto: the data set's split", obj["split"])
	assert.Equal(t, 20.0, obj["train"])
	assert.Equal(t, 10.0, obj["test"])
	out, _, err = runRoot(t, "stkr", "--data", "../../testdata/ogb-tiny/tiny", "--split", "none", "--eta", "0.9", "--json")
	require.NoError(t, err)
	assert.Equal(t, "all-labelled", decodeOne(t, []byte(out))["protocol"])
}

// One label per class: nothing can be cross-validated, and both classifiers
// still predict every other node, saying which hyperparameters they took.
func TestOneLabelPerClass(t *testing.T) {
	dir := t.TempDir()
	e := filepath.Join(dir, "e.csv")
	l := filepath.Join(dir, "l.csv")
	require.NoError(t, os.WriteFile(e, []byte("source,target\na,b\nb,c\nc,d\nd,a\ne,f\nf,g\ng,e\nd,e\n"), 0o644))
	require.NoError(t, os.WriteFile(l, []byte("id,label\na,red\ne,blue\n"), 0o644))
	out, _, err := runRoot(t, "labelprop", "--edges", e, "--labels", l, "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, 0.9, obj["alpha"])
	assert.Equal(t, 5.0, obj["predicted"])
	assert.Contains(t, obj["notes"].([]any)[0], "cannot be chosen by cross-validation")
	out, _, err = runRoot(t, "stkr", "--edges", e, "--labels", l, "--json", "--out", filepath.Join(dir, "s.csv"))
	require.NoError(t, err)
	obj = decodeOne(t, []byte(out))
	assert.Equal(t, []any{0.9}, obj["eta"])
	assert.Equal(t, []any{1.0}, obj["beta"])
	assert.Len(t, readCSV(t, filepath.Join(dir, "s.csv")), 6)
}

// Sizes beyond the graph are refused naming the flag and its range.
func TestSizesBeyondTheGraph(t *testing.T) {
	p := writePlanted(t, 2, 10)
	_, _, err := runRoot(t, "embed", "--data", p, "--dim", "20")
	assert.ErrorContains(t, err, "--dim 20 is invalid: it must be in [1, 20)")
	_, _, err = runRoot(t, "cluster", "--data", p, "--clusters", "21")
	assert.ErrorContains(t, err, "--clusters 21 is invalid: it must be in [1, 20]")
	_, _, err = runRoot(t, "eigs", "--data", p, "--eigenpairs", "21")
	assert.ErrorContains(t, err, "--eigenpairs 21 is invalid: it must be in [1, 20]")
	_, _, err = runRoot(t, "eigs", "--data", p, "--eigenpairs", "-1")
	assert.ErrorContains(t, err, "--eigenpairs -1 is invalid: it must be ≥ 1")
}
