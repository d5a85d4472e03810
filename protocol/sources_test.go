package protocol

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/svm"
)

var pointsDir = filepath.Join("..", "testdata", "points")

// TestKRRDataLoad: the user's points through KRRData are the task
// NewPointTask makes of the same files read directly, and every refused
// combination names its flags.
func TestKRRDataLoad(t *testing.T) {
	files := loaders.PointFiles{Features: filepath.Join(pointsDir, "features.csv"), Values: filepath.Join(pointsDir, "targets.csv")}
	s, err := loaders.ReadPointSet(files)
	require.NoError(t, err)
	want, err := NewPointTask(s, false)
	require.NoError(t, err)
	var seen []loaders.TableReport
	d := KRRData{Points: PointFiles{Features: files.Features, Record: func(r ...loaders.TableReport) { seen = append(seen, r...) }},
		Targets: TargetFiles{Targets: files.Values}}
	got, err := d.Load()
	require.NoError(t, err)
	assert.True(t, mat.Equal(want.X, got.X))
	assert.True(t, mat.Equal(want.XTest, got.XTest))
	assert.Equal(t, want.Targets, got.Targets)
	assert.Len(t, seen, 2, "features and targets recorded")

	for _, c := range []struct {
		d    KRRData
		want string
	}{
		{KRRData{}, "no data: give --features FILE"},
		{KRRData{Images: "x", Points: PointFiles{Features: "f"}}, "give either --images or --features"},
		{KRRData{TrainImages: -1}, "--train-images -1 / --test-images 0 is invalid"},
		{KRRData{Points: PointFiles{Features: "f"}, TrainImages: 5}, "--train-images and --test-images apply to --images"},
		{KRRData{Points: PointFiles{Features: "f"}, Labels: LabelFiles{Labels: "l"}, Targets: TargetFiles{Targets: "t"}}, "give --labels (classification) or --targets"},
		{KRRData{Labels: LabelFiles{Labels: "l"}}, "--features is needed with --labels"},
		{KRRData{Points: PointFiles{Features: "f"}, Labels: LabelFiles{TestLabels: "l"}}, "--labels is needed with --features"},
	} {
		_, err := c.d.Load()
		require.Error(t, err)
		assert.True(t, strings.HasPrefix(err.Error(), c.want), "%q, want %q", err, c.want)
	}
}

// TestSVMDataLoad: two moons split into their first TrainPoints rows, the
// same points svm.TwoMoons draws; kernel matrices above the budget are
// refused before they are drawn.
func TestSVMDataLoad(t *testing.T) {
	big := memlimit.Budget{Bytes: 1 << 40, Name: "--max-memory"}
	got, err := SVMData{Moons: 100, Noise: 0.1, Seed: 3, TrainPoints: 30}.Load(big)
	require.NoError(t, err)
	x, y, err := svm.TwoMoons(100, 0.1, 3)
	require.NoError(t, err)
	assert.True(t, mat.Equal(x.Slice(0, 30, 0, 2), got.X))
	assert.True(t, mat.Equal(x.Slice(30, 100, 0, 2), got.XTest))
	assert.Equal(t, y[:30], got.Y)
	assert.Equal(t, "two-moons(n=100, noise=0.1, seed=3)", got.Name)

	_, err = SVMData{Moons: 100000, Noise: 0.1}.Load(memlimit.Budget{Bytes: 1 << 20, Name: "--max-memory"})
	require.ErrorIs(t, err, memlimit.ErrTooMuch)
	assert.Contains(t, err.Error(), "the dense kernel matrices of 50000 training and 50000 predicted points")
	_, err = SVMData{Moons: 100, TrainPoints: 1}.Load(big)
	assert.EqualError(t, err, "--train-points 1 is invalid: it must be in [2, 100) for 100 points (0 means half)")
	_, err = SVMData{CSV: "x.csv", Points: PointFiles{Features: "f"}}.Load(big)
	assert.EqualError(t, err, "give either --features/--labels or --csv")
}

// TestLabelledRegression: the synthetic curve's labelled fraction is the
// seeded draw of RegressionTask.Label, the user's points refuse
// --labelled and --subset, and the GP's matrices are checked.
func TestLabelledRegression(t *testing.T) {
	big := memlimit.Budget{Bytes: 1 << 40, Name: "--max-memory"}
	got, err := LabelledRegression{RegressionData: RegressionData{Synthetic: 200, Seed: 5}, Labelled: 0.25}.Load(big)
	require.NoError(t, err)
	want, err := SyntheticRegression(200, 5)
	require.NoError(t, err)
	require.NoError(t, want.Label("", 0.25, 5))
	assert.Equal(t, want.Labelled, got.Labelled)
	assert.Len(t, got.Labelled, 50)

	n := len(got.Labelled)
	err = CheckGPMemory(memlimit.Budget{Bytes: 3*8*int64(n*n) - 1, Name: "--max-memory"}, n)
	require.ErrorIs(t, err, memlimit.ErrTooMuch)
	require.NoError(t, CheckGPMemory(memlimit.Budget{Bytes: 3 * 8 * int64(n*n)}, n))

	user := RegressionData{Points: PointFiles{Features: filepath.Join(pointsDir, "features.csv")}, Targets: TargetFiles{Targets: filepath.Join(pointsDir, "targets.csv")}}
	_, err = LabelledRegression{RegressionData: user, LabelledGiven: true}.Load(big)
	assert.ErrorContains(t, err, "--labelled applies to --images and --synthetic")
	_, err = LabelledRegression{RegressionData: user, Subset: "s.txt"}.Load(big)
	assert.ErrorContains(t, err, "--subset applies to --images and --synthetic")
	_, err = LabelledRegression{RegressionData: RegressionData{Synthetic: 200}, Labelled: 2}.Load(big)
	assert.EqualError(t, err, "--labelled 2 is invalid: it must be a fraction in (0, 1]")
	_, err = RegressionData{Synthetic: 200, Images: "x"}.Load()
	assert.EqualError(t, err, "give one of --features/--targets, --images and --synthetic")
}

// TestIMGPSweepData: fractions are checked, and the user's points (not
// every target known) are refused.
func TestIMGPSweepData(t *testing.T) {
	assert.EqualError(t, IMGPSweepData{}.Validate(), "no --fractions")
	assert.EqualError(t, IMGPSweepData{Fractions: []float64{0.1, 1.5}}.Validate(), "--fractions value 2 (1.5) is invalid: every labelled fraction must be in (0, 1]")
	user := RegressionData{Points: PointFiles{Features: filepath.Join(pointsDir, "features.csv")}, Targets: TargetFiles{Targets: filepath.Join(pointsDir, "targets.csv")}}
	_, _, err := IMGPSweepData{RegressionData: user, Fractions: []float64{0.5}, Seeds: 1}.Sweep(nil, memlimit.Budget{Bytes: 1 << 40})
	assert.ErrorContains(t, err, "needs every training target")
	assert.Nil(t, IMGPLikelihood{Probes: -1}.Settings(0, nil))
	s := DefaultIMGPLikelihood().Settings(7, nil)
	require.NotNil(t, s)
	assert.Equal(t, uint64(7), s.Seed)
	assert.Equal(t, spectral.DefaultProbes, s.Probes)
}

// TestKRRModelsResolve: a file of centres gives CentreIndices and its count
// replaces M, with a note; a sweep refuses it.
func TestKRRModelsResolve(t *testing.T) {
	f := filepath.Join(t.TempDir(), "centres.txt")
	require.NoError(t, os.WriteFile(f, []byte("4\n1\n9\n"), 0o644))
	spec := krr.DefaultSpec()
	spec.Centres = f
	s, note, err := KRRModels{M: []int{5}, Spec: spec}.Resolve()
	require.NoError(t, err)
	assert.Equal(t, []int{4, 1, 9}, s.CentreIndices)
	assert.Equal(t, f+" holds 3 centres; using M=3", note)
	m, err := s.Model()
	require.NoError(t, err)
	assert.Equal(t, 3, m.(*krr.Falkon).Centres.M)

	s, note, err = KRRModels{M: []int{250}, Spec: krr.DefaultSpec()}.Resolve()
	require.NoError(t, err)
	assert.Equal(t, 250, s.M)
	assert.Empty(t, note)
	_, _, err = KRRModels{M: []int{5, 10}, Spec: spec}.Resolve()
	assert.ErrorContains(t, err, "a file of centres holds one M")
	_, _, err = KRRModels{Spec: spec}.Resolve()
	assert.ErrorContains(t, err, "--m is empty")
}

// twoCliques is a data set of two 5-cliques and an isolated edge, the
// cliques labelled by class 0 and 1.
func twoCliques(t *testing.T) *loaders.NodeDataset {
	var edges []graph.Edge
	for c := range 2 {
		for i := range 5 {
			for j := i + 1; j < 5; j++ {
				edges = append(edges, graph.Edge{U: 5*c + i, V: 5*c + j, W: 1})
			}
		}
	}
	edges = append(edges, graph.Edge{U: 10, V: 11, W: 1})
	g, err := graph.FromEdges(12, edges, graph.Options{Symmetrize: graph.Undirected})
	require.NoError(t, err)
	labels := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, -1, -1}
	return &loaders.NodeDataset{Name: "cliques", Graph: g, IDs: nodeids.Identity(12), Labels: labels, Classes: 2}
}

// TestClusterView: --lcc keeps the first largest component; clustering the
// whole graph into 3 finds the components, and the two cliques score an
// adjusted Rand index of 1 against their classes.
func TestClusterView(t *testing.T) {
	ds := twoCliques(t)
	v, err := NewComponentView(ds, "cliques", true)
	require.NoError(t, err)
	assert.Equal(t, 3, v.Components)
	assert.Equal(t, 5, v.DS.Graph.Nodes())
	assert.Equal(t, []int{0, 1, 2, 3, 4}, v.Orig)
	assert.Nil(t, v.Notes("x"))

	whole, err := NewComponentView(ds, "cliques", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"the graph has 3 connected components, and x"}, whole.Notes("x"))
	sc, rep, err := ClusterModel(spectral.ClusteringSpec{Clusters: 3, Restarts: 5, Isolated: "component"}, whole, 1)
	require.NoError(t, err)
	require.NoError(t, Cluster(context.Background(), sc, whole, rep))
	assert.Equal(t, 1.0, rep.ARI)
	assert.Equal(t, 10, rep.Scored)
	assert.ElementsMatch(t, []int{5, 5, 2}, rep.Sizes)
	assert.Equal(t, 12, rep.Used)

	_, _, err = ClusterModel(spectral.ClusteringSpec{Isolated: "component"}, &ComponentView{All: &loaders.NodeDataset{}, DS: ds}, 1)
	assert.ErrorContains(t, err, "--clusters is needed")

	e, erep, err := EmbedModel(spectral.EigenmapSpec{Dim: 2, Isolated: "component"}, v, 1)
	require.NoError(t, err)
	require.NoError(t, Embed(context.Background(), e, v, erep))
	require.Len(t, erep.Eigenvalues, 2)
	for _, ev := range erep.Eigenvalues {
		// L_rw of K5: eigenvalues 0 and 5/4 (four times).
		assert.InDelta(t, 1.25, ev, 1e-8)
	}
}
