package main

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// coraTrainVal returns the embedded Cora with its train labels, and the
// labels of train and validation nodes with the validation nodes.
func coraTrainVal(t *testing.T) (g *graphEntry, train, trainVal []int, val []int) {
	g, labels, split, err := cora()
	require.NoError(t, err)
	n := len(labels.i64)
	train, trainVal = make([]int, n), make([]int, n)
	for i, c := range labels.i64 {
		train[i], trainVal[i] = -1, -1
		switch split.i64[i] {
		case 1:
			train[i], trainVal[i] = int(c), int(c)
		case 2:
			trainVal[i] = int(c)
			val = append(val, i)
		}
	}
	return g, train, trainVal, val
}

// TestConformalKind fits confidence.Classifier through the C ABI's role
// with held-out nodes, and checks its file against savedmodel (what gssl
// predict and serve read): the same calibrated probabilities and sets, for
// the fitted nodes and for new nodes keyed by their ids.
func TestConformalKind(t *testing.T) {
	g, _, y, val := coraTrainVal(t)
	e, err := newModel(conformalKind, `{"Base": {"type": "labelprop.Spreading", "Alpha": 0.9}, "Alpha": 0.1, "Seed": 7}`)
	require.NoError(t, err)
	require.Equal(t, roleNodeClassifier, e.role)
	require.Equal(t, &labelprop.Spreading{Alpha: 0.9}, e.m.(*confidence.Classifier).Base)
	ctx := context.Background()
	_, err = e.predictSets(ctx, predictQuery{}, nil)
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	require.NoError(t, e.fit(ctx, fitData{graph: g, labels: y, heldOut: val}))
	require.Equal(t, len(val), e.m.(*confidence.Classifier).Calibration().Conformal.Calibration)
	p, err := e.predict(ctx, predictQuery{})
	require.NoError(t, err)
	sets, err := e.predictSets(ctx, predictQuery{}, nil)
	require.NoError(t, err)

	path := filepath.Join(t.TempDir(), "m.gssl")
	require.NoError(t, e.save(path))
	s, err := savedmodel.Open(path)
	require.NoError(t, err)
	for i, want := range s.PredictFitted() {
		require.Equal(t, want.Probabilities, p.f64[i*p.cols:(i+1)*p.cols], "node %d", i)
		require.Equal(t, want.Set, setNames(sets, i), "node %d", i)
	}

	// new nodes: node k joins fitted nodes 3k and 3k+1
	const count = 30
	nn := &estimator.NewNodes{Offsets: []int{0}}
	var nodes []serve.NewNode
	var keys []uint64
	for k := range count {
		id := "new" + strconv.Itoa(k)
		nn.Nodes = append(nn.Nodes, int32(3*k), int32(3*k+1))
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
		nodes = append(nodes, serve.NewNode{ID: id, Edges: []serve.Edge{{To: strconv.Itoa(3 * k), Weight: 1}, {To: strconv.Itoa(3*k + 1), Weight: 1}}})
		keys = append(keys, savedmodel.NewNodeKey(id))
	}
	back, err := loadModel(path)
	require.NoError(t, err)
	require.Equal(t, conformalKind, back.kind)
	pn, err := back.predict(ctx, predictQuery{newNodes: nn})
	require.NoError(t, err)
	sn, err := back.predictSets(ctx, predictQuery{newNodes: nn}, keys)
	require.NoError(t, err)
	want, err := s.PredictNodes(ctx, nodes)
	require.NoError(t, err)
	for i, w := range want {
		require.Equal(t, w.Probabilities, pn.f64[i*pn.cols:(i+1)*pn.cols], "new node %d", i)
		require.Equal(t, w.Set, setNames(sn, i), "new node %d", i)
	}
	_, err = back.predictSets(ctx, predictQuery{newNodes: nn}, keys[:3])
	require.ErrorContains(t, err, "3 ids for 30 new nodes")

	// held-out nodes are refused by a model that does not calibrate
	plain, err := newModel(labelprop.SpreadingKind, "")
	require.NoError(t, err)
	require.ErrorContains(t, plain.fit(ctx, fitData{graph: g, labels: y, heldOut: val}), "holds out no nodes")
	_, err = plain.predictSets(ctx, predictQuery{}, nil)
	require.ErrorContains(t, err, "has no prediction sets")
}

// setNames is row i of a sets result as class names (Cora's are numbers).
func setNames(r *result, i int) []string {
	out := []string{}
	for _, c := range r.i64[i*r.cols : (i+1)*r.cols] {
		if c >= 0 {
			out = append(out, strconv.Itoa(int(c)))
		}
	}
	return out
}

// TestModelParams: a hyperparameter whose interface model kinds implement
// takes any such kind by its hyperparameters, is shown the same way, and
// refuses kinds of another role, naming the valid ones.
func TestModelParams(t *testing.T) {
	e, err := newModel(krr.ClassifierKind, `{"Model": {"type": "krr.Exact", "Kernel": {"type": "kernel.Gaussian", "Sigma": 2}, "Lambda": 0.01}}`)
	require.NoError(t, err)
	m := e.m.(*krr.Classifier).Model.(*krr.Exact)
	require.Equal(t, 0.01, m.Lambda)
	p, err := getParams(e.m)
	require.NoError(t, err)
	require.Contains(t, string(p), `"Model":{"type":"krr.Exact","Kernel":{"type":"kernel.Gaussian","Sigma":2},"Lambda":0.01`)

	_, err = newModel(krr.ClassifierKind, `{"Model": {"type": "labelprop.Spreading"}}`)
	require.ErrorContains(t, err, `type "labelprop.Spreading" is invalid here`)
	require.ErrorContains(t, err, `"krr.Falkon"`)
	_, err = newModel(krr.ClassifierKind, `{"Model": {"type": "krr.Exact", "Lamda": 1}}`)
	require.ErrorContains(t, err, `no hyperparameter "Lamda"`)
	_, err = newModel(conformalKind, `{"Base": {"type": "krr.Exact"}}`)
	require.ErrorContains(t, err, `"labelprop.Spreading"`)
}

// TestPredictInto: the prediction written into a caller's buffer is the
// result predict returns; a buffer too small gets the result instead.
func TestPredictInto(t *testing.T) {
	g, y, _, _ := coraTrainVal(t)
	e, err := newModel(labelprop.SpreadingKind, `{"Alpha": 0.9}`)
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, e.fit(ctx, fitData{graph: g, labels: y}))
	want, err := e.predict(ctx, predictQuery{})
	require.NoError(t, err)
	buf := make([]float64, len(want.f64)+5)
	shape, r, err := e.predictInto(ctx, predictQuery{}, unsafe.Pointer(&buf[0]), 8*len(buf))
	require.NoError(t, err)
	require.Nil(t, r)
	require.Equal(t, resultShape{dtypeFloat64, want.rows, want.cols}, shape)
	require.Equal(t, want.f64, buf[:len(want.f64)])
	shape, r, err = e.predictInto(ctx, predictQuery{}, unsafe.Pointer(&buf[0]), 8*(len(want.f64)-1))
	require.NoError(t, err)
	require.Equal(t, want, r)
	require.Equal(t, want.rows, shape.rows)

	// a matrix with a stride wider than its columns is written row by row
	wide := mat.NewDense(3, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}).Slice(0, 3, 1, 3).(*mat.Dense)
	o, err := denseOutput(wide, nil)
	require.NoError(t, err)
	require.Equal(t, []float64{2, 3, 6, 7, 10, 11}, o.result().f64)
}
