package savedmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/serve"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
	"github.com/gssl/gssl/svm"
)

// kindFixture is a small fitted model of one kind and its context.
type kindFixture struct {
	m Model
	c Context
}

// circle is n points on a circle in R³ with a bump of height z, and a
// target cos θ (NaN for every third point).
func circle(n int) (*mat.Dense, []float64) {
	x := mat.NewDense(n, 3, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		th := 2 * math.Pi * float64(i) / float64(n)
		x.SetRow(i, []float64{math.Cos(th), math.Sin(th), 0.1 * math.Sin(3*th)})
		y[i] = math.Cos(th)
		if i%3 == 1 {
			y[i] = math.NaN()
		}
	}
	return x, y
}

// kindFixtures fits one small model of every kind Open reads.
func kindFixtures(t *testing.T) map[string]kindFixture {
	ctx := context.Background()
	ds := tiny(t)
	nodeCtx := Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: "testdata/serve"}
	out := map[string]kindFixture{}
	add := func(kind string, m Model, c Context, err error) {
		require.NoError(t, err, kind)
		out[kind] = kindFixture{m, c}
	}

	sp := &labelprop.Spreading{Alpha: 0.9}
	add(labelprop.SpreadingKind, sp, nodeCtx, sp.Fit(ctx, estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	hm := &labelprop.Harmonic{}
	add(labelprop.HarmonicKind, hm, nodeCtx, hm.Fit(ctx, estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	st := &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.Power(2), Beta: 0.1}, Classes: len(ds.ClassNames)}
	add(stkr.ClassifierKind, st, nodeCtx, st.Fit(ctx, estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	ty := make([]float64, len(ds.Labels))
	for i, l := range ds.Labels {
		ty[i] = math.NaN()
		if l >= 0 {
			ty[i] = float64(l)
		}
	}
	sr := &stkr.Regressor{Transform: stkr.Power(2), Beta: 0.1}
	add(stkr.RegressorKind, sr, Context{IDs: ds.IDs, Data: "testdata/serve"}, sr.Fit(ctx, estimator.Nodes{Graph: ds.Graph}, ty))
	n := ds.Graph.Nodes()
	feat := mat.NewDense(n, 4, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 4; j++ {
			feat.Set(i, j, float64((i*7+j*3)%5)+0.5*float64(j))
		}
	}
	x0 := nodeclass.Features{Dense: feat}
	sgc := &nodeclass.SGC{K: 2, Normalization: nodeclass.NoNormalization}
	add(nodeclass.SGCKind, sgc, nodeCtx, sgc.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	ap := &nodeclass.APPNP{Alpha: 0.8}
	add(nodeclass.APPNPKind, ap, nodeCtx, ap.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	cs := &nodeclass.CorrectSmooth{Base: &nodeclass.SGC{}}
	add(nodeclass.CorrectSmoothKind, cs, nodeCtx, cs.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	sg := &nodeclass.SepGNN{Hidden: 4, Epochs: 5, Seed: 1}
	add(nodeclass.SepGNNKind, sg, nodeCtx, sg.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	lx := &nodeclass.LINKX{Hidden: 4, Epochs: 5, Seed: 1}
	add(nodeclass.LINKXKind, lx, nodeCtx, lx.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	ch := &nodeclass.ChannelMLP{Rank: 2, MLP: mlp.Classifier{Hidden: 4, Epochs: 5, Seed: 1}}
	add(nodeclass.ChannelMLPKind, ch, nodeCtx, ch.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	an := &nodeclass.APPNPNet{Hidden: 4, Steps: 3, Epochs: 5, Seed: 1}
	add(nodeclass.APPNPNetKind, an, nodeCtx, an.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x0)}, ds.Labels))
	// Belief propagation estimates its compatibility matrix from edges
	// between labelled nodes, which the tiny graph's four labels lack:
	// paper_2 and paper_9 take their neighbours' classes.
	bpLabels := slices.Clone(ds.Labels)
	for _, p := range [][2]string{{"paper_2", "paper_1"}, {"paper_9", "paper_8"}} {
		i, _ := ds.IDs.Lookup(p[0])
		j, _ := ds.IDs.Lookup(p[1])
		bpLabels[i] = bpLabels[j]
	}
	bp := &linbp.Propagation{Alpha: 0.5}
	add(linbp.PropagationKind, bp, nodeCtx, bp.Fit(ctx, estimator.Nodes{Graph: ds.Graph}, bpLabels))
	sc := &spectral.SpectralClustering{Clusters: 2, KMeans: spectral.KMeansSettings{Seed: 1}}
	add(spectral.SpectralClusteringKind, sc, Context{IDs: ds.IDs}, sc.Fit(ctx, estimator.Nodes{Graph: ds.Graph}))

	x, y := circle(30)
	pointCtx := Context{Data: "circle", TargetMean: 1, TargetScale: 2}
	g := &gp.Regressor{Fixed: true}
	add(gp.RegressorKind, g, pointCtx, g.Fit(ctx, x, y))
	im := &imgp.Regressor{K: 4, Eigenpairs: 8, Iterations: 2, Seed: 1, Euclidean: &gp.Regressor{Fixed: true}}
	add(imgp.RegressorKind, im, pointCtx, im.Fit(ctx, x, y))

	onehot := mat.NewDense(30, 3, nil)
	labels := make([]int, 30)
	for i := range labels {
		labels[i] = i * 3 / 30
		onehot.Set(i, labels[i], 1)
	}
	classCtx := Context{ClassNames: []string{"a", "b", "c"}}
	ex := &krr.Exact{Kernel: kernel.Gaussian{Sigma: 0.8}, Lambda: 1e-3}
	add(krr.ExactKind, ex, classCtx, ex.FitTargets(ctx, x, onehot))
	ny := &krr.Nystrom{Kernel: kernel.Laplacian{Sigma: 1}, Lambda: 1e-3, Centres: krr.Centres{M: 10, Seed: 2}}
	add(krr.NystromKind, ny, classCtx, ny.FitTargets(ctx, x, onehot))
	fa := &krr.Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-4, Centres: krr.Centres{M: 12, Seed: 3}}
	add(krr.FalkonKind, fa, classCtx, fa.FitTargets(ctx, x, onehot))
	tm := mat.NewDense(30, 1, nil)
	for i := range labels {
		tm.Set(i, 0, x.At(i, 0)+x.At(i, 2))
	}
	rf := &krr.RandomFeatures{Sigma: 0.7, D: 20, Lambda: 1e-3, Seed: 4}
	add(krr.RandomFeaturesKind, rf, Context{}, rf.FitTargets(ctx, x, tm))
	sv := &svm.PointSVC{Kernel: kernel.Gaussian{Sigma: 0.6}, C: 2}
	add(svm.PointSVCKind, sv, classCtx, sv.Fit(ctx, x, labels))
	kc := &krr.Classifier{Model: &krr.Nystrom{Kernel: kernel.Gaussian{Sigma: 0.8}, Lambda: 1e-3, Centres: krr.Centres{M: 10, Seed: 5}}}
	add(krr.ClassifierKind, kc, classCtx, kc.Fit(ctx, x, labels))
	wl, wlCtx, err := wlFixture(t)
	add(graphkernels.WLClassifierKind, wl, wlCtx, err)
	roleFixtures(t, out, nodeCtx, x, labels, classCtx)
	return out
}

// roleFixtures adds a fixture for every kind opened by its role that has
// none yet: the model with its default hyperparameters, fitted on the
// tiny graph's labels (a node classifier) or on the circle's three classes
// (a point classifier). A kind whose defaults cannot fit there needs a
// fixture of its own above.
func roleFixtures(t *testing.T, out map[string]kindFixture, nodeCtx Context, x *mat.Dense, labels []int, classCtx Context) {
	ds := tiny(t)
	for _, kind := range roleKinds() {
		if _, ok := out[kind]; ok {
			continue
		}
		m, err := persist.New(kind)
		require.NoError(t, err)
		c := classCtx
		switch m := m.(type) {
		case nodeClassifier:
			err, c = m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, ds.Labels), nodeCtx
		case pointClassifier:
			err = m.Fit(context.Background(), x, labels)
		}
		require.NoError(t, err, "%s with its defaults: give it a fixture of its own", kind)
		out[kind] = kindFixture{m, c}
	}
}

// kindAnswers is every prediction an opened model gives: of its fitted
// nodes or points, of new nodes and of new points, as JSON (whose floats
// are the shortest exact decimal form, so equal JSON is equal bits).
func kindAnswers(t *testing.T, s *Saved) []byte {
	t.Helper()
	type answers struct {
		Fitted []serve.Prediction `json:"fitted"`
		Nodes  []serve.Prediction `json:"nodes,omitempty"`
		Points []serve.Prediction `json:"points,omitempty"`
		Graphs []serve.Prediction `json:"graphs,omitempty"`
	}
	a := answers{Fitted: s.PredictFitted()}
	var err error
	if s.Metadata().Input == serve.InputGraphs {
		a.Graphs, err = s.PredictGraphs(context.Background(), wlQueries(t))
		require.NoError(t, err)
	} else if s.Metadata().Nodes > 0 {
		nodes := []serve.NewNode{
			{ID: "x", Edges: []serve.Edge{{To: "paper_2", Weight: 1}, {To: "paper_9", Weight: 0.5}}},
			{ID: "y", Edges: []serve.Edge{{To: "paper_11", Weight: 2}}},
			{ID: "z"},
		}
		if d := s.Metadata().NodeFeatures; d > 0 {
			// The feature models take each new node's features too.
			for i := range nodes {
				nodes[i].Features = make([]float64, d)
				for k := range d {
					nodes[i].Features[k] = float64(i+1) * (0.5 + float64(k))
				}
			}
		}
		a.Nodes, err = s.PredictNodes(context.Background(), nodes)
		if k := s.Metadata().Kind; k == nodeclass.ChannelMLPKind || k == nodeclass.APPNPNetKind || k == linbp.PropagationKind {
			// They answer for their fitted nodes only, and say so.
			var ie *serve.InputError
			require.ErrorAs(t, err, &ie, k)
			require.ErrorContains(t, err, "fitted nodes only", k)
			require.Zero(t, s.Metadata().NodeFeatures, k)
		} else {
			require.NoError(t, err)
		}
		if k := s.Metadata().Kind; strings.HasPrefix(k, "nodeclass.") && k != nodeclass.ChannelMLPKind && k != nodeclass.APPNPNetKind {
			require.Equal(t, 4, s.Metadata().NodeFeatures)
		}
	} else {
		a.Points, err = s.PredictPoints(context.Background(), [][]float64{{1, 0, 0}, {0.3, -0.9, 0.05}, {3, 3, 3}})
		require.NoError(t, err)
	}
	b, err := json.Marshal(a)
	require.NoError(t, err)
	return b
}

// TestEveryKindInANewProcess: for every kind Open reads, a small fitted
// model saved here and opened by a new process answers bitwise the same,
// and flipping any byte of its file is an error.
func TestEveryKindInANewProcess(t *testing.T) {
	if os.Getenv("GSSL_SAVEDMODEL_KINDS") != "" {
		return
	}
	fx := kindFixtures(t)
	var kinds []string
	for k := range fx {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	want := slices.Sorted(slices.Values(Kinds()))
	require.Equal(t, want, kinds, "a fixture for every kind Open reads")
	dir := t.TempDir()
	expect := map[string][]byte{}
	for _, kind := range kinds {
		f, err := File(fx[kind].m, fx[kind].c)
		require.NoError(t, err, kind)
		b, err := f.MarshalBinary()
		require.NoError(t, err, kind)
		require.NoError(t, os.WriteFile(filepath.Join(dir, kind+".gssl"), b, 0o644))
		s, err := Decode(f) // in memory, before any bytes
		require.NoError(t, err, kind)
		expect[kind] = kindAnswers(t, s)
		for i := range b {
			d := bytes.Clone(b)
			d[i] ^= 0x80
			g, err := modelfile.Unmarshal(d)
			if err == nil {
				_, err = Decode(g)
			}
			require.Error(t, err, "%s: byte %d of %d flipped", kind, i, len(b))
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEveryKindInANewProcessChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GSSL_SAVEDMODEL_KINDS="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, kind := range kinds {
		got, err := os.ReadFile(filepath.Join(dir, kind+".json"))
		require.NoError(t, err, kind)
		assert.Equal(t, string(expect[kind]), string(got), "%s: the new process's answers", kind)
	}
}

func TestEveryKindInANewProcessChild(t *testing.T) {
	dir := os.Getenv("GSSL_SAVEDMODEL_KINDS")
	if dir == "" {
		t.Skip("run by TestEveryKindInANewProcess")
	}
	for _, kind := range Kinds() {
		s, err := Open(filepath.Join(dir, kind+".gssl"))
		require.NoError(t, err, kind)
		require.Equal(t, kind, s.Metadata().Kind)
		require.NoError(t, os.WriteFile(filepath.Join(dir, kind+".json"), kindAnswers(t, s), 0o644))
	}
}
