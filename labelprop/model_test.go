package labelprop

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/modelfile"
)

// model is what both estimators offer for the round-trip tests.
type model interface {
	Classifier
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
	Prior() []float64
}

// newNodes draws new nodes with edges to random fitted nodes: some with no
// edge, some only to unreached nodes.
func newNodes(rng *rand.Rand, p problem) estimator.NewNodes {
	n := p.g.Nodes()
	nn := estimator.NewNodes{Offsets: []int{0}}
	for i := 0; i < 12; i++ {
		k := rng.IntN(4)
		for j := 0; j < k; j++ {
			v := rng.IntN(n)
			if i == 1 {
				v = p.unreached[rng.IntN(len(p.unreached))]
			}
			nn.Nodes = append(nn.Nodes, int32(v))
			nn.Weights = append(nn.Weights, 0.1+rng.Float64())
		}
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	return nn
}

func fitted(t *testing.T, rng *rand.Rand) (problem, []model) {
	p := randomProblem(rng, 3)
	ms := []model{
		&Spreading{Alpha: 0.9, IsolatedSeeds: IsolatedSeedKeep},
		&Spreading{Alpha: 0.8, Solver: CG, ClassMassNormalization: true, Ordering: ReverseCuthillMcKee},
		&Spreading{Alpha: 0.7, Solver: FixedPoint, Tol: 1e-9},
		&Harmonic{},
		&Harmonic{ClassMassNormalization: true, Preconditioner: NoPreconditioner},
		&Spreading{Alpha: 0.9, Float32: true, Stop: StopLabels, LabelPatience: 3, LabelTol: 1e-2, MaxIter: 500},
	}
	for _, m := range ms {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	}
	return p, ms
}

func bitsEqual(t *testing.T, what string, want, got []float64) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			t.Fatalf("%s[%d]: %v (%#x) after the round trip, %v (%#x) before", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

func samePredictions(t *testing.T, want, got []Prediction) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		bitsEqual(t, "scores", want[i].Scores, got[i].Scores)
		bitsEqual(t, "probabilities", want[i].Probabilities, got[i].Probabilities)
		assert.Equal(t, want[i].Label, got[i].Label)
		assert.Equal(t, want[i].Reached, got[i].Reached)
	}
}

func fresh(m model) model {
	switch m.(type) {
	case *Spreading:
		return &Spreading{}
	}
	return &Harmonic{}
}

// TestModelRoundTrip: every prediction of a model read back from its bytes
// is bitwise that of the fitted model, and so is everything it reports.
func TestModelRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 1))
	p, ms := fitted(t, rng)
	nn := newNodes(rng, p)
	for _, m := range ms {
		b, err := m.MarshalBinary()
		require.NoError(t, err)
		got := fresh(m)
		require.NoError(t, got.UnmarshalBinary(b))
		want, err := m.NewNodeDetails(context.Background(), nn)
		require.NoError(t, err)
		pred, err := got.NewNodeDetails(context.Background(), nn)
		require.NoError(t, err)
		samePredictions(t, want, pred)
		assert.False(t, pred[1].Reached, "edges only to unreached nodes give the prior")
		bitsEqual(t, "fitted scores", m.Scores().RawMatrix().Data, got.Scores().RawMatrix().Data)
		bitsEqual(t, "fitted probabilities", m.Probabilities().RawMatrix().Data, got.Probabilities().RawMatrix().Data)
		assert.Equal(t, m.Labels(), got.Labels())
		assert.Equal(t, m.Details(), got.Details())
		bitsEqual(t, "prior", m.Prior(), got.Prior())
		// The hyperparameters come back too: every exported field (the
		// fixtures set neither Progress nor WarmStart), so a field added to
		// the model but not to its file fails here.
		switch w := m.(type) {
		case *Spreading:
			want, g := *w, *got.(*Spreading)
			want.state, g.state = state{}, state{}
			assert.Equal(t, want, g)
		case *Harmonic:
			want, g := *w, *got.(*Harmonic)
			want.state, g.state = state{}, state{}
			assert.Equal(t, want, g)
		}
		// Encoding what was read gives the same bytes.
		b2, err := got.MarshalBinary()
		require.NoError(t, err)
		assert.Equal(t, b, b2)
		// One new node alone agrees with the batch.
		one, err := predictNew(got, []int{0, 1}, nil)
		require.NoError(t, err)
		two, err := predictNew(m, []int{0, 1}, nil)
		require.NoError(t, err)
		samePredictions(t, []Prediction{two}, []Prediction{one})
	}
}

// TestModelGobJSON: gob goes through MarshalBinary and keeps the fitted
// state; JSON refuses loudly.
func TestModelGobJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 1))
	p, ms := fitted(t, rng)
	nn := newNodes(rng, p)
	for _, m := range ms {
		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(m))
		got := fresh(m)
		require.NoError(t, gob.NewDecoder(&buf).Decode(got))
		want, _ := m.NewNodeDetails(context.Background(), nn)
		pred, err := got.NewNodeDetails(context.Background(), nn)
		require.NoError(t, err)
		samePredictions(t, want, pred)

		_, err = json.Marshal(m)
		assert.ErrorIs(t, err, estimator.ErrJSON)
		assert.ErrorContains(t, err, "use MarshalBinary")
		assert.ErrorIs(t, json.Unmarshal([]byte(`{"Alpha":0.5}`), got), estimator.ErrJSON)
	}
	_, err := json.Marshal(Spreading{Alpha: 0.5})
	assert.ErrorIs(t, err, estimator.ErrJSON, "a value too")
}

func TestModelNotFitted(t *testing.T) {
	for _, m := range []model{&Spreading{Alpha: 0.5}, &Harmonic{}} {
		_, err := m.MarshalBinary()
		assert.ErrorIs(t, err, ErrNotFitted)
		_, err = m.NewNodeDetails(context.Background(), estimator.NewNodes{Offsets: []int{0}})
		assert.ErrorIs(t, err, ErrNotFitted)
		assert.ErrorIs(t, err, estimator.ErrNotFitted)
		_, err = predictNew(m, nil, nil)
		assert.ErrorIs(t, err, estimator.ErrNotFitted)
	}
}

func TestPredictNodesChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	p, ms := fitted(t, rng)
	n := p.g.Nodes()
	_, err := ms[0].NewNodeDetails(context.Background(), estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{int32(n)}})
	assert.ErrorContains(t, err, "out of range")
	_, err = ms[0].NewNodeDetails(context.Background(), estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{0}, Weights: []float64{-1}})
	assert.ErrorContains(t, err, "must be finite and ≥ 0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ms[0].NewNodeDetails(ctx, newNodes(rng, p))
	assert.ErrorIs(t, err, context.Canceled)
}

// TestModelFileDamage: a model file with any byte flipped or cut anywhere
// is refused by UnmarshalBinary, and the model is left as it was.
func TestModelFileDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	_, ms := fitted(t, rng)
	b, err := ms[0].MarshalBinary()
	require.NoError(t, err)
	keep := &Spreading{Alpha: 0.5}
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x5a
		require.Error(t, keep.UnmarshalBinary(d), "byte %d", i)
	}
	for n := 0; n < len(b); n += 7 {
		require.Error(t, keep.UnmarshalBinary(b[:n]), "cut at %d", n)
	}
	assert.Equal(t, 0.5, keep.Alpha)
	assert.False(t, keep.fitted)
	// A Spreading file is not a Harmonic one.
	err = (&Harmonic{}).UnmarshalBinary(b)
	assert.ErrorIs(t, err, modelfile.ErrKind)
	assert.ErrorContains(t, err, "holds a labelprop.Spreading model, not labelprop.Harmonic")
	// A newer layout is refused by name.
	f, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	f.KindVersion = SpreadingVersion + 1
	nb, err := f.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, keep.UnmarshalBinary(nb), modelfile.ErrVersion)
	// Arrays of the wrong size inside a well-formed file.
	f, _ = modelfile.Unmarshal(b)
	g := modelfile.New(SpreadingKind, SpreadingVersion)
	g.Metadata = f.Metadata
	for _, s := range f.Sections() {
		switch s.Type {
		case modelfile.Float64s:
			v, _ := f.Float64s(s.Name)
			if s.Name == "scores" {
				v = v[:len(v)-1]
			}
			g.PutFloat64s(s.Name, v)
		case modelfile.Int32s:
			v, _ := f.Int32s(s.Name)
			g.PutInt32s(s.Name, v)
		case modelfile.Bytes:
			v, _ := f.Bytes(s.Name)
			g.PutBytes(s.Name, v)
		}
	}
	nb, err = g.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorContains(t, keep.UnmarshalBinary(nb), `section "scores" has`)
	_ = binary.LittleEndian
}

func TestFitLabelVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	p := randomProblem(rng, 3)
	labels := make([]int, p.g.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	for k, v := range p.nodes {
		labels[v] = p.classes[k]
	}
	// Repeated nodes in p.nodes: keep the last, as the vector does.
	a, b := &Spreading{Alpha: 0.9}, &Spreading{Alpha: 0.9}
	var nodes, classes []int
	for i, c := range labels {
		if c >= 0 {
			nodes, classes = append(nodes, i), append(classes, c)
		}
	}
	require.NoError(t, a.FitIndexed(context.Background(), p.g, nodes, classes))
	require.NoError(t, b.Fit(context.Background(), estimator.Nodes{Graph: p.g}, labels))
	assert.Equal(t, a.Scores().RawMatrix().Data, b.Scores().RawMatrix().Data)
	assert.ErrorContains(t, b.Fit(context.Background(), estimator.Nodes{Graph: p.g}, labels[1:]), "labels for a graph of")
	labels[0] = -2
	assert.ErrorContains(t, (&Harmonic{}).Fit(context.Background(), estimator.Nodes{Graph: p.g}, labels), "labels[0] = -2 is invalid")
}

// TestModelNewProcess: a model saved by this process and read by another
// predicts bitwise the same.
func TestModelNewProcess(t *testing.T) {
	if path := os.Getenv("GSSL_LABELPROP_MODEL"); path != "" {
		return // the child's half runs in TestModelNewProcessChild
	}
	rng := rand.New(rand.NewPCG(46, 1))
	p, ms := fitted(t, rng)
	nn := newNodes(rng, p)
	dir := t.TempDir()
	for k, m := range ms {
		path := filepath.Join(dir, "m.gssl")
		f, err := m.(interface {
			ModelFile() (*modelfile.File, error)
		}).ModelFile()
		require.NoError(t, err)
		require.NoError(t, modelfile.WriteFile(path, f))
		want, _ := m.NewNodeDetails(context.Background(), nn)
		out := filepath.Join(dir, "pred.bin")
		cmd := exec.Command(os.Args[0], "-test.run=^TestModelNewProcessChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GSSL_LABELPROP_MODEL="+path, "GSSL_LABELPROP_OUT="+out, "GSSL_LABELPROP_SEED=46")
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "model %d: %s", k, b)
		raw, err := os.ReadFile(out)
		require.NoError(t, err)
		var got []float64
		for i := 0; i+8 <= len(raw); i += 8 {
			got = append(got, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
		var flat []float64
		for _, w := range want {
			flat = append(append(flat, w.Scores...), w.Probabilities...)
		}
		bitsEqual(t, "predictions in the new process", flat, got)
	}
}

func TestModelNewProcessChild(t *testing.T) {
	path := os.Getenv("GSSL_LABELPROP_MODEL")
	if path == "" {
		t.Skip("run by TestModelNewProcess")
	}
	f, err := modelfile.ReadFile(path)
	require.NoError(t, err)
	var m model = &Spreading{}
	if f.Kind == HarmonicKind {
		m = &Harmonic{}
	}
	require.NoError(t, m.(interface {
		ReadModelFile(*modelfile.File) error
	}).ReadModelFile(f))
	rng := rand.New(rand.NewPCG(46, 1))
	p := randomProblem(rng, 3) // the same draws as the parent, for the new nodes
	nn := newNodes(rng, p)
	pred, err := m.NewNodeDetails(context.Background(), nn)
	require.NoError(t, err)
	var raw []byte
	for _, w := range pred {
		for _, v := range append(append([]float64(nil), w.Scores...), w.Probabilities...) {
			raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
		}
	}
	require.NoError(t, os.WriteFile(os.Getenv("GSSL_LABELPROP_OUT"), raw, 0o644))
	_ = errors.New
}

// TestModelLayout1 reads a Spreading file written in layout 1 by the gssl
// that wrote that layout (testdata/spreading-v1.gssl: Alpha 0.9, Tol 1e-9,
// on the two triangles of the examples, node 0 of class 0 and node 5 of
// class 1). It had no Float32 or Stop; they read as zero, the predictions
// are those of a fit now, and writing it again gives layout 2.
func TestModelLayout1(t *testing.T) {
	f, err := modelfile.ReadFile("testdata/spreading-v1.gssl")
	require.NoError(t, err)
	require.Equal(t, 1, f.KindVersion)
	got := &Spreading{Float32: true, Stop: StopLabels}
	require.NoError(t, got.ReadModelFile(f))
	assert.Equal(t, []any{0.9, 1e-9, false, StopResidual, 0, 0.0}, []any{got.Alpha, got.Tol, got.Float32, got.Stop, got.LabelPatience, got.LabelTol})

	g, err := graph.FromEdges(6, []graph.Edge{
		{U: 0, V: 1, W: 1}, {U: 0, V: 2, W: 1}, {U: 1, V: 2, W: 1},
		{U: 2, V: 3, W: 1},
		{U: 3, V: 4, W: 1}, {U: 3, V: 5, W: 1}, {U: 4, V: 5, W: 1},
	}, graph.Options{})
	require.NoError(t, err)
	now := &Spreading{Alpha: 0.9, Tol: 1e-9}
	require.NoError(t, now.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}))
	assert.Equal(t, now.Labels(), got.Labels())
	assert.InDeltaSlice(t, now.Scores().RawMatrix().Data, got.Scores().RawMatrix().Data, 1e-12)
	nn := estimator.NewNodes{Offsets: []int{0, 3}, Nodes: []int32{1, 2, 4}, Weights: []float64{1, 1, 0.5}}
	want, err := now.NewNodeDetails(context.Background(), nn)
	require.NoError(t, err)
	pred, err := got.NewNodeDetails(context.Background(), nn)
	require.NoError(t, err)
	assert.InDeltaSlice(t, want[0].Probabilities, pred[0].Probabilities, 1e-12)

	b, err := got.MarshalBinary()
	require.NoError(t, err)
	f2, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	assert.Equal(t, SpreadingVersion, f2.KindVersion)

	// A layout-1 file that records a layout-2 field was not written by a
	// layout-1 writer.
	var meta map[string]any
	require.NoError(t, json.Unmarshal(f.Metadata, &meta))
	meta["hyperparameters"].(map[string]any)["stop"] = "labels"
	require.NoError(t, f.SetMetadata(meta))
	assert.ErrorContains(t, (&Spreading{}).ReadModelFile(f), "layout 1 but records the layout-2 hyperparameters")
}
