package nodeclass

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/mlp"
)

// Defaults of SepGNN's fields (used where a field is zero). Layers and
// Dropout are the values chosen most often on the validation nodes of the
// heterophilous sets' fixed splits by scripts/hetero-gnn (one layer won on
// chameleon, squirrel and actor, two on tolokers; dropout 0.5 beat 0.2 on
// each set where both were tried).
const (
	DefaultSepHidden       = 64
	DefaultSepLayers       = 1
	DefaultSepDropout      = 0.5
	DefaultSepWeightDecay  = 1e-5
	DefaultSepLearningRate = 0.005
	DefaultSepEpochs       = 500
	DefaultSepPatience     = 50
	DefaultSepHoldOut      = 0.2
)

// StopRule names the validation score of early stopping.
type StopRule int

const (
	// StopLoss keeps the epoch of least validation cross-entropy.
	StopLoss StopRule = iota
	// StopAccuracy keeps the epoch of highest validation accuracy, the
	// lower cross-entropy breaking ties: the selection of Platonov et al.
	// for the accuracy-scored data sets.
	StopAccuracy
)

// SepGNN is a trained message-passing network with ego and neighbour
// separation, residual connections and layer normalisation, the strong
// baseline of Platonov et al. 2023 built on GraphSAGE's "sep" layer (see
// the package doc for its equations). It is fitted full-batch by Adam on
// the labelled nodes with early stopping on validation nodes; Predict
// returns the class probabilities of the fitted nodes.
//
// Sparse features (a *loaders.Sparse) enter through a sparse product with
// the input weights: no n×d matrix is formed.
type SepGNN struct {
	// Hidden is the width of every layer, ≥ 1 (0: DefaultSepHidden).
	Hidden int
	// Layers is the number of residual message-passing layers L, ≥ 1
	// (0: DefaultSepLayers).
	Layers int
	// Dropout is the probability of dropping a unit of H_0 and of each
	// layer's update in training, in [0, 1) (0: DefaultSepDropout;
	// mlp.Off: none).
	Dropout float64
	// WeightDecay is the L2 penalty λ ≥ 0 on the weight matrices
	// (0: DefaultSepWeightDecay; mlp.Off: none).
	WeightDecay float64
	// LearningRate is Adam's step size, > 0 (0: DefaultSepLearningRate).
	LearningRate float64
	// Epochs is the most full-batch steps, ≥ 1 (0: DefaultSepEpochs).
	Epochs int
	// Patience is the number of epochs without a better validation score
	// (see Stop) after which training stops, ≥ 1 (0: DefaultSepPatience).
	Patience int
	// Stop is the validation score early stopping follows: StopLoss (the
	// zero value) or StopAccuracy.
	Stop StopRule
	// HoldOut is the fraction of the labelled nodes Fit keeps apart for
	// early stopping, in (0, 1) (0: DefaultSepHoldOut). FitValidated takes
	// the validation nodes explicitly and ignores it.
	HoldOut float64
	// Seed seeds the initial weights, the dropout masks and Fit's hold-out.
	Seed uint64

	fit *sepFit
}

// sepFit is a fitted SepGNN: its shape and parameters, the fitted nodes'
// class probabilities, and their representations H_0 … H_{L−1} (the rows
// whose neighbour means new nodes take).
type sepFit struct {
	prob   *mat.Dense
	s      sepShape
	p      *sepParams
	hidden []*mat.Dense
	info   estimator.Info
}

var _ estimator.NodeClassifier = (*SepGNN)(nil)

func (m *SepGNN) hidden() int      { return orInt(m.Hidden, DefaultSepHidden) }
func (m *SepGNN) layers() int      { return orInt(m.Layers, DefaultSepLayers) }
func (m *SepGNN) epochs() int      { return orInt(m.Epochs, DefaultSepEpochs) }
func (m *SepGNN) patience() int    { return orInt(m.Patience, DefaultSepPatience) }
func (m *SepGNN) dropout() float64 { return offRate(m.Dropout, DefaultSepDropout) }
func (m *SepGNN) decay() float64   { return offRate(m.WeightDecay, DefaultSepWeightDecay) }
func (m *SepGNN) rate() float64    { return orDefault(m.LearningRate, DefaultSepLearningRate) }
func (m *SepGNN) holdOut() float64 { return orDefault(m.HoldOut, DefaultSepHoldOut) }

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func offRate(v, def float64) float64 {
	switch v {
	case 0:
		return def
	case mlp.Off:
		return 0
	}
	return v
}

// Validate checks the hyperparameters.
func (m *SepGNN) Validate() error {
	switch {
	case m.Hidden < 0:
		return fmt.Errorf("nodeclass: SepGNN Hidden=%d is invalid: it must be ≥ 1 (0 for %d)", m.Hidden, DefaultSepHidden)
	case m.Layers < 0:
		return fmt.Errorf("nodeclass: SepGNN Layers=%d is invalid: it must be ≥ 1 (0 for %d)", m.Layers, DefaultSepLayers)
	}
	return checkTraining("SepGNN", training{m.Dropout, m.WeightDecay, m.LearningRate, m.Epochs, m.Patience, m.Stop, m.HoldOut},
		training{DefaultSepDropout, DefaultSepWeightDecay, DefaultSepLearningRate, DefaultSepEpochs, DefaultSepPatience, StopLoss, DefaultSepHoldOut})
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *SepGNN) Clone() *SepGNN {
	c := *m
	c.fit = nil
	return &c
}

// Info reports the epochs run (Iterations) and the validation loss of the
// kept epoch (Residual) of the last fit.
func (m *SepGNN) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// String names the model and its hyperparameters, as classify reports it.
func (m *SepGNN) String() string {
	return fmt.Sprintf("SepGNN(layers=%d, hidden=%d, dropout=%g, lr=%g)", m.layers(), m.hidden(), m.dropout(), m.rate())
}

// Fit fits on the labelled nodes (label ≥ 0), keeping a seeded random
// HoldOut fraction of them apart for early stopping.
func (m *SepGNN) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	return fitHeldOut(ctx, "SepGNN", m.FitValidated, x, labels, m.holdOut(), m.Seed)
}

// FitValidated fits on the labelled nodes (label ≥ 0) and stops early on
// the cross-entropy of the nodes val with classes valLabels (the split's
// validation nodes), keeping the parameters of the best epoch.
func (m *SepGNN) FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	f, classes, err := checkNetInput("SepGNN", x, labels, val, valLabels)
	if err != nil {
		return err
	}
	train, ytr := labelled(labels)
	n, d := f.Dims()
	s := sepShape{d: d, h: m.hidden(), c: classes, layers: m.layers()}
	src := rand.NewPCG(m.Seed, 0x5e7)
	rng := rand.New(src)
	p := newSepParams(s, nil)
	initSep(p, rng)
	nt := &sepNet{p: p, g: newSepParams(s, nil), s: s, x: f, op: newMeanOp(x.Graph), w: newSepWork(n, s)}
	set := trainSettings{model: "SepGNN", epochs: m.epochs(), patience: m.patience(), dropout: m.dropout(), decay: m.decay(), rate: m.rate(), stop: m.Stop}
	epochs, bestLoss, err := trainNet(ctx, nt, set, src, train, ytr, val, valLabels)
	if err != nil {
		return err
	}
	m.fit = &sepFit{prob: nt.w.prob, s: s, p: p, hidden: append([]*mat.Dense(nil), nt.w.h[:s.layers]...),
		info: estimator.Info{Iterations: epochs, Residual: bestLoss}}
	return nil
}

// sepAccuracy is the fraction of the nodes idx whose row of prob has its
// first maximum at their class y.
func sepAccuracy(prob *mat.Dense, idx, y []int) float64 {
	right := 0
	for k, i := range idx {
		row := prob.RawRowView(i)
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		if best == y[k] {
			right++
		}
	}
	return float64(right) / float64(len(idx))
}

// checkNetInput checks, for the network model, the graph, features, labels and validation nodes
// and returns the features and the number of classes.
func checkNetInput(model string, x estimator.Nodes, labels, val, valLabels []int) (Features, int, error) {
	if x.Graph == nil {
		return Features{}, 0, fmt.Errorf("nodeclass: %s: no graph", model)
	}
	f := nodeFeatures(x.Features)
	if f.Dense == nil && f.Sparse == nil {
		return f, 0, fmt.Errorf("nodeclass: %s needs node features", model)
	}
	n := x.Graph.Nodes()
	if r, _ := f.Dims(); r != n {
		return f, 0, fmt.Errorf("nodeclass: %s: %d feature rows for a graph of %d nodes", model, r, n)
	}
	if _, d := f.Dims(); d < 1 {
		return f, 0, fmt.Errorf("nodeclass: %s: the features have no columns", model)
	}
	if err := finiteFeatures(model, f); err != nil {
		return f, 0, err
	}
	if len(labels) != n {
		return f, 0, fmt.Errorf("nodeclass: %s: %d labels for a graph of %d nodes", model, len(labels), n)
	}
	classes, train := 0, 0
	for i, k := range labels {
		if k < -1 {
			return f, 0, fmt.Errorf("nodeclass: %s: node %d has label %d: labels are ≥ 0, or −1 for unknown", model, i, k)
		}
		if k >= 0 {
			train++
			classes = max(classes, k+1)
		}
	}
	if train == 0 {
		return f, 0, fmt.Errorf("nodeclass: %s: no labelled node to train on", model)
	}
	if len(val) != len(valLabels) {
		return f, 0, fmt.Errorf("nodeclass: %s: %d validation nodes but %d validation labels", model, len(val), len(valLabels))
	}
	if len(val) == 0 {
		return f, 0, fmt.Errorf("nodeclass: %s: no validation node for early stopping (use Fit to hold some out)", model)
	}
	for k, i := range val {
		if i < 0 || i >= n || valLabels[k] < 0 {
			return f, 0, fmt.Errorf("nodeclass: %s: validation entry %d (node %d, label %d) is out of range: nodes in [0, %d), labels ≥ 0", model, k, i, valLabels[k], n)
		}
		classes = max(classes, valLabels[k]+1)
	}
	return f, max(classes, 2), nil
}

// finiteFeatures reports the first feature that is NaN, infinite or beyond
// estimator.MaxMagnitude.
func finiteFeatures(model string, f Features) error {
	bad := func(v float64) bool { return !(math.Abs(v) <= estimator.MaxMagnitude) }
	if f.Dense != nil {
		r, c := f.Dense.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v := f.Dense.At(i, j); bad(v) {
					return fmt.Errorf("nodeclass: %s: feature (node %d, column %d) is %v: features must be finite and within ±%g", model, i, j, v, estimator.MaxMagnitude)
				}
			}
		}
		return nil
	}
	r, _ := f.Sparse.Dims()
	for i := 0; i < r; i++ {
		cols, vals := f.Sparse.Row(i)
		for k, v := range vals {
			if bad(v) {
				return fmt.Errorf("nodeclass: %s: feature (node %d, column %d) is %v: features must be finite and within ±%g", model, i, cols[k], v, estimator.MaxMagnitude)
			}
		}
	}
	return nil
}

// Predict returns the class probabilities of the fitted nodes
// (estimator.FittedNodes), or of new nodes given by their edges to fitted
// nodes and their features (one row per new node, in the columns of Fit),
// by the frozen-known rule of the package documentation: the fitted nodes
// keep their representations, and a new node's neighbour mean at layer l
// is the weighted mean of its neighbours' H_{l−1}.
func (m *SepGNN) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.fit == nil {
		return nil, estimator.NotFitted("nodeclass: SepGNN.Predict")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nodeclass: SepGNN predict cancelled: %w", err)
	}
	if q.New == nil {
		if q.Features != nil {
			return nil, fmt.Errorf("nodeclass: SepGNN.Predict: the query has features but no new nodes: the fitted nodes keep the features of Fit; give New with the features of new nodes")
		}
		return mat.DenseCopyOf(m.fit.prob), nil
	}
	return m.fit.predictNodes(ctx, *q.New, q.Features)
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *SepGNN) Output() estimator.Output { return estimator.Probabilities }

// Features returns the number of features the model was fitted on, 0
// before Fit.
func (m *SepGNN) Features() int {
	if m.fit == nil {
		return 0
	}
	return m.fit.s.d
}

// predictNodes runs the network on new nodes whose neighbour means are
// taken over the fitted nodes' stored representations.
func (f *sepFit) predictNodes(ctx context.Context, nodes estimator.NewNodes, xq mat.Matrix) (*mat.Dense, error) {
	n, _ := f.prob.Dims()
	if nodes.Len() == 0 {
		if err := nodes.Check(n); err != nil {
			return nil, fmt.Errorf("nodeclass: SepGNN.Predict: %w", err)
		}
		return &mat.Dense{}, nil
	}
	if xq == nil {
		return nil, fmt.Errorf("nodeclass: SepGNN.Predict: new nodes need their features (NodeQuery.Features, one row per new node)")
	}
	x := nodeFeatures(xq)
	if err := checkNewNodes("SepGNN.Predict", n, f.s.d, nodes, x); err != nil {
		return nil, err
	}
	w := newSepWork(nodes.Len(), f.s)
	var err error
	mean := func(dst, _ *mat.Dense, l int, _ []int) {
		if err == nil {
			err = newNodeMeans(ctx, dst, f.hidden[l], nodes)
		}
	}
	sepForwardWith(f.p, f.s, x, mean, w, nil)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: SepGNN.Predict: %w", err)
	}
	return w.prob, nil
}

// newNodeMeans writes into row i of dst the weighted mean of the rows of
// h at new node i's neighbours (0 for a node without edges, or whose
// edges weigh 0), summed in the order of its edges.
func newNodeMeans(ctx context.Context, dst, h *mat.Dense, nodes estimator.NewNodes) error {
	for i := range nodes.Len() {
		if i%predictCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		out := dst.RawRowView(i)
		clear(out)
		nb, ws := nodes.Row(i)
		mass := 0.0
		for k, u := range nb {
			a := 1.0
			if ws != nil {
				a = ws[k]
			}
			vec.AddScaled(out, a, h.RawRowView(int(u)))
			mass += a
		}
		if mass > 0 {
			vec.Scale(1/mass, out)
		}
	}
	return nil
}
