package estimatortest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/diffusion"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/propagate"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
)

// The graph models' cases: logreg, spectral, nodeclass and stkr.
var _ = cover("logreg.Classifier", "spectral.SpectralClustering", "spectral.LaplacianEigenmap", "spectral.KernelPCA",
	"nodeclass.SGC", "nodeclass.APPNP", "nodeclass.CorrectSmooth", "nodeclass.Spreading", "nodeclass.STKR",
	"stkr.Classifier", "stkr.Regressor")

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
		Query: mat.DenseCopyOf(x.Slice(0, 7, 0, 3)), QueryRows: 7, Columns: 3, Output: estimatortest.Probabilities,
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

// blockFeatures are seeded noisy one-hot features of the blocks of
// twoBlocks (three columns, the third noise only) for the given classes.
func blockFeatures(truth []int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(len(truth), 3, nil)
	for i, c := range truth {
		for j := 0; j < 3; j++ {
			v := 0.5 * rng.Float64()
			if j == c {
				v += 1
			}
			x.Set(i, j, v)
		}
	}
	return x
}

type nodeCase = estimatortest.Case[estimator.Nodes, estimator.NodeQuery]

func TestNodeclassModels(t *testing.T) {
	g, truth, labels := twoBlocks(20)
	x := estimator.Nodes{Graph: g, Features: blockFeatures(truth, 1)}
	q := estimator.NodeQuery{New: newNodes(), Features: blockFeatures([]int{0, 1, 1}, 2)}
	tight := propagate.Settings{Tol: 1e-10}
	cases := []nodeCase{{
		Name: "nodeclass.SGC",
		New:  func() estimator.Estimator { return &nodeclass.SGC{K: 2} },
		Invalid: map[string]func() estimator.Estimator{
			"K":             func() estimator.Estimator { return &nodeclass.SGC{K: -1} },
			"L2":            func() estimator.Estimator { return &nodeclass.SGC{L2: nan()} },
			"Normalization": func() estimator.Estimator { return &nodeclass.SGC{Normalization: 7} },
			"Classes":       func() estimator.Estimator { return &nodeclass.SGC{Classes: -1} },
			"MaxIter":       func() estimator.Estimator { return &nodeclass.SGC{MaxIter: -1} },
		},
		Query: q, QueryRows: 3, FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	}, {
		Name: "nodeclass.APPNP",
		New:  func() estimator.Estimator { return &nodeclass.APPNP{Alpha: 0.8, Propagation: tight} },
		Invalid: map[string]func() estimator.Estimator{
			"Alpha":       func() estimator.Estimator { return &nodeclass.APPNP{Alpha: 1.5} },
			"Propagation": func() estimator.Estimator { return &nodeclass.APPNP{Propagation: propagate.Settings{Tol: 2}} },
			"L2":          func() estimator.Estimator { return &nodeclass.APPNP{L2: nan()} },
		},
		Query: q, QueryRows: 3, FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	}, {
		Name: "nodeclass.CorrectSmooth",
		New:  func() estimator.Estimator { return &nodeclass.CorrectSmooth{Propagation: tight} },
		Invalid: map[string]func() estimator.Estimator{
			"CorrectAlpha": func() estimator.Estimator { return &nodeclass.CorrectSmooth{CorrectAlpha: 1} },
			"SmoothAlpha":  func() estimator.Estimator { return &nodeclass.CorrectSmooth{SmoothAlpha: -0.5} },
			"Scale":        func() estimator.Estimator { return &nodeclass.CorrectSmooth{Scale: -1} },
			"Base":         func() estimator.Estimator { return &nodeclass.CorrectSmooth{Base: &nodeclass.SGC{K: -1}} },
		},
		Query: q, QueryRows: 3, FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	}, {
		Name: "nodeclass.Spreading",
		New:  func() estimator.Estimator { return &nodeclass.Spreading{Alpha: 0.8} },
		Invalid: map[string]func() estimator.Estimator{
			"Alpha":   func() estimator.Estimator { return &nodeclass.Spreading{Alpha: 1} },
			"Classes": func() estimator.Estimator { return &nodeclass.Spreading{Classes: -2} },
		},
		FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	}, {
		Name: "nodeclass.STKR",
		New:  func() estimator.Estimator { return &nodeclass.STKR{Eta: 0.9, Beta: 0.1, FeatureWeight: 0.5} },
		Invalid: map[string]func() estimator.Estimator{
			"Eta":           func() estimator.Estimator { return &nodeclass.STKR{Eta: 1} },
			"Beta":          func() estimator.Estimator { return &nodeclass.STKR{Beta: -1} },
			"FeatureWeight": func() estimator.Estimator { return &nodeclass.STKR{FeatureWeight: nan()} },
			"Classes":       func() estimator.Estimator { return &nodeclass.STKR{Classes: -1} },
		},
		FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	}}
	for _, c := range cases {
		c.X, c.Labels = x, labels
		estimatortest.Check(t, c)
	}
}

func TestSTKRModels(t *testing.T) {
	g, truth, labels := twoBlocks(20)
	x := estimator.Nodes{Graph: g}
	q := estimator.NodeQuery{New: newNodes()}
	targets := make([]float64, len(labels))
	for i, l := range labels {
		targets[i] = math.NaN()
		if l >= 0 {
			targets[i] = float64(2*truth[i]) - 1 + 0.1*float64(i%5)
		}
	}
	reg := func(r stkr.Regressor) stkr.Regressor { return r }
	invalid := func(wrap func(stkr.Regressor) estimator.Estimator) map[string]func() estimator.Estimator {
		return map[string]func() estimator.Estimator{
			"Transform": func() estimator.Estimator { return wrap(reg(stkr.Regressor{Beta: 1})) },
			"Beta":      func() estimator.Estimator { return wrap(reg(stkr.Regressor{Transform: stkr.KRR()})) },
			"Tol":       func() estimator.Estimator { return wrap(reg(stkr.Regressor{Transform: stkr.KRR(), Beta: 1, Tol: 2})) },
			"MaxIter": func() estimator.Estimator {
				return wrap(reg(stkr.Regressor{Transform: stkr.KRR(), Beta: 1, MaxIter: -1}))
			},
		}
	}
	base := stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.1}
	ci := invalid(func(r stkr.Regressor) estimator.Estimator { return &stkr.Classifier{Regressor: r} })
	ci["Classes"] = func() estimator.Estimator { return &stkr.Classifier{Regressor: base, Classes: -1} }
	estimatortest.Check(t, nodeCase{
		Name:    "stkr.Classifier",
		New:     func() estimator.Estimator { return &stkr.Classifier{Regressor: base} },
		Invalid: ci,
		X:       x, Labels: labels,
		Query: q, QueryRows: 3, FittedRows: 40, Columns: 2, Output: estimatortest.DecisionValues,
	})
	estimatortest.Check(t, nodeCase{
		Name:    "stkr.Regressor",
		New:     func() estimator.Estimator { r := base; return &r },
		Invalid: invalid(func(r stkr.Regressor) estimator.Estimator { return &r }),
		X:       x, Targets: targets,
		Query: q, QueryRows: 3, FittedRows: 40,
	})
}

var _ = cover(diffusion.HeatClassifierKind)

func TestDiffusion(t *testing.T) {
	g, _, labels := twoBlocks(20)
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: diffusion.HeatClassifierKind,
		New:  func() estimator.Estimator { return &diffusion.HeatClassifier{Time: 3} },
		Invalid: map[string]func() estimator.Estimator{
			"Time":    func() estimator.Estimator { return &diffusion.HeatClassifier{Time: -1} },
			"Classes": func() estimator.Estimator { return &diffusion.HeatClassifier{Classes: -1} },
		},
		X: estimator.Nodes{Graph: g}, Labels: labels,
		Query: estimator.NodeQuery{New: newNodes()}, QueryRows: 3, FittedRows: 40, Columns: 2, Output: estimatortest.DecisionValues,
	})
}
