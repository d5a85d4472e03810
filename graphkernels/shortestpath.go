package graphkernels

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
)

// ShortestPath is the shortest-path kernel (Borgwardt & Kriegel, ICDM 2005)
// with a delta kernel on path descriptors: the feature vector of a graph
// counts, over every unordered pair of distinct connected nodes {u, v}, the
// triple
//
//	(min(l_u, l_v), max(l_u, l_v), d(u, v))
//
// where d is the hop distance (breadth-first search; weights are ignored),
// and k(G, G') = ⟨φ(G), φ(G')⟩. Triples met only at Transform time get
// fresh ids, as in WeisfeilerLehman.
//
// Fit costs O(Σ_G n_G·(n_G + m_G)) time (one BFS per node) and the features
// at most Σ_G n_G²/2 entries.
type ShortestPath struct {
	// Progress, when set, observes the Gram matrix rows.
	Progress Progress

	dict  map[spKey]int32
	train []SparseVector
}

var _ Kernel = (*ShortestPath)(nil)

type spKey struct{ a, b, d int }

// Validate accepts every ShortestPath: it has no hyperparameter.
func (s *ShortestPath) Validate() error { return nil }

// Fit builds the triple dictionary and the training graphs' features.
func (s *ShortestPath) Fit(ctx context.Context, graphs []Graph) error {
	if len(graphs) == 0 {
		return fmt.Errorf("graphkernels: ShortestPath: no training graphs")
	}
	if err := checkGraphs("training", graphs); err != nil {
		return err
	}
	dict := map[spKey]int32{}
	phi, err := spFeatures(ctx, graphs, dict, nil)
	if err != nil {
		return err
	}
	s.dict, s.train = dict, phi
	return nil
}

// Gram returns the Gram matrix of the training graphs.
func (s *ShortestPath) Gram(ctx context.Context) (*mat.SymDense, error) {
	if s.dict == nil {
		return nil, estimator.NotFitted("graphkernels: ShortestPath.Gram")
	}
	return SparseGram(ctx, s.train, s.Progress)
}

// Transform returns k(new_i, train_j).
func (s *ShortestPath) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	return dropSelf(s.Cross(ctx, graphs))
}

// Info is the zero Info.
func (s *ShortestPath) Info() estimator.Info { return estimator.Info{} }

// Clone returns an unfitted copy of s.
func (s *ShortestPath) Clone() *ShortestPath { return &ShortestPath{Progress: s.Progress} }

// Features returns the feature vectors of the training graphs.
func (s *ShortestPath) Features() []SparseVector { return s.train }

// Cross returns k(new_i, train_j) and k(new_i, new_i).
func (s *ShortestPath) Cross(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	if s.dict == nil {
		return nil, nil, estimator.NotFitted("graphkernels: ShortestPath.Transform")
	}
	if err := checkGraphs("new", graphs); err != nil {
		return nil, nil, err
	}
	phi, err := spFeatures(ctx, graphs, s.dict, map[spKey]int32{})
	if err != nil {
		return nil, nil, err
	}
	return SparseCross(ctx, phi, s.train, s.Progress)
}

// spFeatures computes the triples of every graph in parallel, then numbers
// them in graph order: in dict itself when overlay is nil, otherwise new
// triples go to overlay with ids from len(dict) on.
func spFeatures(ctx context.Context, graphs []Graph, dict, overlay map[spKey]int32) ([]SparseVector, error) {
	triples := make([][]spKey, len(graphs))
	work := make([]int, len(graphs)+1)
	for g, gr := range graphs {
		n := gr.Adj.Nodes()
		work[g+1] = work[g] + n*(n+gr.Adj.NNZ())
	}
	parallel.Balanced(work, 1<<16, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			if ctx.Err() != nil {
				return
			}
			triples[g] = pathTriples(graphs[g])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	phi := make([]SparseVector, len(graphs))
	for g, ts := range triples {
		ids := make([]int32, len(ts))
		for k, t := range ts {
			id, ok := dict[t]
			if !ok && overlay != nil {
				id, ok = overlay[t]
			}
			if !ok {
				id = int32(len(dict) + len(overlay))
				if overlay == nil {
					dict[t] = id
				} else {
					overlay[t] = id
				}
			}
			ids[k] = id
		}
		phi[g] = countVector(ids)
	}
	return phi, nil
}

// pathTriples returns the descriptor of every pair u < v joined by a path.
func pathTriples(g Graph) []spKey {
	n := g.Adj.Nodes()
	dist := make([]int, n)
	queue := make([]int, 0, n)
	var out []spKey
	for s := 0; s < n; s++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		queue = append(queue[:0], s)
		for q := 0; q < len(queue); q++ {
			u := queue[q]
			cols, _ := g.Adj.Row(u)
			for _, c := range cols {
				if dist[c] < 0 {
					dist[c] = dist[u] + 1
					queue = append(queue, int(c))
				}
			}
		}
		ls := g.label(s)
		for v := s + 1; v < n; v++ {
			if dist[v] > 0 {
				a, b := ls, g.label(v)
				if b < a {
					a, b = b, a
				}
				out = append(out, spKey{a, b, dist[v]})
			}
		}
	}
	return out
}
