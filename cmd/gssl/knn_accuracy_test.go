package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// knnFixtures is the folder of the moons and digits fixtures and of
// scikit-learn's accuracy on them (written by its make.py).
const knnFixtures = "../../testdata/knn_sklearn"

// sklearnResult is one data set of sklearn_results.json.
type sklearnResult struct {
	N          int       `json:"n"`
	Seeds      []int     `json:"seeds"`
	KNN7Mean   float64   `json:"sklearn_knn7_mean"`
	KNN10Mean  float64   `json:"sklearn_knn10_mean"`
	KNN7Accs   []float64 `json:"sklearn_knn7_accuracy"`
	KNN10Accs  []float64 `json:"sklearn_knn10_accuracy"`
	PerClass   int       `json:"labels_per_class"`
	Dimensions int       `json:"features"`
}

// TestKNNLabelSpreadingBeatsScikitLearn: on two moons and on digits with 5
// labels per class (5 draws each), gssl labelprop and gssl stkr given
// --features X --labels L and their defaults otherwise (the exact
// 10-nearest-neighbour graph with connectivity weights, hyperparameters by
// cross-validation over the labels) classify the unlabelled points at least
// as accurately, on average, as scikit-learn's LabelSpreading(kernel='knn')
// on the same points and labels, with K = 7 (its default) or 10 (make.py
// computed those numbers). STKR, whose cross-validation fits 15 candidates,
// runs on the first two draws of digits and is compared with scikit-learn
// on the same two.
func TestKNNLabelSpreadingBeatsScikitLearn(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(knnFixtures, "sklearn_results.json"))
	require.NoError(t, err)
	var res map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &res))
	for _, name := range []string{"moons", "digits"} {
		var sk sklearnResult
		require.NoError(t, json.Unmarshal(res[name], &sk))
		require.Len(t, sk.KNN7Accs, len(sk.Seeds))
		truth, err := loaders.ReadNPYLabels(filepath.Join(knnFixtures, name+"_y.npy"))
		require.NoError(t, err)
		require.Len(t, truth, sk.N)
		for _, command := range []string{"labelprop", "stkr"} {
			t.Run(name+"/"+command, func(t *testing.T) {
				seeds := sk.Seeds
				if command == "stkr" && name == "digits" {
					seeds = seeds[:2]
				}
				var sum, sk7, sk10 float64
				for _, seed := range seeds {
					labelsPath := filepath.Join(knnFixtures, fmt.Sprintf("%s_labels_%d.npy", name, seed))
					labels, err := loaders.ReadNPYLabels(labelsPath)
					require.NoError(t, err)
					out := filepath.Join(t.TempDir(), "p.csv")
					_, stderr, err := runRoot(t, command, "--features", filepath.Join(knnFixtures, name+".npy"), "--labels", labelsPath, "--out", out)
					require.NoError(t, err, stderr)
					require.Contains(t, stderr, "k = 10, exact search, connectivity weights")
					pred := map[int]string{}
					for _, r := range readCSVRows(t, out) {
						id, err := strconv.Atoi(r["id"])
						require.NoError(t, err)
						pred[id] = r["predicted"]
					}
					right, total := 0, 0
					for i, l := range labels {
						if l >= 0 {
							continue
						}
						p, ok := pred[i]
						require.True(t, ok, "point %d is not predicted", i)
						total++
						if p == strconv.Itoa(truth[i]) {
							right++
						}
					}
					acc := float64(right) / float64(total)
					t.Logf("%s %s seed %d: gssl %.4f, scikit-learn K=7 %.4f, K=10 %.4f", name, command, seed, acc, sk.KNN7Accs[seed], sk.KNN10Accs[seed])
					sum, sk7, sk10 = sum+acc, sk7+sk.KNN7Accs[seed], sk10+sk.KNN10Accs[seed]
				}
				m := float64(len(seeds))
				if len(seeds) == len(sk.Seeds) {
					// The means make.py wrote are those of the per-draw numbers.
					require.InDelta(t, sk.KNN7Mean, sk7/m, 1e-12)
					require.InDelta(t, sk.KNN10Mean, sk10/m, 1e-12)
				}
				mean := sum / m
				t.Logf("%s, %d draws: gssl %s mean accuracy %.4f; scikit-learn %.4f (K=7), %.4f (K=10)", name, len(seeds), command, mean, sk7/m, sk10/m)
				assert.GreaterOrEqual(t, mean, sk7/m)
				assert.GreaterOrEqual(t, mean, sk10/m)
			})
		}
	}
}

// TestKNNInputGraphEqualsBruteForce: the graph a node command builds from
// --features is, edge for edge, the or-symmetrised K-nearest-neighbour
// graph found by sorting all distances (digits: integer pixels, so exact
// ties are broken by smaller index as the reference does), for each kernel.
func TestKNNInputGraphEqualsBruteForce(t *testing.T) {
	path := filepath.Join(knnFixtures, "digits.npy")
	xAll, err := loaders.ReadNPY(path)
	require.NoError(t, err)
	const n, k = 400, 6
	_, d := xAll.Dims()
	x := mat.DenseCopyOf(xAll.Slice(0, n, 0, d))
	sub := filepath.Join(t.TempDir(), "x.csv")
	var text []byte
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if j > 0 {
				text = append(text, ',')
			}
			text = strconv.AppendFloat(text, x.At(i, j), 'g', -1, 64)
		}
		text = append(text, '\n')
	}
	require.NoError(t, os.WriteFile(sub, text, 0o644))
	near := make([]map[int]bool, n)
	d2 := func(i, j int) float64 {
		s := 0.0
		for t := 0; t < d; t++ {
			v := x.At(i, t) - x.At(j, t)
			s += v * v
		}
		return s
	}
	sigma := make([]float64, n)
	for i := 0; i < n; i++ {
		others := make([]int, 0, n-1)
		for j := 0; j < n; j++ {
			if j != i {
				others = append(others, j)
			}
		}
		sort.SliceStable(others, func(a, b int) bool { return d2(i, others[a]) < d2(i, others[b]) })
		near[i] = map[int]bool{}
		for _, j := range others[:k] {
			near[i][j] = true
		}
		sigma[i] = math.Sqrt(d2(i, others[min(k, 7)-1]))
	}
	for _, c := range []struct {
		weights   string
		bandwidth float64
		ref       func(i, j int) float64
	}{
		{"connectivity", 0, func(i, j int) float64 { return 1 }},
		{"gaussian", 20, func(i, j int) float64 { return math.Exp(-d2(i, j) / (2 * 20 * 20)) }},
		{"gaussian", 0, func(i, j int) float64 { return math.Exp(-d2(i, j) / (sigma[i] * sigma[j])) }},
	} {
		in := nodeInput{Features: sub, KNN: knnFlags{Neighbors: k, Weights: c.weights, Bandwidth: c.bandwidth}}
		var stderr bytes.Buffer
		ds, err := in.load(context.Background(), &stderr)
		require.NoError(t, err)
		assert.Contains(t, stderr.String(), fmt.Sprintf("k = %d, exact search, %s", k, c.weights))
		require.Equal(t, n, ds.Graph.Nodes())
		edges := 0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := 0.0
				if i != j && (near[i][j] || near[j][i]) {
					want = c.ref(i, j)
					edges++
				}
				require.InDelta(t, want, ds.Graph.Weight(i, j), 1e-12, "%s σ=%g: W[%d,%d]", c.weights, c.bandwidth, i, j)
			}
		}
		assert.Equal(t, edges/2, ds.Graph.Edges())
	}
}

// TestReadPointFeaturesIDs: a features table names its rows by a first
// column headed id (numeric or text ids), or by a first column of names
// without a header; otherwise the rows are 0, 1, … and every column is a
// feature.
func TestReadPointFeaturesIDs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text string
		ids  []string
		cols int
	}{
		{"id,x,y\n7,0,1\n9,2,3\n", []string{"7", "9"}, 2},
		{"node,x\na,0\nb,2\n", []string{"a", "b"}, 1},
		{"a,0,1\nb,2,3\n", []string{"a", "b"}, 2},
		{"x,y\n7,0\n9,2\n", []string{"0", "1"}, 2},
		{"7,0\n9,2\n", []string{"0", "1"}, 2},
	} {
		path := filepath.Join(dir, "f.csv")
		require.NoError(t, os.WriteFile(path, []byte(c.text), 0o644))
		p, err := readPointRows(context.Background(), path, "", 1<<30, io.Discard)
		require.NoError(t, err, c.text)
		x, ids := p.X, p.IDs
		r, d := x.Dims()
		assert.Equal(t, len(c.ids), r, c.text)
		assert.Equal(t, c.cols, d, c.text)
		for i, id := range c.ids {
			assert.Equal(t, id, ids.ID(i), c.text)
		}
	}
}

// TestKNNGraphEqualsScikitLearn: gssl knn --features moons.npy
// --neighbors 7 writes the graph scikit-learn's kneighbors_graph builds
// (connectivity, or-symmetrised), read from the .npz make.py saved with
// scipy.sparse.save_npz; and its memory estimate bounds the graph's arrays.
func TestKNNGraphEqualsScikitLearn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.mtx")
	stdout, _, err := runRoot(t, "knn", "--features", filepath.Join(knnFixtures, "moons.npy"), "--neighbors", "7", "--out", out, "--json", "--recall-sample", "0")
	require.NoError(t, err)
	obj := decodeOne(t, []byte(stdout))
	got, err := loaders.ReadMatrixMarket(out, loaders.UserGraphOptions())
	require.NoError(t, err)
	want, err := loaders.ReadScipyGraph(filepath.Join(knnFixtures, "moons_knn7_sklearn.npz"), loaders.UserGraphOptions())
	require.NoError(t, err)
	require.Equal(t, want.Nodes(), got.Nodes())
	require.Equal(t, want.Edges(), got.Edges())
	for i := 0; i < want.Nodes(); i++ {
		wc, _ := want.Row(i)
		gc, gw := got.Row(i)
		assert.Equal(t, wc, gc, "node %d", i)
		for _, w := range gw {
			assert.Equal(t, 1.0, w)
		}
	}
	assert.LessOrEqual(t, float64(got.Bytes()), obj["graph_bytes"].(float64))
}
