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
// its node of smallest degree (ties by id), is numbered by breadth-first search from a
// pseudo-peripheral node (George & Liu's algorithm: searches from the
// component's node of smallest degree, then from a node of smallest degree
// in the deepest level, until the depth stops growing), visiting the unnumbered neighbours of each node by increasing
// degree (ties by node id); the whole sequence is then reversed. Degrees are
// counts of neighbours, self loops excluded. The result is deterministic and
// takes O(n + nnz·log(max degree)) time and O(n) memory beyond the output.
func ReverseCuthillMcKee(g *CSR) []int {
	deg, maxDeg := neighbourCounts(g)
	byDegree := nodesByDegree(deg, maxDeg)
	search := newLevelSearch(g)
	order := make([]int, 0, g.n)
	numbered := make([]bool, g.n) // nodes already in order
	var nbrs []int32
	// The first node of byDegree not yet numbered has the smallest degree
	// of its component, since the whole component is unnumbered.
	for _, start := range byDegree {
		if numbered[start] {
			continue
		}
		root := pseudoPeripheral(start, deg, search.level, search.bfs)
		order, nbrs = appendCuthillMcKee(order, nbrs, g, root, deg, numbered)
	}
	slices.Reverse(order)
	return order
}

// neighbourCounts returns the number of neighbours of each node of g, self
// loops excluded, and the largest of them.
func neighbourCounts(g *CSR) (deg []int32, maxDeg int32) {
	indptr, indices := g.indptr, g.indices
	deg = make([]int32, g.n)
	for i := range deg {
		d := int32(indptr[i+1] - indptr[i])
		for _, c := range indices[indptr[i]:indptr[i+1]] {
			if int(c) == i {
				d--
			}
		}
		deg[i] = d
		maxDeg = max(maxDeg, d)
	}
	return deg, maxDeg
}

// nodesByDegree lists the nodes by increasing degree, ties by id, by a
// counting sort of deg (whose entries lie in [0, maxDeg]).
func nodesByDegree(deg []int32, maxDeg int32) []int32 {
	byDegree := make([]int32, len(deg))
	count := make([]int, maxDeg+2)
	for _, d := range deg {
		count[d+1]++
	}
	for d := 1; d < len(count); d++ {
		count[d] += count[d-1]
	}
	for i, d := range deg {
		byDegree[count[d]] = int32(i)
		count[d]++
	}
	return byDegree
}

// levelSearch runs the breadth-first searches of pseudoPeripheral over one
// graph, reusing its level marks and queue.
type levelSearch struct {
	indptr  []int
	indices []int32
	// level holds the BFS level of each node in the current search plus
	// one (0: not reached); the caller resets it after each search over
	// the nodes that search reached.
	level []int32
	queue []int32
}

func newLevelSearch(g *CSR) *levelSearch {
	return &levelSearch{indptr: g.indptr, indices: g.indices, level: make([]int32, g.n), queue: make([]int32, 0, g.n)}
}

// bfs runs a breadth-first search from root inside root's component and
// returns the nodes in visiting order and the depth (the number of
// levels); level is left set for the caller to read and reset.
func (s *levelSearch) bfs(root int32) ([]int32, int32) {
	level, indptr, indices := s.level, s.indptr, s.indices
	queue := append(s.queue[:0], root)
	level[root] = 1
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		lv := level[v] + 1
		for _, c := range indices[indptr[v]:indptr[v+1]] {
			if level[c] == 0 {
				level[c] = lv
				queue = append(queue, c)
			}
		}
	}
	s.queue = queue
	return queue, level[queue[len(queue)-1]]
}

// appendCuthillMcKee appends root's component to order in Cuthill–McKee
// order: breadth-first from root, the unnumbered neighbours of each node
// by increasing degree (ties by id), marking them numbered; the queue is
// the ordering itself. nbrs is scratch, returned for reuse.
func appendCuthillMcKee(order []int, nbrs []int32, g *CSR, root int32, deg []int32, numbered []bool) ([]int, []int32) {
	indptr, indices := g.indptr, g.indices
	head := len(order)
	order = append(order, int(root))
	numbered[root] = true
	for h := head; h < len(order); h++ {
		v := order[h]
		nbrs = nbrs[:0]
		for _, c := range indices[indptr[v]:indptr[v+1]] {
			if !numbered[c] {
				numbered[c] = true
				nbrs = append(nbrs, c)
			}
		}
		sortByDegree(nbrs, deg)
		for _, c := range nbrs {
			order = append(order, int(c))
		}
	}
	return order, nbrs
}

// sortByDegree sorts nodes by increasing degree, ties by id: insertion sort
// for the short lists of most nodes, pdqsort beyond.
func sortByDegree(nodes []int32, deg []int32) {
	less := func(a, b int32) bool { return deg[a] < deg[b] || (deg[a] == deg[b] && a < b) }
	if len(nodes) > 16 {
		slices.SortFunc(nodes, func(a, b int32) int {
			if less(a, b) {
				return -1
			}
			if less(b, a) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(nodes); i++ {
		v := nodes[i]
		j := i - 1
		for j >= 0 && less(v, nodes[j]) {
			nodes[j+1] = nodes[j]
			j--
		}
		nodes[j+1] = v
	}
}

// pseudoPeripheral returns a node of root's component far from the others
// (George & Liu 1979): from root, a node of smallest degree in its
// component, it searches again from a node of smallest degree (lowest id on
// ties) in the deepest level while that makes the search deeper.
func pseudoPeripheral(root int32, deg, level []int32, bfs func(int32) ([]int32, int32)) int32 {
	reset := func(nodes []int32) {
		for _, v := range nodes {
			level[v] = 0
		}
	}
	nodes, depth := bfs(root)
	for {
		next := int32(-1)
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
	var weights []float64 // nil for unit weights, as in g
	if !g.unitWeights {
		weights = make([]float64, nnz)
	}
	next := make([]int, n)
	copy(next, indptr[:n])
	// W is symmetric, so entry (i, j) of the result exists exactly when
	// row perm[j] of g holds perm[i]. Scanning the new columns j in
	// ascending order and appending j to each such row i leaves every row
	// sorted without a sort.
	if g.unitWeights {
		for j, p := range perm {
			for _, q := range g.indices[g.indptr[p]:g.indptr[p+1]] {
				i := inv[q]
				indices[next[i]] = int32(j)
				next[i]++
			}
		}
	} else {
		for j, p := range perm {
			cols, ws := g.Row(p)
			for k, q := range cols {
				i := inv[q]
				indices[next[i]] = int32(j)
				weights[next[i]] = ws[k]
				next[i]++
			}
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
