// Package knngraph builds K-nearest-neighbour graphs of point clouds, exactly
// or approximately, with the weights of Implicit Manifold Gaussian Process
// regression (IMGP: Fichera, Borovitskiy, Krause & Billard, "Implicit
// manifold Gaussian process regression", NeurIPS 2023, eq. 7 and 9–11), and
// answers neighbour queries for points outside the graph.
//
// # Search
//
// Exact finds the K nearest other points of every point by squared
// Euclidean distance, ties broken by smaller index. Distances are
// proposed in blocks with
//
//	‖x − y‖² = ‖x‖² + ‖y‖² − 2xᵀy
//
// on centred points (float32 tiles of the project's AVX2 register-blocked
// GEMM kernel, internal/gemm, by default; gonum's blas64.Gemm with
// Settings.Precision = Float64), keeping a bounded
// max-heap of candidates per query, in parallel over query blocks, with
// memory O(n·d) for the packed copy and never n×n. Exact in float32 uses
// the symmetry of the self-join: each tile of X·Xᵀ above the diagonal is
// computed once and its distances are offered to the candidate lists of
// both its rows and its columns (half the dot products of a query search).
// Every worker keeps its own lists for all points (memory O(workers·n·m)
// for m candidates); a list holds the m smallest (distance, index) pairs
// offered to it, a set that does not depend on the order of the offers,
// so the merged lists, and the result, are the same for every number of
// cores. The candidates are then re-ranked by exact float64 distances
// (SquaredDistance). Because the dot
// products carry a rounding error of at most γ_d(‖x‖+‖y‖)² (Higham 2002,
// §3.1), each candidate's exact distance lies above its approximate one
// minus that bound, so only the candidates whose lower bound does not
// exceed the K-th exact distance found so far are computed exactly (about
// K per point). A row is certified when its K-th exact distance lies below the
// largest candidate distance minus the bound; otherwise (or when an
// approximate distance was not finite) it is recomputed by a full float64
// scan (Neighbors.Rescanned counts them). The result is therefore exactly
// the brute-force answer, including ties. For float32 the centred points are
// scaled into [−1, 1] first, so tiny or huge coordinates neither underflow
// nor overflow; coordinates above 1e150 in magnitude are rejected, since
// their squared distances would overflow float64.
//
// Approximate runs NN-descent (Dong, Charikar & Li, WWW 2011): lists seeded by
// the leaves of random-projection trees (all pairs within a leaf; a point x
// goes to the side of the nearer of two random points a and b; for bytes the
// test is 2x·(b − a) < ‖b‖² − ‖a‖² in integers on the 128 coordinates of most
// variance, one dot product per point) and completed at random, then improved
// by local joins of each point's new and old candidates until fewer than δ·N·L
// entries change. The candidates are drawn as pynndescent (McInnes) draws
// them: every list entry i → j offers j to i and i to j with a random
// priority, and each point keeps the ⌈ρ·L⌉ new and ⌈ρ·L⌉ old offers of
// smallest priority, forward and reverse together (the old ones only for a
// point that has new ones: old candidates are joined only with new ones). A
// pair that shares a leaf of a tree is not compared again, in a join or in a
// later tree: it was compared when the lists were seeded, and since a list's
// worst distance only decreases, the comparison could not change a list. The
// joins run in the leaf order of the first tree, so that consecutive points
// share candidates still in cache. Byte-valued points (pixels) are searched on
// a byte copy, a quarter of float32's memory traffic, with exact integer
// distances; its columns are ordered by decreasing variance (constant ones
// dropped), and a distance is abandoned once a partial sum, checked after 256
// bytes and then every 192, reaches the larger of the two lists' worst
// distances, which the whole sum would reach too. With AVX-512 VNNI a partial
// sum up to a check c (after 512 bytes, then every 512: its bytes are cheaper
// than its checks) comes from one dot product of bytes and signed bytes
// (VPDPBUSD, 64 bytes an instruction),
//
//	Σ_{t<c} (a_t − b_t)² = U_a(c) + V_b(c) − 2·Σ_{t<c} a_t·(b_t − 128),
//	U_a(c) = Σ_{t<c} a_t² − 256·Σ_{t<c} a_t,  V_b(c) = Σ_{t<c} b_t²,
//
// with U and V stored at the head of each point's row for every check: exact
// integers, as the sums of squared 16-bit differences (AVX2 VPMADDWD) of the
// other kernels. Where a distance is abandoned changes no list.
// ApproximateBytes takes such points as bytes (images) and returns what
// Approximate returns for them as float64, bit for bit, without the
// conversion and the scan of the float64 values. All
// randomness is drawn from Descent.Seed (the candidate priorities are hashes
// of the seed, the iteration and the list position) and proposals are applied
// in a fixed order, so the result is the same for every run and number of
// cores. Final lists are re-ranked by exact distances (float32 distances of
// integer points below 2²⁴ already are). Recall measures an approximate graph
// against the exact one (recall@K, ties at the K-th distance counted as
// found).
//
// Query finds the K nearest graph nodes of new points.
//
// # Graph and weights (ALGORITHMS.md §2)
//
// NewGraph symmetrises the lists by the or-rule (IMGP's S_K:
// j ∈ KNN(i) or i ∈ KNN(j)) or the and-rule (mutual neighbours) and keeps
// squared distances as edge weights, plus a zero-distance self loop on every
// node. For a bandwidth α,
//
//	Ã_ij = S_K(x_i, x_j) exp(−‖x_i − x_j‖²/(4α²)),  Ã_ii = 1,
//	D̃ = diag(Ã1),  A = D̃^{-1} Ã D̃^{-1},  D = diag(A1),
//
// (Graph.Weights; IMGP eq. 7) and ∂Ã_ij/∂α = Ã_ij ‖x_i − x_j‖²/(2α³)
// (Graph.AffinityDerivative) come from the stored distances without a new
// search. The Gaussian exp(−d²/(2σ²)) is the same with α = σ/√2
// (GaussianAlpha). The default bandwidth (Graph.DefaultAlpha) takes σ = the
// median distance to the K-th neighbour.
//
// Out of sample (IMGP eq. 9–10), for a new x with neighbourhood N(x):
//
//	Ã(x, x_j) = exp(−‖x − x_j‖²/(4α²)),  D̃(x) = Σ_{j∈N(x)} Ã(x, x_j),
//	A(x, x_j) = Ã(x, x_j)/(D̃(x) D̃_j),   D(x) = Σ_{j∈N(x)} A(x, x_j),
//
// which is what IMGP's Nyström extension f_l(x) = (1 − λ_l)^{-1}
// Σ_j A(x, x_j)/D(x) f_l(x_j) (eq. 11) and inductive STKR need
// (Weights.Extend). With N(x) = the K nearest nodes (Query) this is IMGP's
// definition; for a graph node it reproduces the node's row of A exactly only
// with N(x_i) = its own graph row (Graph.NodeNeighbourhood), because the row
// also holds the self loop and the reverse neighbours.
//
// # Kernels (Graph.Weigh)
//
// The weights a graph method runs on, with d_ij = ‖x_i − x_j‖ on the
// symmetrised edges (no self loops unless said):
//
//	Connectivity  W_ij = 1                      (scikit-learn's kernel='knn')
//	Gaussian σ    W_ij = exp(−d_ij²/(2σ²))
//	self-tuning   W_ij = exp(−d_ij²/(σ_i σ_j)),  σ_i = d(x_i, its 7th neighbour)
//	IMGP          W = A = D̃^{-1} Ã D̃^{-1} above, Ã_ii = 1 kept
//
// The self-tuning Gaussian is the local scaling of Zelnik-Manor & Perona,
// "Self-tuning spectral clustering", NIPS 2004 (σ_i from the 7th neighbour,
// the K-th when K < 7; a zero σ_i, a point with that many duplicates, takes
// the smallest positive one). IMGP's σ defaults to the median distance to
// the K-th neighbour. Weighted.Extend weighs the edges of a new point x to
// its K nearest nodes (Query) the same way: 1; exp(−d²/(2σ²));
// exp(−d²/(σ_x σ_j)) with σ_x from x's own 7th nearest node; or IMGP's
// A(x, x_j) below. A node (or new point) whose every weight underflows to 0
// is an error naming the bandwidth.
//
// Bad input — k outside [1, n−1], NaN or infinite coordinates, rows of
// different lengths (FromRows), a non-positive bandwidth — is reported as an
// error naming the parameter or the point and coordinate. Duplicate points
// are neighbours at distance 0, stored as explicit zero distances whose
// weight is exp(0) = 1.
package knngraph
