package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
)

// runRoot runs gssl with args in the current directory and returns stdout
// and stderr.
func runRoot(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRoot()
	var out, errw bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errw)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errw.String(), err
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows
}

// From an empty directory, with no ../shared and no testdata, the commands
// work on the Cora embedded in the binary.
func TestEmbeddedDefaultFromEmptyDir(t *testing.T) {
	t.Chdir(t.TempDir())
	out, _, err := runRoot(t, "labelprop", "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, "embedded:cora", obj["data"])
	assert.Equal(t, coraPeerTest, obj["test_accuracy"], "the Planetoid split of the embedded copy")
	out, _, err = runRoot(t, "info", "--json")
	require.NoError(t, err)
	assert.Equal(t, 2708.0, decodeOne(t, []byte(out))["nodes"])
}

// The acceptance test of the user's own data: a CSV edge list with a header
// and string ids, and a labels CSV with class names and blanks, give a row
// for every unlabelled node with the ids and class names as written, and the
// same predictions (so the same accuracy) as the same graph in the folder
// layout.
func TestLabelpropUserCSVMatchesFolder(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	dir := t.TempDir()
	t.Chdir(dir)
	names := []string{"Case Based", "Genetic_Algorithms", "Neural, Networks", "Probabilistic Methods", "Reinforcement_Learning", "Rule_Learning", "Theory"}
	hidden := map[int]bool{}
	for _, part := range [][]int{ds.Split.Val, ds.Split.Test} {
		for _, i := range part {
			hidden[i] = true
		}
	}
	// The user's files: string ids, class names, blanks and missing rows.
	var e, l, folderEdges, folderLabels bytes.Buffer
	e.WriteString("source,target\n")
	for i := 0; i < ds.Graph.Nodes(); i++ {
		cols, _ := ds.Graph.Row(i)
		for _, j := range cols {
			if int(j) > i {
				fmt.Fprintf(&e, "paper_%d,paper_%d\n", i, j)
				fmt.Fprintf(&folderEdges, "%d %d\n", i, j)
			}
		}
	}
	l.WriteString("id,label\n")
	for i, c := range ds.Labels {
		switch {
		case hidden[i] && i%2 == 0:
			fmt.Fprintf(&l, "paper_%d,\n", i) // blank
		case hidden[i]: // missing row
		default:
			fmt.Fprintf(&l, "paper_%d,%q\n", i, names[c])
		}
		if hidden[i] {
			c = -1
		}
		fmt.Fprintf(&folderLabels, "%d\n", c)
	}
	require.NoError(t, os.WriteFile("e.csv", e.Bytes(), 0o644))
	require.NoError(t, os.WriteFile("l.csv", l.Bytes(), 0o644))
	require.NoError(t, os.Mkdir("folder", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("folder", "edges.txt"), folderEdges.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join("folder", "labels.txt"), folderLabels.Bytes(), 0o644))

	out, _, err := runRoot(t, "labelprop", "--edges", "e.csv", "--labels", "l.csv", "--alpha", "0.9", "--out", "p.csv", "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(out))
	assert.Equal(t, "all-labelled", obj["protocol"])
	assert.Equal(t, 1500.0, obj["predicted"])
	assert.Nil(t, obj["test_accuracy"], "no test split: null, with a reason")
	assert.Contains(t, obj["test_accuracy_reason"], "no test split")
	assert.ElementsMatch(t, names, obj["class_names"])
	_, _, err = runRoot(t, "labelprop", "--data", "folder", "--alpha", "0.9", "--out", "q.csv")
	require.NoError(t, err)

	user, folder := readCSV(t, "p.csv"), readCSV(t, "q.csv")
	require.Len(t, user, 1501, "a row for every unlabelled node")
	require.Len(t, folder, 1501)
	want := []string{"id", "predicted"}
	for _, n := range names {
		want = append(want, "p_"+n)
	}
	assert.ElementsMatch(t, want, user[0])
	byID := map[string][]string{}
	for _, r := range folder[1:] {
		byID[r[0]] = r
	}
	index := map[string]int{}
	for k, n := range names {
		index[n] = k
	}
	right := 0
	for _, r := range user[1:] {
		require.True(t, strings.HasPrefix(r[0], "paper_"), r[0])
		i, err := strconv.Atoi(strings.TrimPrefix(r[0], "paper_"))
		require.NoError(t, err)
		require.True(t, hidden[i], "%s was labelled", r[0])
		c, ok := index[r[1]]
		require.True(t, ok, "class %q as written", r[1])
		assert.Equal(t, byID[strconv.Itoa(i)][1], strconv.Itoa(c), "node %s", r[0])
		if c == ds.Labels[i] {
			right++
		}
	}
	acc := float64(right) / 1500
	assert.Greater(t, acc, 0.8, "1208 labels on Cora")

	// --alpha auto: a chosen by cross-validation over the labelled nodes.
	out, _, err = runRoot(t, "labelprop", "--edges", "e.csv", "--labels", "l.csv", "--out", "p.jsonl", "--json")
	require.NoError(t, err)
	obj = decodeOne(t, []byte(out))
	assert.Equal(t, 5.0, obj["folds"])
	assert.Len(t, obj["grid_cv_accuracy"], 6)
	assert.Greater(t, obj["cv_accuracy"], 0.8)
	// The folds follow the ids ("paper_<i>" sorts as "<i>" does), not the
	// order of the files: the folder layout makes the same choice.
	fout, _, err := runRoot(t, "labelprop", "--data", "folder", "--out", "q.jsonl", "--json")
	require.NoError(t, err)
	fobj := decodeOne(t, []byte(fout))
	for _, k := range []string{"alpha", "cv_accuracy", "grid_cv_accuracy", "folds"} {
		assert.Equal(t, fobj[k], obj[k], k)
	}
	b, err := os.ReadFile("p.jsonl")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Len(t, lines, 1500)
	row := decodeOne(t, []byte(lines[0]))
	assert.Contains(t, row["id"], "paper_")
	assert.Contains(t, names, row["predicted"])
	assert.Contains(t, row, "p_Neural, Networks")
	fb, err := os.ReadFile("q.jsonl")
	require.NoError(t, err)
	folderPred := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(fb)), "\n") {
		r := decodeOne(t, []byte(line))
		folderPred[r["id"].(string)] = r["predicted"].(string)
	}
	for _, line := range lines {
		r := decodeOne(t, []byte(line))
		id := strings.TrimPrefix(r["id"].(string), "paper_")
		assert.Equal(t, folderPred[id], strconv.Itoa(index[r["predicted"].(string)]), "node %s", id)
	}

	// STKR on the same files: its own protocol, the same id and class
	// vocabulary.
	out, _, err = runRoot(t, "stkr", "--edges", "e.csv", "--labels", "l.csv", "--eta", "0.9", "--ridge", "0.1,", "--out", "s.csv", "--json")
	require.Error(t, err, "a bad --ridge is refused")
	out, _, err = runRoot(t, "stkr", "--edges", "e.csv", "--labels", "l.csv", "--eta", "0.9", "--ridge", "1", "--folds", "3", "--out", "s.csv", "--json")
	require.NoError(t, err)
	obj = decodeOne(t, []byte(out))
	assert.Equal(t, "all-labelled", obj["protocol"])
	assert.Greater(t, obj["cv_accuracy"], 0.6, "chance is 1/7")
	s := readCSV(t, "s.csv")
	require.Len(t, s, 1501)
	right = 0
	for _, r := range s[1:] {
		i, _ := strconv.Atoi(strings.TrimPrefix(r[0], "paper_"))
		if index[r[1]] == ds.Labels[i] {
			right++
		}
	}
	assert.Greater(t, float64(right)/1500, 0.75)
}
