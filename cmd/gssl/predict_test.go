package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

const (
	serveEdges  = "../../testdata/serve/edges.csv"
	serveLabels = "../../testdata/serve/labels.csv"
)

// saveTiny fits label spreading on testdata/serve with --save and --out.
func saveTiny(t *testing.T, extra ...string) (model, out string) {
	t.Helper()
	dir := t.TempDir()
	model, out = filepath.Join(dir, "tiny.gssl"), filepath.Join(dir, "fit.csv")
	// docs/serve.md's command, with --out and --json.
	args := append([]string{"labelprop", "--edges", serveEdges, "--labels", serveLabels, "--alpha", "0.9",
		"--save", model, "--out", out, "--json"}, extra...)
	stdout, _, err := runRoot(t, args...)
	require.NoError(t, err)
	assert.Equal(t, model, decodeOne(t, []byte(stdout))["saved"])
	return model, out
}

// TestSaveThenPredictFitted: predict without inputs gives the fitting
// command's --out rows, to the last digit.
func TestSaveThenPredictFitted(t *testing.T) {
	model, fitOut := saveTiny(t)
	pred := filepath.Join(t.TempDir(), "pred.csv")
	stdout, _, err := runRoot(t, "predict", "--model", model, "--out", pred, "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(stdout))
	assert.Equal(t, "fitted", obj["input"])
	assert.Equal(t, 12.0, obj["predicted"])
	fit, all := readCSV(t, fitOut), readCSV(t, pred)
	require.Equal(t, fit[0], all[0], "the same columns as labelprop --out")
	byID := map[string][]string{}
	for _, r := range all[1:] {
		byID[r[0]] = r
	}
	require.Len(t, fit, 1+8, "labelprop --out lists the 8 unlabelled nodes")
	for _, r := range fit[1:] {
		assert.Equal(t, r, byID[r[0]])
	}
	// Without --out the rows go to stdout.
	text, _, err := runRoot(t, "predict", "--model", model)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(text, "id,predicted,p_Neural_Networks,p_Theory\n"), text)
	assert.Equal(t, 13, strings.Count(text, "\n"))
}

func TestPredictNewNodes(t *testing.T) {
	model, _ := saveTiny(t)
	dir := t.TempDir()
	edges := filepath.Join(dir, "new.csv")
	// new_1 in the first community (its rows written both ways round),
	// new_2 in the second.
	require.NoError(t, os.WriteFile(edges, []byte("source,target,weight\nnew_1,paper_2,1\npaper_3,new_1,0.5\nnew_2,paper_11,1\nnew_2,paper_7,0.25\n"), 0o644))
	stdout, _, err := runRoot(t, "predict", "--model", model, "--edges", edges, "--json")
	require.NoError(t, err)
	var res predictResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	require.Len(t, res.Predictions, 2)

	s, err := savedmodel.Open(model)
	require.NoError(t, err)
	want, err := s.PredictNodes(context.Background(), []serve.NewNode{
		{ID: "new_1", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_3", Weight: 0.5}}},
		{ID: "new_2", Edges: []serve.Edge{{To: "paper_11", Weight: 1}, {To: "paper_7", Weight: 0.25}}},
	})
	require.NoError(t, err)
	assert.Equal(t, want, res.Predictions)
	assert.Equal(t, "Neural_Networks", res.Predictions[0].Label)
	assert.Equal(t, "Theory", res.Predictions[1].Label)
	// The numbers docs/serve.md shows for the same request.
	assert.Equal(t, []float64{0.9503536144505139, 0.04964638554948603}, res.Predictions[0].Probabilities)

	for _, c := range []struct{ body, msg string }{
		{"a,b\npaper_1,paper_2\n", "line 2: paper_1 and paper_2 are both fitted nodes"},
		{"a,b\nx,y\n", "line 2: neither x nor y is a fitted node"},
		{"a,b,w\nx,paper_1,-1\n", "weight"},
	} {
		require.NoError(t, os.WriteFile(edges, []byte(c.body), 0o644))
		_, _, err := runRoot(t, "predict", "--model", model, "--edges", edges, "--header", "yes")
		require.Error(t, err, c.body)
		assert.Contains(t, err.Error(), c.msg)
	}
	_, _, err = runRoot(t, "predict", "--model", model, "--features", edges)
	assert.Error(t, err)
	_, _, err = runRoot(t, "predict")
	assert.ErrorContains(t, err, "--model FILE is required")
	_, _, err = runRoot(t, "predict", "--model", model, "--edges", edges, "--features", edges)
	assert.ErrorContains(t, err, "exclude each other")
}

func TestPredictDamagedModel(t *testing.T) {
	model, _ := saveTiny(t)
	b, err := os.ReadFile(model)
	require.NoError(t, err)
	// A byte of the scores (inside a section's payload, wherever the
	// layout puts it): the section's checksum catches it.
	at := bytes.Index(b, []byte("scores"))
	require.Positive(t, at)
	b[at+len("scores")+3] ^= 1
	bad := filepath.Join(t.TempDir(), "bad.gssl")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	_, _, err = runRoot(t, "predict", "--model", bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), bad)
	assert.Contains(t, err.Error(), "checksum")
	require.NoError(t, os.WriteFile(bad, b[:100], 0o644))
	_, _, err = runRoot(t, "model", "info", bad)
	assert.ErrorContains(t, err, "truncated")
	require.NoError(t, os.WriteFile(bad, []byte("id,label\n"), 0o644))
	_, _, err = runRoot(t, "serve", "--model", bad)
	assert.ErrorContains(t, err, "not a gssl model file")
}

func TestModelInfo(t *testing.T) {
	model, _ := saveTiny(t)
	stdout, _, err := runRoot(t, "model", "info", model, "--json")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(stdout))
	assert.Equal(t, "labelprop.Spreading", obj["kind"])
	assert.Equal(t, "classification", obj["task"])
	assert.Equal(t, []any{"Neural_Networks", "Theory"}, obj["classes"])
	assert.Equal(t, 12.0, obj["nodes"])
	assert.Len(t, obj["sha256"], 64)
	assert.Equal(t, 0.9, obj["metadata"].(map[string]any)["hyperparameters"].(map[string]any)["alpha"])
	var names []string
	for _, s := range obj["sections"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	assert.Subset(t, names, []string{"scores", "degrees", "data.json", "data.ids"})
	text, _, err := runRoot(t, "model", "info", model)
	require.NoError(t, err)
	assert.Contains(t, text, "a labelprop.Spreading model (layout 2), classification")
	assert.Contains(t, text, "classes        2: Neural_Networks, Theory")
}

func TestSTKRSaveThenPredict(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "stkr.gssl"), filepath.Join(dir, "fit.csv")
	_, _, err := runRoot(t, "stkr", "--edges", serveEdges, "--labels", serveLabels, "--split", "none", "--eta", "0.9", "--ridge", "1",
		"--save", model, "--out", out)
	require.NoError(t, err)
	pred := filepath.Join(dir, "pred.csv")
	_, _, err = runRoot(t, "predict", "--model", model, "--out", pred)
	require.NoError(t, err)
	fit, all := readCSV(t, out), readCSV(t, pred)
	require.Equal(t, fit[0], all[0])
	byID := map[string][]string{}
	for _, r := range all[1:] {
		byID[r[0]] = r
	}
	for _, r := range fit[1:] {
		assert.Equal(t, r, byID[r[0]], "gssl stkr --out and gssl predict agree")
	}
	_, _, err = runRoot(t, "stkr", "--edges", serveEdges, "--labels", serveLabels, "--split", "random:1", "--save", model)
	assert.ErrorContains(t, err, "--save saves the model of the protocol without a split")
}

// TestServeCommand starts gssl serve on a free loopback port, asks it for
// a prediction and stops it by cancelling (as SIGINT does).
func TestServeCommand(t *testing.T) {
	model, _ := saveTiny(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var logs strings.Builder
	logw := &syncWriter{w: &logs}
	go func() {
		done <- runServe(ctx, serveOptions{Model: model, Config: serve.Config{Addr: "127.0.0.1:0", MaxBatch: 10, MaxBody: 1 << 16},
			ready: func(a net.Addr) { addrc <- a }}, io.Discard, logw)
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	resp, err := http.Post("http://"+addr.String()+"/v1/predict", "application/json",
		strings.NewReader(`{"nodes":[{"id":"x","edges":[{"to":"paper_2"},{"to":"paper_3","weight":0.5}]}]}`))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(body))
	assert.Contains(t, string(body), `"label":"Neural_Networks"`)
	cancel()
	require.NoError(t, <-done)
	logw.mu.Lock()
	assert.Contains(t, logs.String(), "msg=serving")
	assert.Contains(t, logs.String(), "path=/v1/predict status=200")
	logw.mu.Unlock()

	_, _, err = runRoot(t, "serve", "--model", model, "--addr", "0.0.0.0:0")
	assert.ErrorContains(t, err, "needs a bearer token")
	_, _, err = runRoot(t, "serve", "--model", model, "--token-file", filepath.Join(t.TempDir(), "none"))
	assert.ErrorContains(t, err, "--token-file")
	_, _, err = runRoot(t, "serve", "--model", model, "--max-batch", "0")
	assert.ErrorContains(t, err, "--max-batch 0 is invalid")
}

// syncWriter serialises the server's log writes for the test to read.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// TestGPSaveThenPredict: gssl gp --save, then gssl predict --features on
// the points gp predicted gives gp --out's predictions and variances.
func TestGPSaveThenPredict(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "gp.gssl"), filepath.Join(dir, "gp.csv")
	_, _, err := runRoot(t, "gp", "--features", "../../testdata/points/features.csv", "--targets", "../../testdata/points/targets.csv",
		"--fixed", "--save", model, "--out", out)
	require.NoError(t, err)
	fit := readCSV(t, out)
	require.Equal(t, []string{"id", "set", "prediction", "variance", "observation_variance", "target"}, fit[0])
	// The features of the predicted rows, in a file of their own.
	feats := readCSV(t, "../../testdata/points/features.csv")
	var rows []string
	var ids []string
	for _, r := range fit[1:] {
		i, err := strconv.Atoi(r[0])
		require.NoError(t, err)
		rows = append(rows, strings.Join(feats[1+i], ","))
		ids = append(ids, r[0])
	}
	newFeats := filepath.Join(dir, "new.csv")
	require.NoError(t, os.WriteFile(newFeats, []byte(strings.Join(feats[0], ",")+"\n"+strings.Join(rows, "\n")+"\n"), 0o644))
	pred := filepath.Join(dir, "pred.csv")
	_, _, err = runRoot(t, "predict", "--model", model, "--features", newFeats, "--out", pred)
	require.NoError(t, err)
	got := readCSV(t, pred)
	require.Equal(t, []string{"id", "prediction", "variance"}, got[0])
	require.Len(t, got, len(fit))
	for k, r := range fit[1:] {
		for _, col := range [][2]int{{2, 1}, {3, 2}} {
			want, err := strconv.ParseFloat(r[col[0]], 64)
			require.NoError(t, err)
			have, err := strconv.ParseFloat(got[1+k][col[1]], 64)
			require.NoError(t, err)
			assert.InDelta(t, want, have, 1e-9*math.Max(1, math.Abs(want)), "row %s column %s", ids[k], fit[0][col[0]])
		}
	}
	stdout, _, err := runRoot(t, "model", "info", model, "--json")
	require.NoError(t, err)
	assert.Equal(t, "regression", decodeOne(t, []byte(stdout))["task"])
	_, _, err = runRoot(t, "predict", "--model", model, "--edges", serveEdges)
	assert.ErrorContains(t, err, "predicts points from their features")
}

// TestFalkonSave: falkon --save, then the saved model's scores for the test
// images are falkon --out's.
func TestFalkonSave(t *testing.T) {
	dir := writeImageFolder(t, 300, 100)
	tmp := t.TempDir()
	opts := falkonDefaults(dir)
	opts.Out, opts.Save, opts.Precision = filepath.Join(tmp, "f.csv"), filepath.Join(tmp, "f.gssl"), "float64"
	var out, errw strings.Builder
	require.NoError(t, runFalkon(context.Background(), opts, &out, &errw))
	assert.Equal(t, opts.Save, decodeOne(t, []byte(out.String()))["saved"])
	s, err := savedmodel.Open(opts.Save)
	require.NoError(t, err)
	meta := s.Metadata()
	assert.Equal(t, serve.Classification, meta.Task)
	set, err := loaders.ReadImageSet(dir, 0)
	require.NoError(t, err)
	xt := set.Images.Dense(set.Test)
	n, _ := xt.Dims()
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = xt.RawRowView(i)
	}
	pred, err := s.PredictPoints(context.Background(), pts)
	require.NoError(t, err)
	rows := readCSV(t, opts.Out)
	require.Len(t, rows, 1+n)
	for i, r := range rows[1:] {
		assert.Equal(t, r[2], pred[i].Label, "row %d", i)
		for c := range meta.Classes {
			want, err := strconv.ParseFloat(r[3+c], 64)
			require.NoError(t, err)
			assert.Equal(t, want, pred[i].Scores[c], "row %d class %d", i, c)
		}
	}
}
