// Package diffusion classifies the nodes of a graph by heat diffusion of
// their labels: the scores of the classes are
//
//	F = exp(−t·L) Y,    L = I − D^{−1/2} W D^{−1/2},
//
// where W is the graph's weight matrix, D its degrees (an isolated node's
// row of D^{−1/2} W D^{−1/2} is zero), Y the one-hot matrix of the known
// labels (a zero row for an unlabelled node) and t > 0 the diffusion time;
// a node's class is its largest score. exp(−tL) is the heat kernel of the
// graph (Kondor and Lafferty 2002, "Diffusion kernels on graphs and other
// discrete structures", ICML): F is the label mass that reaches each node
// after time t of diffusion from the labelled ones.
//
// The spectrum of L lies in [0, 2], so with y = λ − 1 ∈ [−1, 1]
//
//	exp(−tλ) = Σ_k c_k T_k(λ − 1)
//
// with T_k the Chebyshev polynomials; c_k, found by interpolation at
// Chebyshev nodes, fall faster than geometrically once k exceeds t, and
// the sum stops at the first coefficient at most 2⁻⁵² of the largest. F is
// built by the three-term recurrence T_{k+1} = −2·S·T_k − T_{k−1} applied
// to Y (S = D^{−1/2} W D^{−1/2}), one block product with the graph per
// term: memory linear in nodes + edges, no dense n×n matrix.
//
// A new node, given by its edges to fitted nodes, gets the weighted mean
// of its neighbours' scores (the harmonic extension used by label
// propagation's new nodes); a new node without edges, or with weight 0
// only, gets the mean score over the fitted nodes (the class prior of the
// diffusion).
package diffusion
