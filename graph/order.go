package graph

import (
	"fmt"
	"slices"
)

// ReverseCuthillMcKee returns a node ordering of g that gathers every
// node's neighbours close to it (a small bandwidth of W), for better cache
// locality in products: perm[i] is the node to be numbered i, ready for
// Permute. It is the reverse Cuthill–McKee ordering (Cuthill & McKee 1969;
// George & Liu 1981, §4.3): each connected component, taken in the order of
// its lowest node id, is numbered by breadth-first search from a
// pseudo-peripheral node (George & Liu's algorithm: repeated searches from a
// node of smallest degree in the deepest level until the depth stops
// growing), visiting the unnumbered neighbours of each node by increasing
// degree (ties by node id); the whole sequence is then reversed. Degrees are
// counts of neighbours, self loops excluded. The result is deterministic and
// takes O(n + nnz·log(max degree)) time and O(n) memory beyond the output.
func ReverseCuthillMcKee(g *CSR) []int {
	n := g.n
	deg := make([]int32, n)
	for i := 0; i < n; i++ {
		cols, _ := g.Row(i)
		d := len(cols)
		for _, c := range cols {
			if int(c) == i {
				d--
			}
		}
		deg[i] = int32(d)
	}
	order := make([]int, 0, n)
	// level holds the BFS level of each node in the current search plus
	// one (0: not reached), reset after each search over the nodes it
	// reached; numbered marks nodes already in order.
	level := make([]int32, n)
	numbered := make([]bool, n)
	queue := make([]int, 0, n)
	// bfs runs a breadth-first search from root inside root's component
	// and returns the nodes in visiting order and the depth (the number of
	// levels); level is left set for the caller to read and reset.
	bfs := func(root int) ([]int, int32) {
		queue = append(queue[:0], root)
		level[root] = 1
		for h := 0; h < len(queue); h++ {
			v := queue[h]
			cols, _ := g.Row(v)
			for _, c := range cols {
				if level[c] == 0 {
					level[c] = level[v] + 1
					queue = append(queue, int(c))
				}
			}
		}
		return queue, level[queue[len(queue)-1]]
	}
	reset := func(nodes []int) {
		for _, v := range nodes {
			level[v] = 0
		}
	}
	var nbrs []int
	for start := 0; start < n; start++ {
		if numbered[start] {
			continue
		}
		root := pseudoPeripheral(start, deg, level, bfs, reset)
		// Cuthill–McKee from root: the queue is the ordering itself.
		head := len(order)
		order = append(order, root)
		numbered[root] = true
		for h := head; h < len(order); h++ {
			cols, _ := g.Row(order[h])
			nbrs = nbrs[:0]
			for _, c := range cols {
				if !numbered[c] {
					numbered[c] = true
					nbrs = append(nbrs, int(c))
				}
			}
			slices.SortFunc(nbrs, func(a, b int) int {
				if deg[a] != deg[b] {
					return int(deg[a] - deg[b])
				}
				return a - b
			})
			order = append(order, nbrs...)
		}
	}
	slices.Reverse(order)
	return order
}

// pseudoPeripheral returns a node of start's component far from the others
// (George & Liu 1979): from a node of smallest degree in the component, it
// searches again from a node of smallest degree (lowest id on ties) in the
// deepest level while that makes the search deeper.
func pseudoPeripheral(start int, deg, level []int32, bfs func(int) ([]int, int32), reset func([]int)) int {
	comp, _ := bfs(start)
	root := start
	for _, v := range comp {
		if deg[v] < deg[root] || (deg[v] == deg[root] && v < root) {
			root = v
		}
	}
	reset(comp)
	nodes, depth := bfs(root)
	for {
		next := -1
		for k := len(nodes) - 1; k >= 0 && level[nodes[k]] == depth; k-- {
			if v := nodes[k]; next < 0 || deg[v] < deg[next] || (deg[v] == deg[next] && v < next) {
				next = v
			}
		}
		reset(nodes)
		var d int32
		nodes, d = bfs(next)
		if d <= depth {
			reset(nodes)
			return root
		}
		root, depth = next, d
	}
}

// Permute returns the graph with node perm[i] of g renamed i:
// W'_ij = W_{perm[i], perm[j]}, that is P·W·Pᵀ with P_{i, perm[i]} = 1. It
// takes O(n + nnz) time and memory; rows stay sorted. It returns an error
// naming the offending position when perm is not a permutation of
// 0, …, Nodes()−1.
func (g *CSR) Permute(perm []int) (*CSR, error) {
	n := g.n
	if len(perm) != n {
		return nil, fmt.Errorf("graph: permutation has length %d, graph has %d nodes", len(perm), n)
	}
	inv := make([]int32, n)
	for i := range inv {
		inv[i] = -1
	}
	for i, p := range perm {
		if p < 0 || p >= n {
			return nil, fmt.Errorf("graph: permutation entry perm[%d] = %d is out of range [0, %d)", i, p, n)
		}
		if inv[p] >= 0 {
			return nil, fmt.Errorf("graph: permutation entry perm[%d] = %d repeats perm[%d]: not a permutation", i, p, inv[p])
		}
		inv[p] = int32(i)
	}
	indptr := make([]int, n+1)
	for i, p := range perm {
		indptr[i+1] = indptr[i] + g.RowLen(p)
	}
	nnz := indptr[n]
	indices := make([]int32, nnz)
	weights := make([]float64, nnz)
	next := make([]int, n)
	copy(next, indptr[:n])
	// W is symmetric, so entry (i, j) of the result exists exactly when
	// row perm[j] of g holds perm[i]. Scanning the new columns j in
	// ascending order and appending j to each such row i leaves every row
	// sorted without a sort.
	for j, p := range perm {
		cols, ws := g.Row(p)
		for k, q := range cols {
			i := inv[q]
			indices[next[i]] = int32(j)
			weights[next[i]] = ws[k]
			next[i]++
		}
	}
	out := &CSR{n: n, indptr: indptr, indices: indices, weights: weights, degree: make([]float64, n),
		selfLoops: g.selfLoops, unitWeights: g.unitWeights}
	for i, p := range perm {
		out.degree[i] = g.degree[p]
	}
	return out, nil
}

// Bandwidth returns max |i − j| over the stored entries W_ij (0 for a graph
// without edges between distinct nodes): the quantity orderings such as
// ReverseCuthillMcKee make small.
func (g *CSR) Bandwidth() int {
	bw := 0
	for i := 0; i < g.n; i++ {
		cols, _ := g.Row(i)
		if len(cols) == 0 {
			continue
		}
		bw = max(bw, i-int(cols[0]), int(cols[len(cols)-1])-i)
	}
	return bw
}
