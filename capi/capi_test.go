package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/savedmodel"
)

func TestSetParams(t *testing.T) {
	e, err := newModel(labelprop.SpreadingKind, `{"Alpha": 0.8, "Solver": "cg", "Tol": 1e-7}`)
	require.NoError(t, err)
	m := e.m.(*labelprop.Spreading)
	require.Equal(t, 0.8, m.Alpha)
	require.Equal(t, labelprop.CG, m.Solver)
	require.Equal(t, 1e-7, m.Tol)

	_, err = newModel(labelprop.SpreadingKind, `{"Alfa": 0.8}`)
	require.ErrorContains(t, err, `no hyperparameter "Alfa"`)
	require.ErrorContains(t, err, "Alpha")
	_, err = newModel(labelprop.SpreadingKind, `{"Solver": "newton"}`)
	require.ErrorContains(t, err, `"newton" is invalid`)
	_, err = newModel(labelprop.SpreadingKind, `{"Tol": "small"}`)
	require.ErrorContains(t, err, "hyperparameter Tol")
	_, err = newModel(labelprop.SpreadingKind, `{"Progress": 1}`)
	require.ErrorContains(t, err, `no hyperparameter "Progress"`)
	_, err = newModel("no.Such", "")
	require.ErrorContains(t, err, `unknown model kind "no.Such"`)

	p, err := getParams(m)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(p), `{"Alpha":0.8,"Solver":"cg","Tol":1e-7,`), string(p))
}

// TestFitSaveOpen fits label spreading on the embedded Cora through the
// role, saves it, and checks that savedmodel (what gssl predict and serve
// read) predicts the fitted nodes as the model did.
func TestFitSaveOpen(t *testing.T) {
	g, labels, split, err := cora()
	require.NoError(t, err)
	y := make([]int, len(labels.i64))
	for i, c := range labels.i64 {
		y[i] = -1
		if split.i64[i] == 1 {
			y[i] = int(c)
		}
	}
	e, err := newModel(labelprop.SpreadingKind, `{"Alpha": 0.9}`)
	require.NoError(t, err)
	ctx := context.Background()
	_, err = e.predict(ctx, predictQuery{})
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	require.Equal(t, int32(codeNotFitted), codeOf(err))
	require.NoError(t, e.fit(ctx, fitData{graph: g, labels: y}))
	r, err := e.predict(ctx, predictQuery{})
	require.NoError(t, err)
	require.Equal(t, g.g.Nodes(), r.rows)

	path := filepath.Join(t.TempDir(), "m.gssl")
	require.NoError(t, e.save(path))
	s, err := savedmodel.Open(path)
	require.NoError(t, err)
	pred := s.PredictFitted()
	require.Len(t, pred, r.rows)
	for i, p := range pred {
		require.Equal(t, r.f64[i*r.cols:(i+1)*r.cols], p.Probabilities, "node %d", i)
	}

	back, err := loadModel(path)
	require.NoError(t, err)
	r2, err := back.predict(ctx, predictQuery{})
	require.NoError(t, err)
	require.Equal(t, r.f64, r2.f64)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err = e.fit(cctx, fitData{graph: g, labels: y})
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	require.Equal(t, int32(codeCancelled), codeOf(err))
}

// BenchmarkPredictNew is the Go side of the Python package's overhead
// benchmark (python/bench/overhead.py, scripts/bench-python.sh): the role's
// Predict on 1000 new nodes of Cora, node i joined to fitted nodes
// (7919·i + 104729·j) mod n for j < 5.
func BenchmarkPredictNew(b *testing.B) {
	g, labels, split, err := cora()
	require.NoError(b, err)
	y := make([]int, len(labels.i64))
	for i, c := range labels.i64 {
		y[i] = -1
		if split.i64[i] == 1 {
			y[i] = int(c)
		}
	}
	m := &labelprop.Spreading{Alpha: 0.9}
	ctx := context.Background()
	require.NoError(b, m.Fit(ctx, estimator.Nodes{Graph: g.g}, y))
	n := g.g.Nodes()
	const count, per = 1000, 5
	nn := estimator.NewNodes{Offsets: make([]int, count+1)}
	for i := range count {
		cols := make([]int32, per)
		for j := range per {
			cols[j] = int32((7919*i + 104729*j) % n)
		}
		slices.Sort(cols)
		nn.Nodes = append(nn.Nodes, cols...)
		nn.Offsets[i+1] = len(nn.Nodes)
	}
	nn.Weights = make([]float64, len(nn.Nodes))
	for i := range nn.Weights {
		nn.Weights[i] = 1
	}
	// Each call is timed too, for the medians the Python side reports
	// beside its mean: of the wall time (median-ns/op) and of the thread's
	// CPU time (cpu-median-ns/op; the goroutine stays on its thread).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wall := make([]time.Duration, 0, 1<<16)
	cpu := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t, c := time.Now(), threadCPU()
		if _, err := m.Predict(ctx, estimator.NodeQuery{New: &nn}); err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, threadCPU()-c)
		wall = append(wall, time.Since(t))
	}
	slices.Sort(wall)
	slices.Sort(cpu)
	b.ReportMetric(float64(wall[len(wall)/2].Nanoseconds()), "median-ns/op")
	b.ReportMetric(float64(cpu[len(cpu)/2].Nanoseconds()), "cpu-median-ns/op")
}

// TestSetProgress: a Progress field of ints and floats reports the last
// int and the first float, and is put back after the call.
func TestSetProgress(t *testing.T) {
	var got [][2]float64
	m := &struct {
		Progress func(column, iteration int, residual, other float64)
	}{}
	restore, ok := setProgress(m, func(it int64, v float64) { got = append(got, [2]float64{float64(it), v}) })
	require.True(t, ok)
	m.Progress(7, 3, 0.5, 9)
	require.Equal(t, [][2]float64{{3, 0.5}}, got)
	restore()
	require.Nil(t, m.Progress)

	s := &struct{ Progress func(string) }{}
	_, ok = setProgress(s, func(int64, float64) {})
	require.False(t, ok)
}

// TestComponentParams: a hyperparameter of interface type is set from
// {"type": …, fields…} and shown the same way.
func TestComponentParams(t *testing.T) {
	e, err := newModel(krr.ExactKind, `{"Kernel": {"type": "kernel.Gaussian", "Sigma": 2}}`)
	require.NoError(t, err)
	require.Equal(t, kernel.Gaussian{Sigma: 2}, e.m.(*krr.Exact).Kernel)
	p, err := getParams(e.m)
	require.NoError(t, err)
	require.Contains(t, string(p), `"Kernel":{"type":"kernel.Gaussian","Sigma":2}`)
	// the shown form sets the same model
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(p, &obj))
	e2, err := newModel(krr.ExactKind, `{"Kernel": `+string(obj["Kernel"])+`}`)
	require.NoError(t, err)
	require.Equal(t, e.m.(*krr.Exact).Kernel, e2.m.(*krr.Exact).Kernel)

	_, err = newModel(krr.ExactKind, `{"Kernel": {"type": "stkr.TopD", "D": 3}}`)
	require.ErrorContains(t, err, `type "stkr.TopD" is invalid here`)
	require.ErrorContains(t, err, `"kernel.Gaussian"`)
	_, err = newModel(krr.ExactKind, `{"Kernel": {"type": "kernel.Gaussian", "Sgma": 2}}`)
	require.ErrorContains(t, err, "Sgma")
	_, err = newModel(krr.ExactKind, `{"Kernel": 3}`)
	require.ErrorContains(t, err, "hyperparameter Kernel")
}

// Inner and Outer are a model whose hyperparameters are partly those of
// an embedded struct, as stkr.Classifier embeds stkr.Regressor.
type Inner struct{ Beta float64 }

type Outer struct {
	Inner
	Classes int
}

// TestEmbeddedParams: the fields of an exported embedded struct are
// hyperparameters of the outer model, by their own names.
func TestEmbeddedParams(t *testing.T) {
	o := &Outer{}
	require.NoError(t, setParams("x", o, []byte(`{"Beta": 2, "Classes": 3}`)))
	require.Equal(t, Outer{Inner{2}, 3}, *o)
	p, err := getParams(o)
	require.NoError(t, err)
	require.Equal(t, `{"Beta":2,"Classes":3}`, string(p))
}
