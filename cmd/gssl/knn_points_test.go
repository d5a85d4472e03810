package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// bruteKNN is a reference for the new-point edges: the fitted points
// sorted by squared distance to q (ties by index), the first k, and the
// distance to the neighbour of rank r (1-based).
func bruteKNN(x *mat.Dense, q []float64, exclude, k int) (idx []int, d2 []float64) {
	n, d := x.Dims()
	all := make([]int, 0, n)
	dist := make([]float64, n)
	for j := 0; j < n; j++ {
		s := 0.0
		for t := 0; t < d; t++ {
			v := q[t] - x.At(j, t)
			s += v * v
		}
		dist[j] = s
		if j != exclude {
			all = append(all, j)
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return dist[all[a]] < dist[all[b]] })
	for _, j := range all[:k] {
		idx, d2 = append(idx, j), append(d2, dist[j])
	}
	return idx, d2
}

// TestKNNModelPredictsNewPoints: a label-spreading and an STKR model fitted
// on the KNN graph of two moons (--features) answer gssl predict
// --features and gssl serve's "points" for new points exactly as the same
// model answers new nodes whose edges go to their K nearest fitted points,
// found and weighted here by brute force (connectivity 1, the self-tuning
// Gaussian exp(−d²/(σ_xσ_j)), IMGP's Ã(x, x_j)/(D̃(x) D̃_j)).
func TestKNNModelPredictsNewPoints(t *testing.T) {
	const k = 10
	feat := filepath.Join(knnFixtures, "moons.npy")
	labels := filepath.Join(knnFixtures, "moons_labels_0.npy")
	x, err := loaders.ReadNPY(feat)
	require.NoError(t, err)
	n, _ := x.Dims()
	dir := t.TempDir()
	newPts := [][]float64{{0.1, 0.9}, {1.9, 0.1}, {0.5, -0.3}, {-1, 0.2}, {1, 0}}
	var csv strings.Builder
	csv.WriteString("x,y\n")
	for _, p := range newPts {
		fmt.Fprintf(&csv, "%g,%g\n", p[0], p[1])
	}
	newPath := filepath.Join(dir, "new.csv")
	require.NoError(t, os.WriteFile(newPath, []byte(csv.String()), 0o644))

	// The fitted points' own neighbourhoods: the 7th-neighbour distance
	// (self-tuning scale), the or-rule neighbour sets and the median K-th
	// distance (IMGP's default σ).
	near := make([]map[int]bool, n)
	scale := make([]float64, n)
	kth := make([]float64, n)
	for i := 0; i < n; i++ {
		idx, d2 := bruteKNN(x, x.RawRowView(i), i, k)
		near[i] = map[int]bool{}
		for _, j := range idx {
			near[i][j] = true
		}
		scale[i], kth[i] = math.Sqrt(d2[6]), math.Sqrt(d2[k-1])
	}
	sorted := append([]float64(nil), kth...)
	sort.Float64s(sorted)
	sigma := sorted[(n-1)/2]
	dTilde := make([]float64, n)
	for i := 0; i < n; i++ {
		dTilde[i] = 1
		for j := 0; j < n; j++ {
			if j != i && (near[i][j] || near[j][i]) {
				_, d2 := bruteKNN(x.Slice(j, j+1, 0, 2).(*mat.Dense), x.RawRowView(i), -1, 1)
				dTilde[i] += math.Exp(-d2[0] / (2 * sigma * sigma))
			}
		}
	}
	weigh := map[string]func(idx []int, d2 []float64) []float64{
		"connectivity": func(idx []int, _ []float64) []float64 {
			w := make([]float64, len(idx))
			for p := range w {
				w[p] = 1
			}
			return w
		},
		"gaussian": func(idx []int, d2 []float64) []float64 {
			sx := math.Sqrt(d2[6])
			w := make([]float64, len(idx))
			for p, j := range idx {
				w[p] = math.Exp(-d2[p] / (sx * scale[j]))
			}
			return w
		},
		"imgp": func(idx []int, d2 []float64) []float64 {
			w := make([]float64, len(idx))
			sum := 0.0
			for p := range idx {
				w[p] = math.Exp(-d2[p] / (2 * sigma * sigma))
				sum += w[p]
			}
			for p, j := range idx {
				w[p] /= sum * dTilde[j]
			}
			return w
		},
	}
	for _, model := range []string{"labelprop", "stkr"} {
		for _, kernel := range []string{"connectivity", "gaussian", "imgp"} {
			t.Run(model+"/"+kernel, func(t *testing.T) {
				path := filepath.Join(dir, model+"-"+kernel+".gssl")
				_, _, err := runRoot(t, model, "--features", feat, "--labels", labels, "--knn-weights", kernel, "--save", path)
				require.NoError(t, err)
				stdout, _, err := runRoot(t, "predict", "--model", path, "--features", newPath, "--json")
				require.NoError(t, err)
				var res predictResult
				require.NoError(t, json.Unmarshal([]byte(stdout), &res))
				require.Len(t, res.Predictions, len(newPts))
				assert.Equal(t, "features", res.Input)

				s, err := savedmodel.Open(path)
				require.NoError(t, err)
				assert.Equal(t, 2, s.Metadata().Features)
				var nodes []serve.NewNode
				for i, p := range newPts {
					idx, d2 := bruteKNN(x, p, -1, k)
					nn := serve.NewNode{ID: strconv.Itoa(i)}
					for q, w := range weigh[kernel](idx, d2) {
						nn.Edges = append(nn.Edges, serve.Edge{To: strconv.Itoa(idx[q]), Weight: w})
					}
					nodes = append(nodes, nn)
				}
				want, err := s.PredictNodes(context.Background(), nodes)
				require.NoError(t, err)
				for i := range want {
					assert.Equal(t, want[i].Label, res.Predictions[i].Label, "point %d", i)
					assert.InDeltaSlice(t, want[i].Probabilities, res.Predictions[i].Probabilities, 1e-12, "point %d", i)
					assert.InDeltaSlice(t, want[i].Scores, res.Predictions[i].Scores, 1e-12, "point %d", i)
				}

				// gssl serve: the same points in a request.
				h, err := serve.NewHandler(s, serve.Config{MaxBatch: 100})
				require.NoError(t, err)
				body, err := json.Marshal(map[string]any{"points": newPts})
				require.NoError(t, err)
				post := func(body string) *httptest.ResponseRecorder {
					r := httptest.NewRequest("POST", "/v1/predict", strings.NewReader(body))
					r.Header.Set("Content-Type", "application/json")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					return w
				}
				w := post(string(body))
				require.Equal(t, 200, w.Code, w.Body.String())
				var served struct {
					Predictions []serve.Prediction `json:"predictions"`
				}
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &served))
				require.Len(t, served.Predictions, len(newPts))
				for i := range want {
					assert.Equal(t, want[i].Label, served.Predictions[i].Label)
					assert.InDeltaSlice(t, want[i].Probabilities, served.Predictions[i].Probabilities, 1e-12)
				}
				// A point of the wrong dimension is a 4xx naming it.
				w = post(`{"points":[[1,2,3]]}`)
				assert.Equal(t, 400, w.Code/100*100, w.Body.String())
				assert.Contains(t, w.Body.String(), "points[0]")
			})
		}
	}
}

// TestKNNWritesEveryGraphFormat: gssl knn --features writes the graph as
// Matrix Market, .gsg, SciPy .npz and edge tables, and each reads back
// (as --edges) to the same graph.
func TestKNNWritesEveryGraphFormat(t *testing.T) {
	feat := filepath.Join(knnFixtures, "moons.npy")
	dir := t.TempDir()
	var first *loaders.NodeDataset
	for _, ext := range []string{"mtx", "gsg", "npz", "csv", "tsv", "txt"} {
		out := filepath.Join(dir, "g."+ext)
		stdout, stderr, err := runRoot(t, "knn", "--features", feat, "--neighbors", "7", "--knn-weights", "gaussian", "--out", out, "--json", "--recall-sample", "0")
		require.NoError(t, err, stderr)
		assert.Contains(t, stderr, "k = 7, exact search, or rule, gaussian weights (self-tuning")
		obj := decodeOne(t, []byte(stdout))
		assert.Equal(t, 500.0, obj["nodes"])
		ds, err := loaders.LoadNodes(loaders.NodeFiles{Edges: out, Graph: loaders.UserGraphOptions()})
		require.NoError(t, err, ext)
		defer ds.Close()
		require.Equal(t, 500, ds.Graph.Nodes(), ext)
		if first == nil {
			first = ds
			assert.Equal(t, obj["edges"], float64(ds.Graph.Edges()))
			continue
		}
		require.Equal(t, first.Graph.Edges(), ds.Graph.Edges(), ext)
		for i := 0; i < 500; i++ {
			u := nodeIndex(t, first, i)
			v := nodeIndex(t, ds, i)
			cu, wu := first.Graph.Row(u)
			cv, wv := ds.Graph.Row(v)
			require.Equal(t, len(cu), len(cv), "%s node %d", ext, i)
			m := map[string]float64{}
			for p, c := range cu {
				m[nodeID(first, int(c))] = wu[p]
			}
			for p, c := range cv {
				assert.InDelta(t, m[nodeID(ds, int(c))], wv[p], 1e-15, "%s node %d", ext, i)
			}
		}
	}
}

func nodeIndex(t *testing.T, ds *loaders.NodeDataset, i int) int {
	if ds.IDs == nil {
		return i
	}
	j, ok := ds.IDs.Lookup(strconv.Itoa(i))
	require.True(t, ok)
	return j
}
