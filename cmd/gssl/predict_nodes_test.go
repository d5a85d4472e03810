package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// TestPredictNewNodesWithFeatures: a model saved by gssl classify predicts
// new nodes from --edges and --features (a CSV table with ids, and our
// sparse text format with --feature-ids) as savedmodel's PredictNodes does
// for the same nodes, bitwise; a new node without edges is predicted too;
// misuse is an error naming the file and the node.
func TestPredictNewNodesWithFeatures(t *testing.T) {
	data := writeFeatureFolder(t, 3, 30, 9)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	edges := write("new_edges.csv", "source,target,weight\nnew_a,1,1\nnew_a,2,0.5\n5,new_b,2\n")
	table := write("new_features.csv", "id,f0,f1,f2,f3,f4,f5,f6,f7,f8\n"+
		"new_b,0,1,0,0,1,0,0,1,0\n"+
		"new_a,1,0,0,1,0,0,1,0,0\n"+
		"new_c,0,0,1,0,0,1,0,0,1\n")
	sparse := write("new_features.txt", "# 3 9\n1:1 4:1 7:1\n0:1 3:1 6:1\n2:1 5:1 8:1\n")
	ids := write("new_ids.txt", "new_b\nnew_a\nnew_c\n")
	want := []serve.NewNode{
		{ID: "new_b", Edges: []serve.Edge{{To: "5", Weight: 2}}, Features: []float64{0, 1, 0, 0, 1, 0, 0, 1, 0}},
		{ID: "new_a", Edges: []serve.Edge{{To: "1", Weight: 1}, {To: "2", Weight: 0.5}}, Features: []float64{1, 0, 0, 1, 0, 0, 1, 0, 0}},
		{ID: "new_c", Features: []float64{0, 0, 1, 0, 0, 1, 0, 0, 1}},
	}
	for _, model := range []string{"sgc", "appnp", "correct-smooth"} {
		saved := filepath.Join(dir, model+".gssl")
		_, _, err := runRoot(t, "classify", "--data", data, "--model", model, "--split", "per-class:5,5", "--save", saved)
		require.NoError(t, err, model)
		s, err := savedmodel.Open(saved)
		require.NoError(t, err)
		expect, err := s.PredictNodes(context.Background(), want)
		require.NoError(t, err, model)
		for _, args := range [][]string{
			{"--edges", edges, "--features", table},
			{"--edges", edges, "--features", sparse, "--feature-ids", ids},
		} {
			stdout, _, err := runRoot(t, append([]string{"predict", "--model", saved, "--json"}, args...)...)
			require.NoError(t, err, "%s %v", model, args)
			var res predictResult
			require.NoError(t, json.Unmarshal([]byte(stdout), &res))
			assert.Equal(t, "edges+features", res.Input)
			assert.Equal(t, expect, res.Predictions, "%s %v", model, args)
		}
		out := filepath.Join(dir, "pred.csv")
		_, _, err = runRoot(t, "predict", "--model", saved, "--edges", edges, "--features", table, "--out", out)
		require.NoError(t, err)
		rows := readCSV(t, out)
		require.Equal(t, []string{"id", "predicted", "p_0", "p_1", "p_2"}, rows[0])
		require.Len(t, rows, 4)
		assert.Equal(t, []string{"new_b", expect[0].Label}, rows[1][:2])

		for _, tc := range []struct {
			args []string
			msg  string
		}{
			{[]string{"--edges", edges}, "give --features FILE"},
			{[]string{"--edges", write("e2.csv", "source,target\nnew_z,1\n"), "--features", table}, `new node "new_z" has no row in --features`},
			{[]string{"--features", write("f2.csv", "id,f0,f1,f2,f3,f4,f5,f6,f7,f8\n3,0,1,0,0,1,0,0,1,0\n")}, `"3" is a fitted node`},
			{[]string{"--features", write("f3.csv", "id,f0,f1\nnew_a,0,1\n")}, "has 2 columns of features; the nodeclass"},
			{[]string{"--features", sparse}, "give --feature-ids FILE"},
			{[]string{"--features", sparse, "--feature-ids", write("ids2.txt", "a\nb\n")}, "lists 2 ids for the 3 rows"},
		} {
			_, _, err := runRoot(t, append([]string{"predict", "--model", saved}, tc.args...)...)
			assert.ErrorContains(t, err, tc.msg, "%s %v", model, tc.args)
		}
	}
}
