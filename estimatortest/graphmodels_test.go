package estimatortest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/spectral"
)

// The graph models' cases: logreg, spectral, nodeclass and stkr.
var _ = cover("logreg.Classifier", "spectral.SpectralClustering", "spectral.LaplacianEigenmap", "spectral.KernelPCA")

// twoBlocks is a seeded planted partition of 2·size nodes in two blocks
// (edges inside a block with probability 0.3, across 0.03), the class of
// every node, and every third node's label kept (−1 for the others).
func twoBlocks(size int) (*graph.CSR, []int, []int) {
	rng := rand.New(rand.NewPCG(28, 2))
	n := 2 * size
	truth := make([]int, n)
	labels := make([]int, n)
	for i := range truth {
		truth[i] = i / size
		labels[i] = -1
		if i%3 == 0 {
			labels[i] = truth[i]
		}
	}
	var e []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := 0.03
			if truth[i] == truth[j] {
				p = 0.3
			}
			if rng.Float64() < p {
				e = append(e, graph.Edge{U: i, V: j, W: 1 + rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g, truth, labels
}

// newNodes are three nodes outside the graph with edges to fitted ones.
func newNodes() *estimator.NewNodes {
	return &estimator.NewNodes{Offsets: []int{0, 2, 3, 5}, Nodes: []int32{0, 3, 30, 1, 33}, Weights: []float64{1, 0.5, 2, 1, 1}}
}

func TestLogreg(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	x := mat.NewDense(40, 3, nil)
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = i % 3
		for j := 0; j < 3; j++ {
			v := rng.NormFloat64()
			if j == labels[i] {
				v += 2
			}
			x.Set(i, j, v)
		}
	}
	labels[5] = -1
	estimatortest.Check(t, estimatortest.Case[*mat.Dense, *mat.Dense]{
		Name: "logreg.Classifier",
		New:  func() estimator.Estimator { return &logreg.Classifier{L2: 0.01} },
		Invalid: map[string]func() estimator.Estimator{
			"L2":      func() estimator.Estimator { return &logreg.Classifier{L2: nan()} },
			"Classes": func() estimator.Estimator { return &logreg.Classifier{Classes: -1} },
			"MaxIter": func() estimator.Estimator { return &logreg.Classifier{MaxIter: -1} },
			"GradTol": func() estimator.Estimator { return &logreg.Classifier{GradTol: -1} },
		},
		X: x, Labels: labels,
		Query: mat.DenseCopyOf(x.Slice(0, 7, 0, 3)), QueryRows: 7, Columns: 3,
	})
}

func TestSpectralModels(t *testing.T) {
	g, _, _ := twoBlocks(20)
	x := estimator.Nodes{Graph: g}
	q := estimator.NodeQuery{New: newNodes()}
	eigen := spectral.Settings{Seed: 1}
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: "spectral.SpectralClustering",
		New: func() estimator.Estimator {
			return &spectral.SpectralClustering{Clusters: 2, Eigen: eigen, KMeans: spectral.KMeansSettings{Seed: 2}}
		},
		Invalid: map[string]func() estimator.Estimator{
			"Clusters": func() estimator.Estimator { return &spectral.SpectralClustering{} },
			"Isolated": func() estimator.Estimator { return &spectral.SpectralClustering{Clusters: 2, Isolated: 9} },
			"Restarts": func() estimator.Estimator {
				return &spectral.SpectralClustering{Clusters: 2, KMeans: spectral.KMeansSettings{Restarts: -1}}
			},
			"Tol": func() estimator.Estimator {
				return &spectral.SpectralClustering{Clusters: 2, Eigen: spectral.Settings{Tol: 2}}
			},
		},
		X: x, Query: q, QueryRows: 3, FittedRows: 40,
	})
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: "spectral.LaplacianEigenmap",
		New:  func() estimator.Estimator { return &spectral.LaplacianEigenmap{Dim: 3, Eigen: eigen} },
		Invalid: map[string]func() estimator.Estimator{
			"Dim":      func() estimator.Estimator { return &spectral.LaplacianEigenmap{Dim: -1} },
			"Isolated": func() estimator.Estimator { return &spectral.LaplacianEigenmap{Isolated: 9} },
			"Tol":      func() estimator.Estimator { return &spectral.LaplacianEigenmap{Eigen: spectral.Settings{Tol: 2}} },
		},
		X: x, Query: q, QueryRows: 3, FittedRows: 40, Columns: 3,
	})
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: "spectral.KernelPCA",
		New:  func() estimator.Estimator { return &spectral.KernelPCA{Dim: 2, Eigen: eigen} },
		Invalid: map[string]func() estimator.Estimator{
			"Dim":      func() estimator.Estimator { return &spectral.KernelPCA{Dim: -1} },
			"Isolated": func() estimator.Estimator { return &spectral.KernelPCA{Isolated: 9} },
			"Tol":      func() estimator.Estimator { return &spectral.KernelPCA{Eigen: spectral.Settings{Tol: 2}} },
		},
		X: x, Query: q, QueryRows: 3, FittedRows: 40, Columns: 2,
	})
}

func nan() float64 { return math.NaN() }
