package savedmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/serve"
)

// shapeGraphs returns cycles (class 0), paths (class 1) and stars (class
// 2) of the given sizes, every node labelled by its degree, as graphs of
// graphkernels and as the same graphs in a request's form.
func shapeGraphs(t testing.TB, sizes []int) ([]graphkernels.Graph, []serve.Graph, []int) {
	t.Helper()
	var gs []graphkernels.Graph
	var req []serve.Graph
	var classes []int
	for _, n := range sizes {
		for c := 0; c < 3; c++ {
			var edges [][2]int
			switch c {
			case 0:
				for i := 0; i < n; i++ {
					edges = append(edges, [2]int{i, (i + 1) % n})
				}
			case 1:
				for i := 0; i+1 < n; i++ {
					edges = append(edges, [2]int{i, i + 1})
				}
			default:
				for i := 1; i < n; i++ {
					edges = append(edges, [2]int{0, i})
				}
			}
			es := make([]graph.Edge, len(edges))
			for k, e := range edges {
				es[k] = graph.Edge{U: e[0], V: e[1], W: 1}
			}
			adj, err := graph.FromEdges(n, es, graph.Options{})
			require.NoError(t, err)
			labels := graphkernels.DegreeLabels(adj)
			gs = append(gs, graphkernels.Graph{Adj: adj, Labels: labels})
			req = append(req, serve.Graph{ID: "g" + strconv.Itoa(len(req)), Nodes: n, Labels: labels, Edges: edges})
			classes = append(classes, c)
		}
	}
	return gs, req, classes
}

// wlFixture is a small fitted WL classifier (cosine-normalised) with class
// names, for TestEveryKindInANewProcess.
func wlFixture(t testing.TB) (Model, Context, error) {
	gs, _, classes := shapeGraphs(t, []int{4, 5, 6, 7})
	m := &graphkernels.WLClassifier{H: 2, C: 1, Normalize: true}
	return m, Context{ClassNames: []string{"cycle", "path", "star"}, Data: "shapes"}, m.Fit(context.Background(), gs, classes)
}

// wlQueries are the new graphs kindAnswers sends to a model of graphs:
// shapes of new sizes, and a graph with labels the fit never saw.
func wlQueries(t testing.TB) []serve.Graph {
	_, req, _ := shapeGraphs(t, []int{9, 12})
	return append(req, serve.Graph{ID: "odd", Nodes: 4, Labels: []int{7, 7, 8, 9}, Edges: [][2]int{{0, 1}, {1, 2}, {1, 0}, {3, 3}}})
}

func bitsEqual(t *testing.T, want, got []float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for j := range want {
		require.Equal(t, math.Float64bits(want[j]), math.Float64bits(got[j]), "%s, value %d: %v vs %v", what, j, want[j], got[j])
	}
}

// wlHeldOut splits MUTAG: every fifth graph is held out.
func wlHeldOut(ds *loaders.TUDataset) (train, test []graphkernels.Graph, trainClasses, testIdx []int) {
	for i, g := range ds.Graphs {
		kg := graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
		if i%5 == 0 {
			test, testIdx = append(test, kg), append(testIdx, i)
		} else {
			train, trainClasses = append(train, kg), append(trainClasses, g.Class)
		}
	}
	return train, test, trainClasses, testIdx
}

// asRequest writes graphs in a request's form: node labels and each
// undirected edge once.
func asRequest(gs []graphkernels.Graph) []serve.Graph {
	out := make([]serve.Graph, len(gs))
	for i, g := range gs {
		r := serve.Graph{ID: strconv.Itoa(i), Nodes: g.Adj.Nodes(), Labels: g.Labels, Edges: [][2]int{}}
		for u := 0; u < g.Adj.Nodes(); u++ {
			cols, _ := g.Adj.Row(u)
			for _, v := range cols {
				if int(v) > u {
					r.Edges = append(r.Edges, [2]int{u, int(v)})
				}
			}
		}
		out[i] = r
	}
	return out
}

// TestWLClassifierSavedMUTAG: a WL classifier fitted on four fifths of
// MUTAG, saved and opened by a new process, classifies the held-out fifth
// bitwise as the fitted model in memory does — through the TU graphs and
// through the request form of the same graphs —, answers for its training
// graphs as the model does for them, and its file cut short or with a byte
// flipped is refused.
func TestWLClassifierSavedMUTAG(t *testing.T) {
	if os.Getenv("GSSL_SAVEDMODEL_WL") != "" {
		return
	}
	ds, err := loaders.LoadTU(sharedtest.Data(t, "MUTAG"))
	require.NoError(t, err)
	train, test, classes, _ := wlHeldOut(ds)
	ctx := context.Background()
	m := &graphkernels.WLClassifier{H: 3, C: 1, Normalize: true}
	require.NoError(t, m.Fit(ctx, train, classes))
	wantPred, wantDec, err := wlPredictDecision(ctx, m, test)
	require.NoError(t, err)
	names := make([]string, len(ds.LabelValues))
	for c, v := range ds.LabelValues {
		names[c] = strconv.Itoa(v)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "wl.gssl")
	require.NoError(t, Save(path, m, Context{ClassNames: names, Data: "MUTAG"}))

	cmd := exec.Command(os.Args[0], "-test.run=^TestWLClassifierSavedMUTAGChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GSSL_SAVEDMODEL_WL="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var got wlChildAnswers
	b, err := os.ReadFile(filepath.Join(dir, "answers.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &got))
	assert.Equal(t, serve.InputGraphs, got.Meta.Input)
	assert.Equal(t, len(train), got.Meta.Graphs)
	assert.Equal(t, []string{"-1", "1"}, got.Meta.Classes)
	assert.Zero(t, got.Meta.Nodes)
	for _, preds := range [][]serve.Prediction{got.TU, got.Requests} {
		require.Len(t, preds, len(test))
		for i, p := range preds {
			assert.Equal(t, names[wantPred[i]], p.Label, "held-out graph %d", i)
			bitsEqual(t, wantDec[i], p.Scores, "held-out graph "+strconv.Itoa(i))
		}
	}
	fitPred, fitDec, err := wlPredictDecision(ctx, m, train)
	require.NoError(t, err)
	require.Len(t, got.Fitted, len(train))
	for i, p := range got.Fitted {
		assert.Equal(t, strconv.Itoa(i+1), p.ID)
		assert.Equal(t, names[fitPred[i]], p.Label)
		bitsEqual(t, fitDec[i], p.Scores, "training graph "+strconv.Itoa(i))
	}

	file, err := os.ReadFile(path)
	require.NoError(t, err)
	open := func(d []byte) error {
		f, err := modelfile.Unmarshal(d)
		if err == nil {
			_, err = Decode(f)
		}
		return err
	}
	require.NoError(t, open(file))
	step := max(1, len(file)/97)
	for n := 0; n < len(file); n += step {
		assert.Error(t, open(file[:n]), "cut at %d of %d bytes", n, len(file))
		d := bytes.Clone(file)
		d[n] ^= 0x10
		assert.Error(t, open(d), "byte %d of %d flipped", n, len(file))
	}
	assert.Error(t, open(file[:len(file)-1]))
}

type wlChildAnswers struct {
	Meta     serve.Metadata     `json:"meta"`
	TU       []serve.Prediction `json:"tu"`
	Requests []serve.Prediction `json:"requests"`
	Fitted   []serve.Prediction `json:"fitted"`
}

func TestWLClassifierSavedMUTAGChild(t *testing.T) {
	dir := os.Getenv("GSSL_SAVEDMODEL_WL")
	if dir == "" {
		t.Skip("run by TestWLClassifierSavedMUTAG")
	}
	ds, err := loaders.LoadTU(sharedtest.Data(t, "MUTAG"))
	require.NoError(t, err)
	_, test, _, _ := wlHeldOut(ds)
	s, err := Open(filepath.Join(dir, "wl.gssl"))
	require.NoError(t, err)
	var a wlChildAnswers
	a.Meta = s.Metadata()
	a.TU, err = s.PredictKernelGraphs(context.Background(), test)
	require.NoError(t, err)
	a.Requests, err = s.PredictGraphs(context.Background(), asRequest(test))
	require.NoError(t, err)
	for i := range a.Requests {
		require.Equal(t, strconv.Itoa(i), a.Requests[i].ID)
		a.Requests[i].ID = ""
	}
	a.Fitted = s.PredictFitted()
	b, err := json.Marshal(a)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "answers.json"), b, 0o644))
}

// TestWLClassifierSavedRefusals: a model of graphs refuses nodes and
// points by name, a graph whose edges leave it is an InputError, and a
// model of nodes refuses graphs; a tiny model's file cut at any length is
// refused.
func TestWLClassifierSavedRefusals(t *testing.T) {
	ctx := context.Background()
	m, c, err := wlFixture(t)
	require.NoError(t, err)
	f, err := File(m, c)
	require.NoError(t, err)
	s, err := Decode(f)
	require.NoError(t, err)
	var ie *serve.InputError
	_, err = s.PredictNodes(ctx, []serve.NewNode{{ID: "x"}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "nodes", ie.Field)
	assert.Contains(t, ie.Msg, `classifies whole graphs (node labels and edges), not nodes: send "graphs"`)
	_, err = s.PredictPoints(ctx, [][]float64{{1}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "points", ie.Field)
	_, err = s.PredictGraphs(ctx, []serve.Graph{{Nodes: 2, Edges: [][2]int{{0, 2}}}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "graphs[0].edges[0]", ie.Field)
	_, err = s.PredictGraphs(ctx, []serve.Graph{{Nodes: 2, Labels: []int{1}}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "graphs[0].labels", ie.Field)
	// An unlabelled graph is a graph of label-0 nodes; a graph may be empty.
	p, err := s.PredictGraphs(ctx, []serve.Graph{{Nodes: 3, Edges: [][2]int{{0, 1}}}, {Nodes: 0}})
	require.NoError(t, err)
	require.Len(t, p, 2)

	// One opened model answers many requests at once, each as alone.
	q := wlQueries(t)
	want, err := s.PredictGraphs(ctx, q)
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make([][]serve.Prediction, 8)
	errs := make([]error, len(got))
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k], errs[k] = s.PredictGraphs(ctx, q)
		}()
	}
	wg.Wait()
	for k := range got {
		require.NoError(t, errs[k])
		assert.Equal(t, want, got[k])
	}

	ds := tiny(t)
	lp, err := Decode(mustFile(t, fitTiny(t, ds), Context{IDs: ds.IDs, ClassNames: ds.ClassNames}))
	require.NoError(t, err)
	_, err = lp.PredictGraphs(ctx, []serve.Graph{{Nodes: 1}})
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "graphs", ie.Field)
	assert.Contains(t, ie.Msg, `predicts new nodes from their edges to fitted nodes, not graphs: send "nodes"`)

	b, err := f.MarshalBinary()
	require.NoError(t, err)
	for n := 0; n < len(b); n++ {
		g, err := modelfile.Unmarshal(b[:n])
		if err == nil {
			_, err = Decode(g)
		}
		require.Error(t, err, "cut at %d of %d bytes", n, len(b))
	}
}

func mustFile(t *testing.T, m Model, c Context) *modelfile.File {
	t.Helper()
	f, err := File(m, c)
	require.NoError(t, err)
	return f
}

// wlPredictDecision returns the classes and decision values of graphs,
// from Decision and Votes.
func wlPredictDecision(ctx context.Context, m *graphkernels.WLClassifier, graphs []graphkernels.Graph) ([]int, [][]float64, error) {
	dec, err := m.Decision(ctx, graphs)
	if err != nil {
		return nil, nil, err
	}
	r, _ := dec.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), dec.RawRowView(i)...)
	}
	return estimator.Argmax(m.Votes(dec)), out, nil
}
