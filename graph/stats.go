package graph

import "math"

// Stats are the structural statistics of a graph that gssl info prints.
type Stats struct {
	Nodes            int     `json:"nodes"`
	Edges            int     `json:"edges"`
	SelfLoops        int     `json:"self_loops"`
	DegreeMin        float64 `json:"degree_min"` // neighbours per node (stored entries of a row)
	DegreeMean       float64 `json:"degree_mean"`
	DegreeMax        float64 `json:"degree_max"`
	Isolated         int     `json:"isolated"`
	Components       int     `json:"components"`
	LargestComponent int     `json:"largest_component"` // nodes in the largest connected component
	Bytes            int     `json:"graph_bytes"`
}

// Describe computes the Stats of g in O(nodes + edges).
func Describe(g *CSR) Stats {
	s := Stats{Nodes: g.Nodes(), Edges: g.Edges(), SelfLoops: g.SelfLoops(), Bytes: g.Bytes()}
	if g.Nodes() > 0 {
		s.DegreeMin = math.Inf(1)
		var sum float64
		for i := 0; i < g.Nodes(); i++ {
			d := float64(g.RowLen(i))
			s.DegreeMin = math.Min(s.DegreeMin, d)
			s.DegreeMax = math.Max(s.DegreeMax, d)
			sum += d
		}
		s.DegreeMean = sum / float64(g.Nodes())
	}
	s.Isolated = len(g.Isolated())
	comp, count := g.Components()
	s.Components = count
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
		s.LargestComponent = max(s.LargestComponent, sizes[c])
	}
	return s
}
