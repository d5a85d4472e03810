package savedmodel

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/serve"
)

// nodeFeatureModel is a backend that predicts a new node from its features
// and its edges together (package nodeclass).
type nodeFeatureModel interface {
	// nodeFeatures is the dimension of a new node's features; 0 when the
	// model does not predict new nodes.
	nodeFeatures() int
	predictNodeFeatures(ctx context.Context, nn estimator.NewNodes, x nodeclass.Features) ([]serve.Prediction, error)
}

// nodeFeatures returns the new-node feature dimension of b, 0 for a backend
// that takes new nodes by their edges alone.
func nodeFeatures(b backend) int {
	if fm, ok := b.(nodeFeatureModel); ok {
		return fm.nodeFeatures()
	}
	return 0
}

// nodeclassModel is what the backend uses of SGC, APPNP, CorrectSmooth,
// SepGNN, LINKX, ChannelMLP, APPNPNet and linbp.Propagation; those with
// Features() > 0 (nodeclass's models but ChannelMLP and APPNPNet) also
// predict new nodes from their features and edges.
type nodeclassModel interface {
	Kind() string
	Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error)
}

// nodeclassBackend is a node classifier of features (package nodeclass:
// SGC, APPNP, Correct & Smooth, SepGNN, LINKX, ChannelMLP, APPNPNet) or of the graph
// alone (linbp.Propagation): the fitted nodes from the class
// probabilities its Predict returns, new
// nodes from their features and their edges to fitted nodes (the models'
// PredictNodes). A Correct & Smooth saved without a base that predicts
// new nodes, a ChannelMLP, an APPNPNet and a linbp.Propagation answer for
// their fitted nodes only.
type nodeclassBackend struct {
	kind string
	m    nodeclassModel
	p    *mat.Dense
}

func newNodeclassBackend(m nodeclassModel) (nodeclassBackend, error) {
	p, err := m.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		return nodeclassBackend{}, err
	}
	return nodeclassBackend{kind: m.Kind(), m: m, p: p}, nil
}

func (b nodeclassBackend) nodes() int    { r, _ := b.p.Dims(); return r }
func (b nodeclassBackend) features() int { return 0 }
func (b nodeclassBackend) classes() int  { _, c := b.p.Dims(); return c }
func (b nodeclassBackend) nodeFeatures() int {
	if fm, ok := b.m.(interface{ Features() int }); ok {
		return fm.Features()
	}
	return 0
}

// classRows turns rows of class probabilities into predictions (the most
// probable class, the first on ties).
func classRows(p *mat.Dense) []serve.Prediction {
	if p.IsEmpty() {
		return []serve.Prediction{}
	}
	r, _ := p.Dims()
	out := make([]serve.Prediction, r)
	for i := range out {
		row := slices.Clone(p.RawRowView(i))
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		out[i] = serve.Prediction{Label: strconv.Itoa(best), Probabilities: row}
	}
	return out
}

// fitted returns the fitted nodes' predictions: their class
// probabilities.
func (b nodeclassBackend) fitted() []serve.Prediction { return classRows(b.p) }

func (b nodeclassBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	// Reached only when nodeFeatures() is 0.
	var why string
	switch b.kind {
	case nodeclass.ChannelMLPKind:
		why = "a new node's channels (its neighbours' features and labels) need the graph refitted"
	case nodeclass.APPNPNetKind:
		why = "K steps of the propagation have no rule for a node alone"
	case linbp.PropagationKind:
		why = "belief propagation solves for the fitted graph's nodes together"
	default:
		return nil, &serve.InputError{Field: "nodes", Msg: fmt.Sprintf("this %s model was saved without a base model that predicts new nodes (fitted from given scores, or on a Spreading or STKR base); it answers for its fitted nodes only", b.kind)}
	}
	return nil, &serve.InputError{Field: "nodes", Msg: fmt.Sprintf("a %s model answers for its fitted nodes only: %s; fit it again on the graph with the new nodes", b.kind, why)}
}

func (b nodeclassBackend) predictNodeFeatures(ctx context.Context, nn estimator.NewNodes, x nodeclass.Features) ([]serve.Prediction, error) {
	p, err := b.m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: nodeclass.Matrix(x)})
	if err != nil {
		return nil, err
	}
	return classRows(p), nil
}

// predictNodes predicts new nodes whose edges newNodes has mapped: by
// their features and edges for a model that takes both (every node must
// carry Features of the model's dimension), else by their edges (no node
// may carry Features).
func (s *Saved) predictNodes(ctx context.Context, nodes []serve.NewNode, nn estimator.NewNodes) ([]serve.Prediction, error) {
	d := nodeFeatures(s.b)
	if _, ok := s.b.(nodeFeatureModel); d == 0 && ok {
		// A model of features that cannot predict new nodes says why.
		return s.b.predictNodes(ctx, nn)
	}
	if d == 0 {
		for i, n := range nodes {
			if n.Features != nil {
				return nil, &serve.InputError{Field: fmt.Sprintf("nodes[%d].features", i), Msg: fmt.Sprintf("a %s model predicts new nodes from their edges alone: leave out \"features\"", s.file.Kind)}
			}
		}
		return s.b.predictNodes(ctx, nn)
	}
	if len(nodes) == 0 {
		return s.b.(nodeFeatureModel).predictNodeFeatures(ctx, nn, nodeclass.Features{})
	}
	x := mat.NewDense(len(nodes), d, nil)
	for i, n := range nodes {
		switch {
		case n.Features == nil:
			return nil, &serve.InputError{Field: fmt.Sprintf("nodes[%d].features", i), Msg: fmt.Sprintf("missing: a %s model predicts a new node from its %d features and its edges to fitted nodes", s.file.Kind, d)}
		case len(n.Features) != d:
			return nil, &serve.InputError{Field: fmt.Sprintf("nodes[%d].features", i), Msg: fmt.Sprintf("%d features, the model was fitted on nodes of %d", len(n.Features), d)}
		}
		for k, v := range n.Features {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &serve.InputError{Field: fmt.Sprintf("nodes[%d].features[%d]", i, k), Msg: fmt.Sprintf("%v is not a finite number", v)}
			}
		}
		x.SetRow(i, n.Features)
	}
	return s.b.(nodeFeatureModel).predictNodeFeatures(ctx, nn, nodeclass.Features{Dense: x})
}

// NodeFeatures returns the dimension of a new node's features for a model
// that predicts new nodes from their features and edges together, 0 for
// the others (serve.Metadata.NodeFeatures).
func (s *Saved) NodeFeatures() int { return nodeFeatures(s.b) }

// PredictNodesWithFeatures predicts new nodes of a model that takes their
// features with their edges (NodeFeatures() > 0): row i of x, dense or
// sparse, holds nodes[i]'s features (nodes[i].Features is not used), and
// nodes[i].Edges its edges to fitted nodes by id. Errors are
// *serve.InputErrors naming the node or edge where they can.
func (s *Saved) PredictNodesWithFeatures(ctx context.Context, nodes []serve.NewNode, x nodeclass.Features) ([]serve.Prediction, error) {
	fm, ok := s.b.(nodeFeatureModel)
	if !ok || fm.nodeFeatures() == 0 {
		return nil, &serve.InputError{Field: "features", Msg: fmt.Sprintf("a %s model does not take new nodes' features: give their edges alone", s.file.Kind)}
	}
	if r, c := x.Dims(); r != len(nodes) || c != fm.nodeFeatures() {
		return nil, &serve.InputError{Field: "features", Msg: fmt.Sprintf("%d rows of %d features for %d new nodes; the model was fitted on nodes of %d features", r, c, len(nodes), fm.nodeFeatures())}
	}
	nn, err := s.newNodes(nodes)
	if err != nil {
		return nil, err
	}
	pred, err := fm.predictNodeFeatures(ctx, nn, x)
	if err != nil {
		return nil, err
	}
	for i := range pred {
		pred[i].ID = nodes[i].ID
		if err := s.calibrate(&pred[i], idKey(nodes[i].ID)); err != nil {
			return nil, err
		}
		s.name(&pred[i])
	}
	return pred, nil
}
