package graph

import "fmt"

// Place returns g as the subgraph of a graph on n ≥ g.Nodes() nodes: node i
// of g becomes node place[i], and the other nodes are isolated. place must be
// strictly increasing (so rows stay sorted); nil places node i at i, adding
// isolated nodes g.Nodes()..n−1 at the end. The result shares g's weights;
// its columns are g's when place is nil and a remapped copy (4 bytes per
// stored entry) otherwise. Readers that number the nodes of an edge list
// first and meet nodes without edges later (labelled isolated nodes) use it.
func (g *CSR) Place(n int, place []int32) (*CSR, error) {
	m := g.n
	if n < m {
		return nil, fmt.Errorf("graph: cannot place %d nodes among %d", m, n)
	}
	if err := checkN(n); err != nil {
		return nil, err
	}
	if place != nil {
		if len(place) != m {
			return nil, fmt.Errorf("graph: %d places for %d nodes", len(place), m)
		}
		for i, p := range place {
			if p < 0 || int(p) >= n || (i > 0 && p <= place[i-1]) {
				return nil, fmt.Errorf("graph: place %d of node %d is out of range [0, %d) or not increasing", p, i, n)
			}
		}
	}
	if place == nil && n == m {
		return g, nil
	}
	indptr := make([]int, n+1)
	degree := make([]float64, n)
	indices := g.indices
	if place == nil {
		copy(indptr, g.indptr)
		for i := m + 1; i <= n; i++ {
			indptr[i] = g.indptr[m]
		}
		copy(degree, g.degree)
	} else {
		indices = make([]int32, len(g.indices))
		for k, c := range g.indices {
			indices[k] = place[c]
		}
		next := 0 // the next old node to place
		for i := 0; i < n; i++ {
			indptr[i] = g.indptr[next]
			if next < m && int(place[next]) == i {
				degree[i] = g.degree[next]
				next++
			}
		}
		indptr[n] = g.indptr[m]
	}
	return &CSR{n: n, indptr: indptr, indices: indices, weights: g.weights, degree: degree, selfLoops: g.selfLoops, unitWeights: g.unitWeights}, nil
}
