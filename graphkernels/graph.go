package graphkernels

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/estimator"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// Graph is one graph of a collection: its structure and a discrete label on
// every node (an atom type, say).
type Graph struct {
	// Adj is the graph. Weisfeiler–Lehman, the vertex histogram and the
	// shortest-path kernel read only its structure (which nodes are
	// adjacent); the random-walk kernel uses its weights as the adjacency
	// matrix A.
	Adj *graph.CSR
	// Labels[i] is the label of node i; nil means every node has label 0.
	// Any int is a valid label; only equality matters.
	Labels []int
}

// label returns the label of node i.
func (g Graph) label(i int) int {
	if g.Labels == nil {
		return 0
	}
	return g.Labels[i]
}

// DegreeLabels returns the degree of every node (the number of neighbours,
// a self loop not counted) as a label, the usual choice for unlabelled
// graphs.
func DegreeLabels(g *graph.CSR) []int {
	out := make([]int, g.Nodes())
	for i := range out {
		cols, _ := g.Row(i)
		d := len(cols)
		for _, c := range cols {
			if int(c) == i {
				d--
			}
		}
		out[i] = d
	}
	return out
}

// checkGraphs reports the first graph with no structure or with a label
// slice of the wrong length; what names the collection in the message.
func checkGraphs(what string, graphs []Graph) error {
	for k, g := range graphs {
		if g.Adj == nil {
			return fmt.Errorf("graphkernels: %s graph %d has no adjacency (Adj is nil)", what, k)
		}
		if g.Labels != nil && len(g.Labels) != g.Adj.Nodes() {
			return fmt.Errorf("graphkernels: %s graph %d has %d nodes but %d labels", what, k, g.Adj.Nodes(), len(g.Labels))
		}
	}
	return nil
}

// Kernel is a graph kernel fitted on a collection of training graphs and
// then evaluated between new graphs and the training graphs, as GraKeL's
// fit/transform: a transformer of graphs (estimator.Transformer) whose
// Transform(ctx, graphs) is the len(graphs)×n_train matrix k(G'_i, G_j).
// Implementations keep the fitted state (a label dictionary, the training
// graphs); Fit replaces it and computes no Gram matrix.
type Kernel interface {
	GraphTransformer
	// Gram returns the Gram matrix K_ij = k(G_i, G_j) of the training
	// graphs.
	Gram(ctx context.Context) (*mat.SymDense, error)
	// Cross is Transform with the self-similarities k(G'_i, G'_i) that
	// cosine normalisation needs.
	Cross(ctx context.Context, graphs []Graph) (cross *mat.Dense, self []float64, err error)
}

// GraphTransformer and GraphClassifier are the estimator roles on graphs:
// fitted on a collection of graphs, applied to (or predicting) the graphs
// of a query; a nil query names the fitted graphs where a model keeps
// them.
type (
	GraphTransformer = estimator.Transformer[[]Graph, []Graph]
	GraphClassifier  = estimator.Classifier[[]Graph, []Graph]
)

// FitGram fits k on graphs and returns their Gram matrix.
func FitGram(ctx context.Context, k Kernel, graphs []Graph) (*mat.SymDense, error) {
	if err := k.Fit(ctx, graphs); err != nil {
		return nil, err
	}
	return k.Gram(ctx)
}

// Progress observes a long computation: done of total units (Gram rows,
// relabelling rounds) are finished. It is called from one goroutine at a
// time.
type Progress func(done, total int)
