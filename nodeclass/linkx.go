package nodeclass

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Defaults of LINKX's fields (used where a field is zero): the settings
// BENCHMARKS.md's heterophily table scores with scripts/hetero-gnn (on
// chameleon_filtered's validation nodes a learning rate of 0.003 and a
// weight decay of 0.01 did no better beyond the noise of ten splits).
const (
	DefaultLINKXHidden       = 64
	DefaultLINKXDropout      = 0.5
	DefaultLINKXWeightDecay  = 1e-3
	DefaultLINKXLearningRate = 0.01
	DefaultLINKXEpochs       = 500
	DefaultLINKXPatience     = 50
	DefaultLINKXHoldOut      = 0.2
)

// LINKX is the network of Lim et al. 2021 for non-homophilous graphs: the
// rows of the adjacency matrix as sparse features through a linear map,
// the node features through another, the two combined with a skip
// connection and classified by a two-layer perceptron (see the package
// doc for its equations). It is fitted full-batch by Adam on the labelled
// nodes with early stopping on validation nodes; Predict returns the class
// probabilities of the fitted nodes, or of new nodes from their edges to
// fitted nodes (their row of A) and their features.
type LINKX struct {
	// Hidden is the width h of every layer, ≥ 1 (0: DefaultLINKXHidden).
	Hidden int
	// Dropout is the probability of dropping a hidden unit in training,
	// in [0, 1) (0: DefaultLINKXDropout; mlp.Off: none).
	Dropout float64
	// WeightDecay is the L2 penalty λ ≥ 0 on the weight matrices
	// (0: DefaultLINKXWeightDecay; mlp.Off: none).
	WeightDecay float64
	// LearningRate is Adam's step size, > 0 (0: DefaultLINKXLearningRate).
	LearningRate float64
	// Epochs is the most full-batch steps, ≥ 1 (0: DefaultLINKXEpochs).
	Epochs int
	// Patience is the number of epochs without a better validation score
	// after which training stops, ≥ 1 (0: DefaultLINKXPatience).
	Patience int
	// Stop is the validation score early stopping follows: StopLoss (the
	// zero value) or StopAccuracy.
	Stop StopRule
	// HoldOut is the fraction of the labelled nodes Fit keeps apart for
	// early stopping, in (0, 1) (0: DefaultLINKXHoldOut). FitValidated
	// takes the validation nodes explicitly and ignores it.
	HoldOut float64
	// Seed seeds the initial weights, the dropout masks and Fit's hold-out.
	Seed uint64

	fit *linkxFit
}

// linkxFit is a fitted LINKX: its shape and parameters and the fitted
// nodes' class probabilities.
type linkxFit struct {
	s    linkxShape
	p    *linkxParams
	prob *mat.Dense
	info estimator.Info
}

var _ estimator.NodeClassifier = (*LINKX)(nil)

func (m *LINKX) hidden() int      { return orInt(m.Hidden, DefaultLINKXHidden) }
func (m *LINKX) epochs() int      { return orInt(m.Epochs, DefaultLINKXEpochs) }
func (m *LINKX) patience() int    { return orInt(m.Patience, DefaultLINKXPatience) }
func (m *LINKX) dropout() float64 { return offRate(m.Dropout, DefaultLINKXDropout) }
func (m *LINKX) decay() float64   { return offRate(m.WeightDecay, DefaultLINKXWeightDecay) }
func (m *LINKX) rate() float64    { return orDefault(m.LearningRate, DefaultLINKXLearningRate) }
func (m *LINKX) holdOut() float64 { return orDefault(m.HoldOut, DefaultLINKXHoldOut) }

// Validate checks the hyperparameters.
func (m *LINKX) Validate() error {
	switch {
	case m.Hidden < 0:
		return fmt.Errorf("nodeclass: LINKX Hidden=%d is invalid: it must be ≥ 1 (0 for %d)", m.Hidden, DefaultLINKXHidden)
	}
	return checkTraining("LINKX", training{m.Dropout, m.WeightDecay, m.LearningRate, m.Epochs, m.Patience, m.Stop, m.HoldOut},
		training{DefaultLINKXDropout, DefaultLINKXWeightDecay, DefaultLINKXLearningRate, DefaultLINKXEpochs, DefaultLINKXPatience, StopLoss, DefaultLINKXHoldOut})
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *LINKX) Clone() *LINKX {
	c := *m
	c.fit = nil
	return &c
}

// Info reports the epochs run (Iterations) and the validation loss of the
// kept epoch (Residual) of the last fit.
func (m *LINKX) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// String names the model and its hyperparameters, as classify reports it.
func (m *LINKX) String() string {
	return fmt.Sprintf("LINKX(hidden=%d, dropout=%g, lr=%g, weight_decay=%g)", m.hidden(), m.dropout(), m.rate(), m.decay())
}

// Kind returns LINKXKind.
func (m *LINKX) Kind() string { return LINKXKind }

// Features returns the number of features the model was fitted on, 0
// before Fit.
func (m *LINKX) Features() int {
	if m.fit == nil {
		return 0
	}
	return m.fit.s.d
}

// Fit fits on the labelled nodes (label ≥ 0), keeping a seeded random
// HoldOut fraction of them apart for early stopping.
func (m *LINKX) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	return fitHeldOut(ctx, "LINKX", m.FitValidated, x, labels, m.holdOut(), m.Seed)
}

// holdOut keeps a seeded random fraction q of the labelled nodes apart
// for early stopping: it returns the labels without them, and them with
// their classes.
func holdOut(model string, labels []int, q float64, seed uint64) (fitLabels, val, valLabels []int, err error) {
	train, _ := labelled(labels)
	nv := int(math.Round(q * float64(len(train))))
	if nv < 1 || nv >= len(train) {
		return nil, nil, nil, fmt.Errorf("nodeclass: %s: %d labelled nodes with HoldOut=%v leave %d for validation and %d for training: both need ≥ 1", model, len(train), q, nv, len(train)-nv)
	}
	perm := rand.New(rand.NewPCG(seed, 0x5e9)).Perm(len(train))
	fitLabels = append([]int(nil), labels...)
	val, valLabels = make([]int, nv), make([]int, nv)
	for k, p := range perm[:nv] {
		i := train[p]
		val[k], valLabels[k] = i, labels[i]
		fitLabels[i] = -1
	}
	return fitLabels, val, valLabels, nil
}

// FitValidated fits on the labelled nodes (label ≥ 0) and stops early on
// the nodes val with classes valLabels (the split's validation nodes),
// keeping the parameters of the best epoch.
func (m *LINKX) FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	f, classes, err := checkNetInput("LINKX", x, labels, val, valLabels)
	if err != nil {
		return err
	}
	train, ytr := labelled(labels)
	n, d := f.Dims()
	s := linkxShape{n: n, d: d, h: m.hidden(), c: classes}
	src := rand.NewPCG(m.Seed, 0x11c5)
	rng := rand.New(src)
	p := newLINKXParams(s, nil)
	initLINKX(p, rng)
	nt := &linkxNet{p: p, g: newLINKXParams(s, nil), s: s, x: f, a: x.Graph, w: newLINKXWork(n, s)}
	set := trainSettings{model: "LINKX", epochs: m.epochs(), patience: m.patience(), dropout: m.dropout(), decay: m.decay(), rate: m.rate(), stop: m.Stop}
	epochs, bestLoss, err := trainNet(ctx, nt, set, src, train, ytr, val, valLabels)
	if err != nil {
		return err
	}
	m.fit = &linkxFit{s: s, p: p, prob: nt.w.prob, info: estimator.Info{Iterations: epochs, Residual: bestLoss}}
	return nil
}

// Predict returns the class probabilities of the fitted nodes
// (estimator.FittedNodes), or of new nodes given by their edges to fitted
// nodes (their row of A, whose columns are the fitted nodes) and their
// features (one row per new node, in the columns of Fit). A new node's
// prediction depends on its own row alone, so it is what refitting nothing
// and adding the node to the graph would give it; an edge between two new
// nodes has no column and is not part of the rule.
func (m *LINKX) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.fit == nil {
		return nil, estimator.NotFitted("nodeclass: LINKX.Predict")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nodeclass: LINKX predict cancelled: %w", err)
	}
	if q.New == nil {
		if q.Features != nil {
			return nil, fmt.Errorf("nodeclass: LINKX.Predict: the query has features but no new nodes: the fitted nodes keep the features of Fit; give New with the features of new nodes")
		}
		return mat.DenseCopyOf(m.fit.prob), nil
	}
	fit, nodes := m.fit, *q.New
	if nodes.Len() == 0 {
		if err := nodes.Check(fit.s.n); err != nil {
			return nil, fmt.Errorf("nodeclass: LINKX.Predict: %w", err)
		}
		return &mat.Dense{}, nil
	}
	if q.Features == nil {
		return nil, fmt.Errorf("nodeclass: LINKX.Predict: new nodes need their features (NodeQuery.Features, one row per new node)")
	}
	x := nodeFeatures(q.Features)
	if err := checkNewNodes("LINKX.Predict", fit.s.n, fit.s.d, nodes, x); err != nil {
		return nil, err
	}
	w := newLINKXWork(nodes.Len(), fit.s)
	var err error
	adj := func(dst *mat.Dense) {
		for i := range nodes.Len() {
			if i%predictCheckEvery == 0 {
				if err = ctx.Err(); err != nil {
					return
				}
			}
			out := dst.RawRowView(i)
			clear(out)
			nb, ws := nodes.Row(i)
			for k, u := range nb {
				a := 1.0
				if ws != nil {
					a = ws[k]
				}
				vec.AddScaled(out, a, fit.p.wa.RawRowView(int(u)))
			}
		}
	}
	linkxForward(fit.p, fit.s, x, func(dst *mat.Dense, _ []int) { adj(dst) }, w, nil)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: LINKX predict cancelled: %w", err)
	}
	return w.prob, nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *LINKX) Output() estimator.Output { return estimator.Probabilities }
