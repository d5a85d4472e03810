package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/protocol"
)

// TestClassifyConformal: the coverage and set size that --conformal
// reports are those of the --out file's sets on its test rows, the
// calibrated probabilities are distributions with the uncalibrated
// model's predicted class, and the saved model gives every node the same
// calibrated probabilities and set through gssl predict. On Cora with SGC,
// and on chameleon with linearised belief propagation (whose centred
// beliefs are not probabilities: Predict maps them to some).
func TestClassifyConformal(t *testing.T) {
	t.Run("sgc cora", func(t *testing.T) {
		checkClassifyConformal(t, classifyOptions{Split: "auto", NodeClassSpec: protocol.NodeClassSpec{Classifier: "sgc"}})
	})
	t.Run("linbp chameleon", func(t *testing.T) {
		data := sharedtest.Data(t, "chameleon_filtered")
		checkClassifyConformal(t, classifyOptions{In: nodeInput{Data: data}, Split: filepath.Join(data, "split_0.txt"), NodeClassSpec: protocol.NodeClassSpec{Classifier: "linbp"}})
	})
}

func checkClassifyConformal(t *testing.T, opts classifyOptions) {
	name := opts.Classifier
	dir := t.TempDir()
	out, saved, pred, raw := filepath.Join(dir, "out.csv"), filepath.Join(dir, "m.gssl"), filepath.Join(dir, "pred.csv"), filepath.Join(dir, "raw.csv")
	opts.Metric, opts.Seeds, opts.Folds, opts.JSON = "auto", 1, 3, true
	var stdout, stderr bytes.Buffer
	plain := opts
	plain.Out = raw
	require.NoError(t, runClassify(context.Background(), plain, &stdout, &stderr), "%s: %s", name, stderr.String())
	stdout.Reset()
	opts.Conformal, opts.Out, opts.Save = 0.1, out, saved
	require.NoError(t, runClassify(context.Background(), opts, &stdout, &stderr), "%s: %s", name, stderr.String())
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
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res), name)
	assert.Equal(t, "accuracy", res.Metric, name)
	rows, rawRows := readCSV(t, out), readCSV(t, raw)
	head := rows[0]
	label, split, set := slices.Index(head, "label"), slices.Index(head, "split"), slices.Index(head, "set")
	require.True(t, label > 0 && split > 0 && set > 0, "%s: columns %v", name, head)
	require.Len(t, rawRows, len(rows), name)
	var n, hit, size int
	byID := map[string][]string{}
	for k, r := range rows[1:] {
		byID[r[0]] = r
		// Both the model's and the calibrated probabilities are
		// distributions, and calibration keeps the predicted class.
		checkDistribution(t, name+" raw", rawRows[1+k][4:])
		checkDistribution(t, name+" calibrated", r[4:set])
		require.Equal(t, rawRows[1+k][:2], r[:2], "%s: node %s", name, r[0])
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
	t.Logf("%s: coverage %.4f, mean set size %.3f, ECE %.4f → %.4f on %d test nodes", name, res.Confidence.Coverage, res.Confidence.SetSize, res.Confidence.ECEBefore, res.Confidence.ECEAfter, n)
	assert.Equal(t, n, res.Confidence.Tested, name)
	assert.Equal(t, float64(hit)/float64(n), res.Confidence.Coverage, name)
	assert.Equal(t, float64(size)/float64(n), res.Confidence.SetSize, name)
	assert.Less(t, res.Confidence.ECEAfter, res.Confidence.ECEBefore, name)

	stdout.Reset()
	require.NoError(t, runPredict(context.Background(), predictOptions{Model: saved, Out: pred}, &stdout, &stderr), "%s: %s", name, stderr.String())
	prows := readCSV(t, pred)
	// The predict file has id, predicted, p_<class>…, set; the classify file
	// id, predicted, label, split, p_<class>…, set.
	require.Equal(t, head[4:], prows[0][2:], name)
	compared := 0
	for _, r := range prows[1:] {
		c, ok := byID[r[0]]
		if !ok {
			continue // a training node: not in classify's --out
		}
		compared++
		require.Equal(t, c[4:], r[2:], "%s: node %s", name, r[0])
		require.Equal(t, c[1], r[1], "%s: node %s", name, r[0])
	}
	assert.Equal(t, len(rows)-1, compared, name)
}

// checkDistribution checks that the printed numbers are non-negative and
// sum to 1.
func checkDistribution(t *testing.T, what string, cells []string) {
	t.Helper()
	sum := 0.0
	for _, c := range cells {
		v, err := strconv.ParseFloat(c, 64)
		require.NoError(t, err, what)
		require.GreaterOrEqual(t, v, 0.0, "%s: %v", what, cells)
		sum += v
	}
	require.InDelta(t, 1, sum, 1e-12, "%s: %v", what, cells)
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
