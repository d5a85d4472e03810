package linbp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// TestSaveLoad: a Propagation read back from its bytes predicts its fitted
// nodes bitwise as the fitted one, keeps its hyperparameters, Info and
// compatibility matrix, refuses new nodes with the fitted model's error,
// and a file whose metadata disagrees with its sections, or declares
// sizes it does not hold, is refused and leaves the model unchanged.
func TestSaveLoad(t *testing.T) {
	ctx := context.Background()
	g, truth := bipartiteish(t, 60)
	labels := slices.Clone(truth)
	for i := range labels {
		if i%4 != 0 {
			labels[i] = -1
		}
	}
	m := &Propagation{Alpha: 0.7, Tol: 1e-10, MaxIter: 500}
	if err := m.Fit(ctx, estimator.Nodes{Graph: g}, labels); err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Propagation
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if back.Alpha != m.Alpha || back.Tol != m.Tol || back.MaxIter != m.MaxIter || back.String() != m.String() {
		t.Errorf("hyperparameters read back %+v, want %+v", back, *m)
	}
	if back.Info() != m.Info() || m.Info().Iterations == 0 {
		t.Errorf("Info read back %+v, want %+v", back.Info(), m.Info())
	}
	if !slices.Equal(back.Compatibility().RawMatrix().Data, m.Compatibility().RawMatrix().Data) {
		t.Errorf("compatibility read back %v, want %v", back.Compatibility(), m.Compatibility())
	}
	a, _ := m.Predict(ctx, estimator.FittedNodes)
	b, err := back.Predict(ctx, estimator.FittedNodes)
	if err != nil || a.RawMatrix().Rows != 60 || !slices.Equal(a.RawMatrix().Data, b.RawMatrix().Data) {
		t.Errorf("probabilities read back differ (err %v)", err)
	}
	if !slices.Equal(back.Beliefs().RawMatrix().Data, m.Beliefs().RawMatrix().Data) {
		t.Error("beliefs read back differ")
	}
	if slices.Equal(a.RawMatrix().Data, m.Beliefs().RawMatrix().Data) || slices.Min(a.RawMatrix().Data) < 0 {
		t.Error("Predict returns the centred beliefs, not probabilities")
	}
	nn := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{2}}
	_, want := m.Predict(ctx, estimator.NodeQuery{New: &nn})
	if _, got := back.Predict(ctx, estimator.NodeQuery{New: &nn}); got == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), "fitted nodes only") {
		t.Errorf("new nodes: %v, want %v", got, want)
	}

	for what, change := range map[string]func(meta *propagationMeta){
		"classes":    func(meta *propagationMeta) { meta.Classes++ },
		"one class":  func(meta *propagationMeta) { meta.Classes = 1 },
		"nodes":      func(meta *propagationMeta) { meta.Nodes = 1 << 40 },
		"huge shape": func(meta *propagationMeta) { meta.Nodes, meta.Classes = maxDim, maxDim },
		"alpha":      func(meta *propagationMeta) { meta.Hyperparameters.Alpha = 1 },
		"iterations": func(meta *propagationMeta) { meta.Iterations = -1 },
	} {
		f, err := m.ModelFile()
		if err != nil {
			t.Fatal(err)
		}
		var meta propagationMeta
		if err := f.DecodeMetadata(&meta); err != nil {
			t.Fatal(err)
		}
		change(&meta)
		if err := f.SetMetadata(meta); err != nil {
			t.Fatal(err)
		}
		kept := back
		if err := back.ReadModelFile(f); err == nil {
			t.Errorf("%s: a changed file is read", what)
		}
		if back != kept {
			t.Errorf("%s: a refused file changed the model", what)
		}
	}
	short := modelfile.New(PropagationKind, PropagationVersion)
	if err := short.SetMetadata(propagationMeta{Nodes: 60, Classes: 3}); err != nil {
		t.Fatal(err)
	}
	short.PutFloat64s("beliefs", make([]float64, 60*3))
	short.PutFloat64s("compatibility", make([]float64, 8))
	short.PutFloat64s("residual", []float64{0})
	if err := back.ReadModelFile(short); err == nil || !strings.Contains(err.Error(), "compatibility") {
		t.Errorf("a short compatibility section: %v", err)
	}

	if _, err := (&Propagation{}).MarshalBinary(); !errors.Is(err, estimator.ErrNotFitted) {
		t.Errorf("MarshalBinary before Fit: %v", err)
	}
	if _, err := (Propagation{}).MarshalJSON(); !errors.Is(err, estimator.ErrJSON) {
		t.Errorf("MarshalJSON: %v", err)
	}
}

// TestSaveRefuses: a file of layout 1 (whose Predict returned B) is
// refused, and so are beliefs whose rows do not sum to 0 (the last one's
// probabilities would divide by 0); the error names the row and its sum,
// and the model read into is unchanged.
func TestSaveRefuses(t *testing.T) {
	g, truth := bipartiteish(t, 60)
	m := &Propagation{}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, truth); err != nil {
		t.Fatal(err)
	}
	for what, c := range map[string]struct {
		f    *modelfile.File
		want string
	}{
		"layout 1":    {resaved(t, m, 1, nil), "layout version 1"},
		"not centred": {resaved(t, m, PropagationVersion, func(b []float64) { copy(b[3:6], []float64{-1, -1, -1}) }), `section "beliefs": row 1 sums to -3, not 0`},
		"off by 0.25": {resaved(t, m, PropagationVersion, func(b []float64) { b[7] += 0.25 }), `section "beliefs": row 2 sums to 0.25, not 0`},
		"row of −1/c": {resaved(t, m, PropagationVersion, func(b []float64) { copy(b[:3], []float64{-1. / 3, -1. / 3, -1. / 3}) }), `section "beliefs": row 0 sums to -1, not 0`},
	} {
		back := Propagation{Alpha: 0.3}
		kept := back
		err := back.ReadModelFile(c.f)
		if err == nil || back != kept {
			t.Errorf("%s: read (err %v), or the model changed", what, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", what, err, c.want)
		}
		if what == "layout 1" && !errors.Is(err, modelfile.ErrVersion) {
			t.Errorf("layout 1: %v, want modelfile.ErrVersion", err)
		}
	}
	// The same file unchanged is read, and predicts as m.
	var back Propagation
	if err := back.ReadModelFile(resaved(t, m, PropagationVersion, nil)); err != nil {
		t.Fatal(err)
	}
	a, _ := m.Predict(context.Background(), estimator.FittedNodes)
	b, _ := back.Predict(context.Background(), estimator.FittedNodes)
	if !slices.Equal(a.RawMatrix().Data, b.RawMatrix().Data) {
		t.Error("the file written again predicts otherwise")
	}
}

// resaved returns m's model file written again as layout version, its
// beliefs changed by change (nil: as they are), through the bytes.
func resaved(t *testing.T, m *Propagation, version int, change func(b []float64)) *modelfile.File {
	t.Helper()
	f, err := m.ModelFile()
	if err != nil {
		t.Fatal(err)
	}
	g := modelfile.New(PropagationKind, version)
	var meta propagationMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		t.Fatal(err)
	}
	if err := g.SetMetadata(meta); err != nil {
		t.Fatal(err)
	}
	b := m.Beliefs().RawMatrix().Data
	if change != nil {
		change(b)
	}
	g.PutFloat64s("beliefs", b)
	g.PutDense("compatibility", m.Compatibility())
	g.PutFloat64s("residual", []float64{m.Info().Residual})
	data, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	out, err := modelfile.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
