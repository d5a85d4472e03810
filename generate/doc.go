// Package generate draws random graphs with known structure, for users who
// need a test graph of a given size and for gssl's benchmarks: a
// degree-corrected stochastic block model with planted classes, power-law
// degrees and class-correlated features, and R-MAT, the Graph500 generator.
//
// # Degree-corrected stochastic block model
//
// B. Karrer and M. E. J. Newman, "Stochastic blockmodels and community
// structure in networks", Phys. Rev. E 83, 016107 (2011). Node i has class
// g_i and a degree parameter θ_i; the number of edges between i and j is
// Poisson with mean θ_i θ_j ω_{g_i g_j}, so the expected degree of i is
// proportional to θ_i. The model here draws exactly m = round(n·D/2) edges
// independently, each
//
//	within a class with probability 1 − μ: class r with probability κ_r/K,
//	    then both ends in r with probability θ_i/κ_r;
//	between classes with probability μ: the ordered class pair (r, s), r ≠ s,
//	    with probability P_rs, then one end in r and one in s, each ∝ θ;
//
// where κ_r = Σ_{i∈r} θ_i and K = Σ_r κ_r. This is the multigraph DC-SBM
// conditioned on its number of edges (Karrer and Newman, eq. 2, whose
// Poisson edge counts given their total are multinomial). P_rs = x_r x_s/Z
// is solved so that every class receives a share κ_r/K of the ends of the
// between-class edges: x_r(1 − x_r) ∝ κ_r, Σ x_r = 1. Then the expected
// degree of node i is D·n·θ_i/K and the expected fraction of its edges that
// leave its class is exactly μ, for every node. A solution exists when no
// class holds half of K or more (always with two or more equal classes);
// otherwise x_r = κ_r/K and the largest class mixes less than μ.
//
// The θ_i are drawn from a Pareto law with exponent γ, density ∝ θ^{−γ} for
// θ ≥ 1 (θ = U^{−1/(γ−1)}), capped so that no expected degree exceeds n − 1,
// which gives the degree distribution a power-law tail P(d) ∝ d^{−γ}; γ = +Inf gives equal θ
// (the planted-partition model, Poisson degrees). Classes are assigned to
// nodes in a random order, so class and node index are unrelated; their
// sizes are given or as equal as possible.
//
// Features (optional) are sparse and binary: each node draws F_node column
// indices, each from its class's T "topic" columns with probability p and
// uniformly from all F columns otherwise; repeated draws are merged, so a
// row has at most F_node non-zeros. The topic columns of class c are T
// consecutive entries, starting at c·T, of a random permutation of the
// columns (wrapping around when C·T > F).
//
// # R-MAT
//
// D. Chakrabarti, Y. Zhan and C. Faloutsos, "R-MAT: A recursive model for
// graph mining", SIAM Data Mining 2004, with the parameters and the vertex
// permutation of the Graph500 benchmark specification (§3, the Kronecker
// generator): n = 2^scale nodes, m = edge factor · n edges, each placed by
// choosing one quadrant of the adjacency matrix at every one of the scale
// levels with probabilities a, b, c, d (default 0.57, 0.19, 0.19, 0.05), and
// the node numbers then permuted at random so that degree and index are
// unrelated. The specification's final shuffle of the edge list is not
// applied: the edges are drawn independently, so their order is already
// random.
//
// # What is written
//
// Both generators produce edges as a generator of their model does: self
// loops (an edge drawn from a node to itself) and repeated edges occur and
// are written; gssl's readers merge repeats and drop self loops (see
// loaders.NodeGraphOptions), as the graph file writer here does.
// NoSelfLoops redraws an edge that would be a self loop instead, keeping m
// edges. Edges are drawn in fixed chunks, each from its own PCG stream
// (math/rand/v2) keyed by the seed and the chunk's index, computed in
// parallel and delivered in order: the output depends on the seed only, not
// on the number of cores. A node is looked up in its class's alias table
// for a batch of edges at a time, after the batch's random numbers are
// drawn, so that the lookups of a table larger than the caches overlap
// (the same numbers in the same order: the same edges). BuildGraph, whose
// graph does not depend on the order of the edges, counts and fills each
// chunk on the goroutine that drew it (UnorderedGenerator). Memory is O(n) (classes, θ and the sampling
// tables: about 30 bytes per node), never O(m): edges are streamed to a
// callback or a file in chunks.
package generate
