package nodeclass

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/mlp"
)

// DefaultRank is ChannelMLP's Rank when zero.
const DefaultRank = 128

// ChannelMLP classifies nodes of heterophilous graphs by a perceptron on
// their separate ego and neighbour channels: the feature rows reduced to
// Rank dimensions (Reduce), then Channels, then mlp.Classifier. Predict
// returns the class probabilities of the fitted nodes.
type ChannelMLP struct {
	// Rank is the width the features are reduced to, ≥ 1 (0: DefaultRank).
	Rank int
	// MLP holds the perceptron's hyperparameters; its Seed also seeds
	// Reduce.
	MLP mlp.Classifier

	fit *channelFit
}

type channelFit struct {
	prob *mat.Dense
	info estimator.Info
}

var _ estimator.NodeClassifier = (*ChannelMLP)(nil)

func (m *ChannelMLP) rank() int {
	if m.Rank == 0 {
		return DefaultRank
	}
	return m.Rank
}

// Validate checks Rank and the perceptron's fields.
func (m *ChannelMLP) Validate() error {
	if m.Rank < 0 {
		return fmt.Errorf("nodeclass: Rank=%d is invalid: it must be ≥ 1 (0 for %d)", m.Rank, DefaultRank)
	}
	return m.MLP.Validate()
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *ChannelMLP) Clone() *ChannelMLP {
	return &ChannelMLP{Rank: m.Rank, MLP: *m.MLP.Clone()}
}

// Info is the perceptron's: epochs run and best validation loss.
func (m *ChannelMLP) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// Fit fits on the labelled nodes (label ≥ 0), keeping MLP.HoldOut of them
// apart for early stopping.
func (m *ChannelMLP) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	return m.FitValidated(ctx, x, labels, nil, nil)
}

// FitValidated fits on the labelled nodes and stops early on the nodes val
// with their classes valLabels (the split's validation nodes; their labels
// are not used as features). Nil val holds out MLP.HoldOut of the
// labelled nodes instead.
func (m *ChannelMLP) FitValidated(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	if x.Graph == nil {
		return fmt.Errorf("nodeclass: no graph")
	}
	f := nodeFeatures(x.Features)
	if f.Dense == nil && f.Sparse == nil {
		return fmt.Errorf("nodeclass: the channel perceptron needs node features")
	}
	if n := x.Graph.Nodes(); len(labels) != n {
		return fmt.Errorf("nodeclass: %d labels for a graph of %d nodes", len(labels), n)
	}
	if len(val) != len(valLabels) {
		return fmt.Errorf("nodeclass: %d validation nodes but %d validation labels", len(val), len(valLabels))
	}
	train, trainClasses := labelled(labels)
	classes := 0
	for _, k := range trainClasses {
		classes = max(classes, k+1)
	}
	for k, i := range val {
		if i < 0 || i >= len(labels) || valLabels[k] < 0 {
			return fmt.Errorf("nodeclass: validation entry %d (node %d, label %d) is out of range", k, i, valLabels[k])
		}
		classes = max(classes, valLabels[k]+1)
	}
	z, err := Reduce(ctx, f, m.rank(), m.MLP.Seed)
	if err != nil {
		return err
	}
	ch, err := Channels(ctx, x.Graph, Features{Dense: z}, labels, classes)
	if err != nil {
		return err
	}
	net := m.MLP.Clone()
	ytr := make([]int, len(train))
	for k, i := range train {
		ytr[k] = labels[i]
	}
	if val == nil {
		err = net.Fit(ctx, rowsOf(ch, train), ytr)
	} else {
		err = net.FitValidated(ctx, rowsOf(ch, train), ytr, rowsOf(ch, val), valLabels)
	}
	if err != nil {
		return err
	}
	p, err := net.Predict(ctx, ch)
	if err != nil {
		return err
	}
	m.fit = &channelFit{prob: p, info: net.Info()}
	return nil
}

// Predict returns the class probabilities of the fitted nodes; new nodes
// are not supported (their channels need the graph refitted).
func (m *ChannelMLP) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.fit == nil {
		return nil, fmt.Errorf("nodeclass: %w", estimator.ErrNotFitted)
	}
	if q.New != nil || q.Features != nil {
		return nil, fmt.Errorf("nodeclass: the channel perceptron predicts its fitted nodes only (the zero NodeQuery)")
	}
	return mat.DenseCopyOf(m.fit.prob), nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *ChannelMLP) Output() estimator.Output { return estimator.Probabilities }

func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

// String names the model and its hyperparameters, as classify reports it.
func (m *ChannelMLP) String() string {
	return fmt.Sprintf("Channels+MLP(rank=%d, hidden=%g)", m.rank(), orDefault(float64(m.MLP.Hidden), mlp.DefaultHidden))
}
