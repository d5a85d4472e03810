// Package labelprop classifies the nodes of a graph from a few labelled ones
// by propagating their labels along the edges.
//
// Two classic methods are provided, both multi-class through a one-hot label
// matrix Y (n×c, row i the indicator of node i's class for labelled nodes,
// zero for the others):
//
// Label spreading (Spreading) — D. Zhou, O. Bousquet, T. N. Lal, J. Weston and
// B. Schölkopf, "Learning with local and global consistency", NIPS 16, 2003,
// §2 (the iteration of step 3 of the algorithm and its limit) and §3 (the
// regularisation framework it minimises):
//
//	S = D^{-1/2} W D^{-1/2}
//	F(t+1) = a S F(t) + (1 − a) Y,   F(0) = 0
//	F* = lim F(t) = (1 − a)(I − aS)^{-1} Y,   0 < a < 1
//
// I − aS is symmetric positive definite with eigenvalues in [1 − a, 1 + a],
// so F* is also the solution of c linear systems solved together by block
// conjugate gradients (one pass over the graph per iteration for all
// classes). The fixed point contracts by a per sweep and needs about
// log(tol)/log(a) sweeps; CG needs O(√((1+a)/(1−a))) iterations, far fewer as
// a approaches 1. Both stop by the rules of the peer script lp.py: the fixed
// point when max|F(t+1) − F(t)| ≤ tol·max|F(t+1)|, CG when every class's
// relative residual ‖b − Ax‖₂/‖b‖₂ ≤ tol. The CG never forms S: with the
// search directions stored as p̃ = D^{-1/2}p, (I − aS)p = D^{1/2}p̃ −
// aD^{-1/2}(W p̃) is a product with W itself (only its pattern is read when
// every weight is 1), and the CG bookkeeping is fused into the row passes
// (spreadcg.go: the passes krylov.BlockCGWith runs, the recursion of
// krylov.BlockCG). CG's columns stop on their recursive residuals; the
// stop is then confirmed without another product when the recursive
// residual plus a bound of the rounding that separates it from the true
// residual of the returned F meets tol (resbound.go: Greenbaum's analysis
// of the residual gap written out for these passes, in the standard model
// of floating point; about 10⁻¹²‖b‖ on the graphs of the tests), and by
// a true residual otherwise (warm starts, or a bound above tol), from
// which CG restarts where a column misses tol.
// Info.Residual is the bound in the first case, the true relative
// residual in the second.
//
// Float32 gathers (gather32.go). For 5 to 16 classes each new direction
// p̃ is rounded to float32 and kept also as a float32 copy, rows padded to
// 8 or 16 entries (32 or 64 bytes: no row straddles a cache line), which
// the product gathers from: the
// product is exact for the rounded direction, and x, r and q move by that
// same direction, so r stays the residual of x in float64 and only the
// conjugacy of the directions is perturbed (about 2^-24 relative); the
// bound of resbound.go holds for these directions as it is. A true
// residual, when one is taken, is float64: t∘x enters the product
// as its float32 part plus its float32 remainder, W(h + l), exact to about
// 2^-48.
//
// Deflation (deflate.go). S has the eigenvector e = D^{1/2}1/‖D^{1/2}1‖
// with eigenvalue 1 (taken on the components that hold a label, where the
// solution lives), so (I − aS)e = (1 − a)e: the smallest eigenvalue of
// I − aS, alone at the end of the spectrum, whose component CG spends
// about an iteration on. The solution's component along e is known,
// eᵀF_j = eᵀB_j/(1 − a), and CG runs on the orthogonal complement: with
// P = I − eeᵀ (which commutes with I − aS) it is CG with P as a singular
// preconditioner, and the iterate is F = P X_s + e eᵀB/(1 − a), assembled
// before every true residual, which is that of F on the original system
// (same stopping rule, every class's relative residual ≤ tol). The stored
// residual and directions stay unprojected while their component along e
// is small against the rest (the projections enter through eᵀr and eᵀp,
// summed in the passes), so that from labels on a few nodes they stay
// zero away from them and the first products skip the zero rows (below);
// Step projects them explicitly once that component is 10² times the
// rest. It saves an iteration on the planted-partition graphs of
// BENCHMARKS.md (8 to 7 at 10 M edges, a = 0.5; 13 to 10 at 100 M edges,
// a = 0.9), none on PubMed, and costs two multiply–adds per entry in the
// passes.
// From x_0 = 0 the first direction is B, nonzero on the labelled nodes
// only, and each iteration widens the nonzero rows of p by one
// neighbourhood: while they are at most a quarter of the nodes, the
// product reads those rows only, adding W_ij·p̃_j from each nonzero row j
// into the rows i of its neighbours (pushProduct; W is symmetric, a row's
// columns ascend and the rows j are taken in increasing order, so each sum
// adds the same terms in the same order as the full product, and a sum
// from +0 is unchanged by the zeros it leaves out: the iterates are
// bitwise those of full products), at a cost in the stored entries of
// those rows instead of a random gather per stored entry; when those rows
// hold more than a sixteenth of the stored entries, it pulls over every
// row instead, in parallel, skipping the zero rows' terms
// (graph.CSR.ScaledMulBlockRowsSupportTo; the same sums). These are the
// first 3 of the 8 products of the 10 M-edge fit of BENCHMARKS.md. While
// those rows and their neighbours are at most an eighth of the nodes, it
// computes those rows of q only (nearproduct.go: the neighbours marked
// from the support's rows, the support pushed into them), reading neither
// the rest of the graph nor the rest of the blocks (the first 2 of the 3). Until a product computes every row, R, P̃ and Q
// are zero outside B's rows and the near rows so far, and the residual,
// restart, update and step passes visit those rows only (liverows.go;
// zeros left out of a sum leave it unchanged, so bitwise the same
// iterates). The nodes the solve covers (those with a path to a label)
// come from graph.CSR.Reachable, a search from the labelled nodes.
//
// Solver Chebyshev is the Chebyshev semi-iteration (Y. Saad,
// "Iterative Methods for Sparse Linear Systems", 2nd ed., SIAM 2003,
// Alg. 12.1; G. H. Golub and R. S. Varga, Numer. Math. 3, 1961) with the
// interval [1 − a, 1 + a], which contains the spectrum of I − aS for every
// graph, so no eigenvalue estimate is needed:
//
//	x_{k+1} = x_k + ρ_k ρ_{k−1} (x_k − x_{k−1}) + (2ρ_k/a)(b − (I − aS)x_k),
//	ρ_0 = a,  ρ_k = 1/(2/a − ρ_{k−1}),  x_1 = x_0 + r_0,
//
// and ‖r_k‖ ≤ ‖b‖/T_k(1/a) from x_0 = 0 (T_k the Chebyshev polynomial:
// at most ⌈acosh(1/tol)/acosh(1/a)⌉ iterations, 32 for a = 0.9 and tol
// 1e-6). It has no inner products, so an iteration is a single pass over
// the graph and two n×c blocks. The iteration is krylov.Chebyshev (the one
// copy, shared with propagate's PPR, in float64 or float32); spreadcheb.go
// supplies the residual rows of the scaled system (for 3 and 7 classes the
// whole step, the rows of W z_k coming from graph's SELL-4-σ kernels in
// batches of 64, each updated while its sums are in L1:
// graph.CSR.MulBlockRowsFunc); it stops by CG's rule
// (every class's true relative residual ≤ tol) and returns that iterate
// for every class. It takes more iterations than CG but each costs about
// half as much, so it solves faster (BENCHMARKS.md, Label propagation). Block CG
// (Solver CG) takes the peer's iteration counts less what the deflation saves.
//
// The default, Auto, runs Chebyshev while F (8nc bytes) is smaller than
// AutoCGBytes (3 MiB) and CG from there on. Once the blocks no longer fit
// the caches, a product is a random gather from memory and costs most of
// an iteration of either solver, so the iteration count decides; CG's
// error in the energy norm never exceeds Chebyshev's bound, and it needs
// far fewer iterations when the spectrum is clustered (the
// planted-partition graphs of BENCHMARKS.md, whose bulk eigenvalues lie
// near zero), while on a citation graph in cache the two counts are close
// (PubMed) and Chebyshev's cheaper iteration wins. The solver that ran is
// Info.Solver.
//
// Harmonic function (Harmonic) — X. Zhu, Z. Ghahramani and J. Lafferty,
// "Semi-supervised learning using Gaussian fields and harmonic functions",
// ICML 2003, eq. (5), with labelled nodes l and unlabelled nodes u:
//
//	L = D − W,   F_l = Y_l,   L_uu F_u = W_ul Y_l
//
// solved by block CG on L_uu, which is applied as the subgraph induced by the
// unlabelled nodes with the full-graph degrees on the diagonal (never copied
// into a dense block). Class mass normalisation (their §4, eq. 9) rescales
// column k of F by q_k / Σ_{i∈u} F_ik, q_k the frequency of class k among the
// labelled nodes, before the argmax; it is available for both methods
// (ClassMassNormalization).
//
// Isolated and unreached nodes (gssl ALGORITHMS.md §1): a node of degree zero
// has D^{-1/2}_ii := 0, a zero row and column of S. A node whose connected
// component holds no labelled node (an isolated node in particular) ends with
// a zero row of F under both methods; it has no evidence, so it is given the
// class prior q as its probabilities and argmax q as its label, and Info
// counts such nodes (Unreached, Isolated). A labelled node of degree zero is
// an error unless IsolatedSeeds is IsolatedSeedKeep.
//
// The estimator contract (package estimator): both models are node
// classifiers. Fit(ctx, estimator.Nodes{Graph: g}, labels) takes one label
// per node, −1 for unlabelled (FitIndexed is the same fit from a list of
// labelled nodes and their classes); Predict(ctx, q) returns class
// probabilities, one row per node: the fitted nodes for the zero query
// estimator.FittedNodes, or new nodes given by their edges to fitted nodes.
// The hyperparameters are exported fields whose zero value means a Default…
// constant (Spreading's Alpha 0 is DefaultAlpha, a = 0.9); Clone copies
// them all and nothing learned; Info reports the iterations, residual and
// products, Details the rest (unreached and isolated nodes, the solver that
// ran); non-convergence is an *estimator.NotConvergedError.
//
// Outputs: Scores is F; Probabilities are the rows of F (after class mass
// normalisation when on) clipped at zero and normalised to sum 1; Labels are
// their argmax (the smallest class on ties, as numpy's argmax), for every
// node.
//
// Inductive use: Predict with new nodes (NewNodeDetails adds their scores
// and whether a label reached them) predicts nodes that were not in the
// graph when the model was fitted, from their weighted edges to fitted
// nodes, by one propagation step from the fitted F (for spreading f(x) = a
// Σ_j S(x,j) F_j, for the harmonic function the weighted mean of its
// neighbours' scores; the induction formula of Bengio, Delalleau and Le
// Roux in Chapelle, Schölkopf and Zien (eds.), "Semi-Supervised Learning",
// MIT Press 2006, ch. 11). It is an approximation: the fitted scores are not
// updated for the new node.
//
// Node ordering: with Ordering ReverseCuthillMcKee, Fit renumbers the nodes
// by graph.ReverseCuthillMcKee (neighbours close together, for cache
// locality in the products), solves in that numbering and maps the scores
// back: F = Pᵀ F', F' the solution for P·W·Pᵀ and P·Y. The iterates are the
// same in exact arithmetic. The default, NaturalOrdering, solves in the
// caller's numbering (renumbering cost more than it saved on PubMed; see
// BENCHMARKS.md).
//
// Memory (docs/memory.md): a Chebyshev fit holds F, one more n×c block
// (the iterates z_k and z_{k−1} = D^{1/2}-scaled X, the first in F's own
// storage) and a few vectors — 16nc + 69n bytes beyond the graph
// (MemoryBytes); a CG fit holds F, r, p and q, 32nc + 53n (and for 5 to 16
// classes a float32 copy of p, 32n up to 8 classes and 64n above). B enters by
// its nonzero rows only, and the product rows of widths above 8 are formed
// per chunk of rows, not as a block. The model keeps F and the labels; the
// class probabilities are formed from F when asked for (Probabilities, or
// ProbabilityRow a row at a time). With Float32 both iterate blocks are
// float32 and live in F's storage (8nc + 53n): every product and residual
// is still float64 (graph.CSR.MulBlock32RowsInto), only the stored
// iterates are rounded, which bounds the reachable relative
// residual near 2^-24·(1+a)/(1−a), hence DefaultTol32 = 1e-5; the labels
// are those of the float64 solve on Cora and PubMed. The solvers' blocks
// (products gather their rows at random) are allocated from 2 MiB up
// (hugepage.GatherMinBytes) with a request for transparent huge pages and,
// below 32 MiB, faulted in whole at once (a CG fit in one batch allocates
// F, r, p and q on a goroutine of its own while it searches the nodes a
// label reaches: blocks.go); a cold fit's CG solve knows F starts at zero
// and forms its first residual R = B without reading it.
//
// Stopping: besides the residual rule, Stop = StopLabels ends the Chebyshev
// iteration once the largest relative residual is at most LabelTol (1e-3)
// and no node's argmax has changed for LabelPatience (5) iterations — the
// labels users read, at a fraction of the iterations (21 instead of 31 on
// Cora at a = 0.9). Its risk: a node whose two best scores are closer than
// the remaining error may still change class (one test node of 1000 on Cora
// at a = 0.99), and the scores are only LabelTol-accurate.
//
// Warm starts: the Chebyshev semi-iteration and CG accept any x_0 (the
// residual r_0 = b − A x_0 drives them), so WarmStart starts a fit from a
// previous model's scores, each class scaled by the β_j minimising ‖r_0‖
// (A F' is known without a product, from the equation F' solves).
// protocol.EvaluateLabelProp warm-starts each a of the increasing grid from
// the previous one; the labels are those of cold starts up to near-ties.
//
// Choosing a: AlphaGrid is the grid of the peer script; AlphaCandidates
// clones a base model once per value, so that every other hyperparameter
// (Float32, the stopping rule, the solver) is the one cross-validated or
// validated. The protocols that choose a and score the chosen model
// (protocol.ChooseAlpha by k-fold cross-validation over the labelled nodes,
// protocol.EvaluateLabelProp over the splits and seeds of gssl labelprop)
// are in package protocol.
package labelprop
