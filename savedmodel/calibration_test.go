package savedmodel

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/serve"
)

// TestCalibratedFile saves a calibrated label spreading of Cora and checks
// that the opened file's predictions for the fitted nodes are the library's
// calibrated probabilities and prediction sets, bitwise, for every node a
// training label reached, and that a new node gets a set.
func TestCalibratedFile(t *testing.T) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range slices.Concat(ds.Split.Train, ds.Split.Val) {
		labels[i] = ds.Labels[i]
	}
	m := &confidence.Classifier{Base: &labelprop.Spreading{}, Alpha: 0.1, Seed: 5}
	ctx := context.Background()
	if err := m.FitHeldOut(ctx, estimator.Nodes{Graph: ds.Graph}, labels, ds.Split.Val); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := m.Sets(ctx, estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cal.gssl")
	if err := Save(path, m.Fitted().(Model), Context{Calibration: m.Calibration()}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Metadata().ConformalAlpha != 0.1 {
		t.Errorf("metadata alpha %v, want 0.1", s.Metadata().ConformalAlpha)
	}
	scores, err := m.Fitted().Predict(ctx, estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	fitted := s.PredictFitted()
	compared := 0
	for i, pr := range fitted {
		if r := scores.RawRowView(i); slices.Max(r) == 0 {
			continue // nothing reached it: the file answers the class prior
		}
		compared++
		if !slices.Equal(pr.Probabilities, p.RawRowView(i)) {
			t.Fatalf("node %d: the file gives %v, the library %v", i, pr.Probabilities, p.RawRowView(i))
		}
		want := make([]string, len(sets[i]))
		for k, c := range sets[i] {
			want[k] = strconv.Itoa(c)
		}
		if !slices.Equal(pr.Set, want) {
			t.Fatalf("node %d: the file's set %v, the library's %v", i, pr.Set, want)
		}
	}
	if compared < len(fitted)/2 {
		t.Fatalf("only %d of %d nodes compared", compared, len(fitted))
	}
	pred, err := s.PredictNodes(ctx, []serve.NewNode{{ID: "new", Edges: []serve.Edge{{To: "0", Weight: 1}, {To: "633", Weight: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pred[0].Set) == 0 || len(pred[0].Probabilities) != 7 {
		t.Errorf("a new node's prediction %+v has no set or not 7 probabilities", pred[0])
	}
}
