package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/gssl/gssl/protocol"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassifyConformal: the coverage and set size that --conformal
// reports are those of the --out file's sets on its test rows, and the
// saved model gives every node the same calibrated probabilities and set
// through gssl predict.
func TestClassifyConformal(t *testing.T) {
	dir := t.TempDir()
	out, saved, pred := filepath.Join(dir, "out.csv"), filepath.Join(dir, "m.gssl"), filepath.Join(dir, "pred.csv")
	var stdout, stderr bytes.Buffer
	require.NoError(t, runClassify(context.Background(), classifyOptions{Split: "auto", Metric: "auto", Seeds: 1, Folds: 3, Conformal: 0.1, Out: out, Save: saved, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, &stdout, &stderr), stderr.String())
	var res struct {
		Metric     string `json:"metric"`
		Confidence struct {
			Coverage  float64 `json:"coverage"`
			SetSize   float64 `json:"mean_set_size"`
			Tested    int     `json:"test_nodes"`
			ECEBefore float64 `json:"ece_before"`
			ECEAfter  float64 `json:"ece_after"`
		} `json:"confidence"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Equal(t, "accuracy", res.Metric)
	rows := readCSV(t, out)
	head := rows[0]
	label, split, set := slices.Index(head, "label"), slices.Index(head, "split"), slices.Index(head, "set")
	require.True(t, label > 0 && split > 0 && set > 0, "columns %v", head)
	var n, hit, size int
	byID := map[string][]string{}
	for _, r := range rows[1:] {
		byID[r[0]] = r
		if r[split] != "test" {
			continue
		}
		n++
		var s []string // an empty set is possible with the randomised score
		if r[set] != "" {
			s = strings.Split(r[set], "|")
		}
		size += len(s)
		if slices.Contains(s, r[label]) {
			hit++
		}
	}
	assert.Equal(t, n, res.Confidence.Tested)
	assert.Equal(t, float64(hit)/float64(n), res.Confidence.Coverage)
	assert.Equal(t, float64(size)/float64(n), res.Confidence.SetSize)
	assert.Less(t, res.Confidence.ECEAfter, res.Confidence.ECEBefore)

	stdout.Reset()
	require.NoError(t, runPredict(context.Background(), predictOptions{Model: saved, Out: pred}, &stdout, &stderr), stderr.String())
	prows := readCSV(t, pred)
	// The predict file has id, predicted, p_<class>…, set; the classify file
	// id, predicted, label, split, p_<class>…, set.
	compared := 0
	for _, r := range prows[1:] {
		c, ok := byID[r[0]]
		if !ok {
			continue // a training node: not in classify's --out
		}
		compared++
		require.Equal(t, c[4:], r[2:], "node %s", r[0])
		require.Equal(t, c[1], r[1], "node %s", r[0])
	}
	assert.Equal(t, len(rows)-1, compared)
}

// TestClassifyMetricAUC: on a binary task --metric auto chooses by ROC
// AUC, and the reported test AUC is the pairwise count on the --out file.
func TestClassifyMetricAUC(t *testing.T) {
	dir := writeFeatureFolder(t, 2, 60, 20)
	out := filepath.Join(t.TempDir(), "out.csv")
	var stdout, stderr bytes.Buffer
	require.NoError(t, runClassify(context.Background(), classifyOptions{In: nodeInput{Data: dir}, Split: "per-class:10,20", Metric: "auto", Seeds: 1, Folds: 3, Out: out, JSON: true, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, &stdout, &stderr), stderr.String())
	var res struct {
		Metric  string   `json:"metric"`
		TestAUC *float64 `json:"test_auc"`
		ValAUC  *float64 `json:"val_auc"`
		ValAcc  any      `json:"val_accuracy"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	require.Equal(t, "auc", res.Metric)
	require.NotNil(t, res.TestAUC)
	require.NotNil(t, res.ValAUC)
	assert.Nil(t, res.ValAcc)
	rows := readCSV(t, out)
	head := rows[0]
	label, split, p1 := slices.Index(head, "label"), slices.Index(head, "split"), slices.Index(head, "p_1")
	var pos, neg []float64
	for _, r := range rows[1:] {
		if r[split] != "test" {
			continue
		}
		v, err := strconv.ParseFloat(r[p1], 64)
		require.NoError(t, err)
		if r[label] == "1" {
			pos = append(pos, v)
		} else {
			neg = append(neg, v)
		}
	}
	var num float64
	for _, a := range pos {
		for _, b := range neg {
			switch {
			case a > b:
				num++
			case a == b:
				num += 0.5
			}
		}
	}
	assert.InDelta(t, num/float64(len(pos)*len(neg)), *res.TestAUC, 1e-12)
}

func TestClassifyConfidenceFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		opts classifyOptions
		want string
	}{
		{classifyOptions{Split: "auto", Metric: "f1", Seeds: 1, Folds: 3, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "--metric"},
		{classifyOptions{Split: "auto", Metric: "auto", Conformal: 1.5, Seeds: 1, Folds: 3, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "--conformal 1.5"},
		{classifyOptions{Split: "none", Metric: "auto", Conformal: 0.1, Seeds: 1, Folds: 3, NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}}, "validation nodes"},
	} {
		var stdout, stderr bytes.Buffer
		err := runClassify(context.Background(), tc.opts, &stdout, &stderr)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestLabelpropConformal: gssl labelprop --conformal reports the coverage
// of the --out file's sets on its test rows, and its saved model answers
// gssl predict with the same calibrated probabilities and sets.
func TestLabelpropConformal(t *testing.T) {
	dir := t.TempDir()
	out, saved, pred := filepath.Join(dir, "out.csv"), filepath.Join(dir, "m.gssl"), filepath.Join(dir, "pred.csv")
	opts := defaults()
	opts.Conformal, opts.Out, opts.Save, opts.JSON = 0.2, out, saved, true
	var stdout, stderr bytes.Buffer
	require.NoError(t, runLabelprop(context.Background(), opts, &stdout, &stderr), stderr.String())
	var res struct {
		Confidence struct {
			Coverage float64 `json:"coverage"`
			Tested   int     `json:"test_nodes"`
		} `json:"confidence"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	rows := readCSV(t, out)
	label, split, set := slices.Index(rows[0], "label"), slices.Index(rows[0], "split"), slices.Index(rows[0], "set")
	require.True(t, label > 0 && split > 0 && set > 0, "columns %v", rows[0])
	n, hit := 0, 0
	byID := map[string][]string{}
	for _, r := range rows[1:] {
		byID[r[0]] = r
		if r[split] == "test" {
			n++
			if slices.Contains(strings.Split(r[set], "|"), r[label]) {
				hit++
			}
		}
	}
	assert.Equal(t, n, res.Confidence.Tested)
	assert.Equal(t, float64(hit)/float64(n), res.Confidence.Coverage)
	require.NoError(t, runPredict(context.Background(), predictOptions{Model: saved, Out: pred}, &stdout, &stderr), stderr.String())
	for _, r := range readCSV(t, pred)[1:] {
		if c, ok := byID[r[0]]; ok {
			require.Equal(t, c[4:], r[2:], "node %s", r[0])
		}
	}
}
