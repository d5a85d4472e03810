package savedmodel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/serve"
)

// graphModel is a backend that classifies whole graphs.
type graphModel interface {
	trainingGraphs() int
	predictGraphs(ctx context.Context, graphs []graphkernels.Graph) ([]serve.Prediction, error)
}

// wlBackend is a Weisfeiler–Lehman graph classifier: the predicted class
// and, as scores, the decision value of every one-vs-one machine, in the
// order (0,1), (0,2), … (as svmBackend). Its fitted items are its training
// graphs, predicted from the feature vectors the file stores.
type wlBackend struct{ m *graphkernels.WLClassifier }

func (b wlBackend) nodes() int          { return 0 }
func (b wlBackend) features() int       { return 0 }
func (b wlBackend) trainingGraphs() int { return b.m.TrainingGraphs() }
func (b wlBackend) classes() int {
	c := b.m.Classes()
	return c[len(c)-1] + 1
}

func (b wlBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of graphs has no fitted nodes")
}

func (b wlBackend) fitted() []serve.Prediction {
	out, err := b.predictGraphs(context.Background(), nil)
	if err != nil {
		return nil // a read model is fitted, and the context never ends
	}
	return out
}

// predictGraphs predicts graphs (nil: the training graphs): the most voted
// class and the decision values, from one evaluation of the kernel.
func (b wlBackend) predictGraphs(ctx context.Context, graphs []graphkernels.Graph) ([]serve.Prediction, error) {
	if graphs != nil && len(graphs) == 0 {
		return []serve.Prediction{}, nil
	}
	dec, err := b.m.Decision(ctx, graphs)
	if err != nil {
		return nil, err
	}
	pred := estimator.Argmax(b.m.Votes(dec))
	out := make([]serve.Prediction, len(pred))
	for i := range out {
		out[i] = serve.Prediction{Label: strconv.Itoa(pred[i]), Scores: slices.Clone(dec.RawRowView(i))}
	}
	return out, nil
}

// graphMetadata says, for a model of graphs, that requests send graphs
// and how many it was fitted on.
func (s *Saved) graphMetadata() {
	if gm, ok := s.b.(graphModel); ok {
		s.meta.Input, s.meta.Graphs = serve.InputGraphs, gm.trainingGraphs()
	}
}

var _ serve.GraphPredictor = (*Saved)(nil)

// graphsOnly is the refusal of nodes or points by a model of graphs.
func (s *Saved) graphsOnly(field string) error {
	return &serve.InputError{Field: field, Msg: fmt.Sprintf("a %s model classifies whole graphs (node labels and edges), not %s: send \"graphs\"", s.file.Kind, field)}
}

// PredictGraphs classifies graphs given by their node labels and edges
// (serve.GraphPredictor): the graph's structure is its edges symmetrised
// and self loops dropped, as loaders.LoadTU reads a TU file, and a repeated
// edge (which LoadTU refuses) counted once. A model of nodes or points
// refuses graphs with a
// *serve.InputError, as does a graph whose edges or labels do not fit its
// node count.
func (s *Saved) PredictGraphs(ctx context.Context, graphs []serve.Graph) ([]serve.Prediction, error) {
	if _, ok := s.b.(graphModel); !ok {
		return nil, s.notGraphs()
	}
	gs := make([]graphkernels.Graph, len(graphs))
	for i, g := range graphs {
		at := fmt.Sprintf("graphs[%d]", i)
		if g.Labels != nil && len(g.Labels) != g.Nodes {
			return nil, &serve.InputError{Field: at + ".labels", Msg: fmt.Sprintf("%d labels for a graph of %d nodes", len(g.Labels), g.Nodes)}
		}
		rows, cols := make([]int, len(g.Edges)), make([]int, len(g.Edges))
		for k, e := range g.Edges {
			if min(e[0], e[1]) < 0 || max(e[0], e[1]) >= g.Nodes {
				return nil, &serve.InputError{Field: fmt.Sprintf("%s.edges[%d]", at, k), Msg: fmt.Sprintf("edge %v is out of the graph's %d nodes", e, g.Nodes)}
			}
			rows[k], cols[k] = e[0], e[1]
		}
		adj, err := graph.FromCOO(g.Nodes, rows, cols, nil, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop, Symmetrize: graph.DirectedMax})
		if err != nil {
			return nil, &serve.InputError{Field: at, Msg: err.Error()}
		}
		gs[i] = graphkernels.Graph{Adj: adj, Labels: g.Labels}
	}
	pred, err := s.PredictKernelGraphs(ctx, gs)
	if err != nil {
		return nil, err
	}
	for i := range pred {
		pred[i].ID = graphs[i].ID
	}
	return pred, nil
}

// PredictKernelGraphs classifies graphs of package graphkernels (as
// loaders.LoadTU reads them), with class names; a model of nodes or
// points refuses them with a *serve.InputError.
func (s *Saved) PredictKernelGraphs(ctx context.Context, graphs []graphkernels.Graph) ([]serve.Prediction, error) {
	gm, ok := s.b.(graphModel)
	if !ok {
		return nil, s.notGraphs()
	}
	pred, err := gm.predictGraphs(ctx, graphs)
	if err != nil {
		return nil, err
	}
	for i := range pred {
		s.name(&pred[i])
	}
	return pred, nil
}

// notGraphs is the refusal of graphs by a model of nodes or points.
func (s *Saved) notGraphs() error {
	what := "new nodes from their edges to fitted nodes, not graphs: send \"nodes\""
	if s.b.nodes() == 0 {
		what = fmt.Sprintf("points from their features (%d each), not graphs: send \"points\"", s.b.features())
	}
	return &serve.InputError{Field: "graphs", Msg: fmt.Sprintf("a %s model predicts %s", s.file.Kind, what)}
}
