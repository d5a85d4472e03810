// Package stkr implements spectrally transformed kernel regression (STKR) on
// graphs, transductive and inductive, after
//
//	R. Zhai, R. Pukdee, R. Jin, M.-F. Balcan, P. Ravikumar,
//	"Spectrally Transformed Kernel Regression", ICLR 2024
//	(shared/papers/002_…txt; its formulas are restated in ALGORITHMS.md §4).
//
// # Base kernel
//
// On a graph with weights W and degrees d (the paper's eq. 23), over the N
// nodes visible at fit time (n labelled, m not):
//
//	K(x_i, x_j) = N · W_ij / √(d_i d_j),     M := G_K / N = S = D^{-1/2} W D^{-1/2}
//
// (GraphKernel; a node of degree 0 has a zero row). Any symmetric operator
// can serve as M (OperatorKernel), e.g. a KNN graph's normalised adjacency.
//
// # Estimator (eq. 7)
//
// For a transform s(λ) = Σ_{p≥1} π_p λ^p the STK Gram matrix is
// G_s = N Σ_p π_p M^p and
//
//	α = (G_s[n,n] + nβ I_n)^{-1} y,     f(x) = Σ_i α_i K_s(x_i, x).
//
// Every transform reduces f to one stored N-vector u per output,
// f(x) = k(x)ᵀu with k(x)_j = K(x_j, x), so a new point costs O(nnz k(x)) and
// the transductive predictions are F = N·M·U:
//
//	Polynomial (Algorithm 1, "STKR-Prop")   u = Σ_p π_p M^{p−1}[α; 0]
//	    = π_1[α; 0] + v of the paper; G_s[n,n]α costs q products by Horner.
//	InverseLaplacian s(λ) = λ/(1 − ηλ), 0 < η < 1/λ_max (Example 1):
//	    u = θ = (I − ηM)^{-1}[α; 0], the solution of the sparse N×N system
//	      train rows  N(Mθ)_i + nβ((I − ηM)θ)_i = y_i
//	      other rows  ((I − ηM)θ)_i = 0                       (paper eq. 20)
//	TopD (kernel PCA, eq. 9): top-d eigenpairs (λ_k, u_k) of M,
//	    ψ_k(x) = k(x)ᵀu_k/(√N λ_k) (= √N u_k(i) on a visible node),
//	    w = (ΨᵀΨ + nβ I_d)^{-1}Ψᵀy on the labelled rows, u = U Λ^{-1} w/√N.
//
// KRR() is s(λ) = λ, kernel ridge regression with the base kernel.
//
// # Fitting
//
// Classifier is the node classifier of the estimator contract (package
// estimator): Fit takes one label per node, −1 for unlabelled, one-hot
// targets with one output column for each of Classes classes (0 means 1 +
// the largest label; a class without a labelled node keeps its column, so
// a saved model's outputs stay those of its class names). Regressor is the
// node regressor: Fit takes one target per node, NaN for unknown, one
// output. Both fit the graph kernel of estimator.Nodes.Graph; FitKernel
// fits any BaseKernel. The Classifier embeds the Regressor: Go has one Fit
// per type, and the two roles differ only in their targets (labels or
// reals), so they share the hyperparameters, the solvers and the fitted
// state, and each keeps its own Fit, Predict, Clone and Kind. FitIndexed
// is the low-level fit both are built on: a list of training nodes and a
// target matrix with any number of output columns (Scores and
// NewNodeScores predict it).
//
// # Solvers
//
// Polynomial: CG on the n×n system when s ≥ 0 term by term (λ^8: SPD),
// otherwise MINRES (s = λ makes it indefinite on graphs with negative
// eigenvalues); GMRES; or the paper's Richardson iteration (Algorithm 1)
// α ← α − γ((G_s[n,n] + nβI)α − y), γ = 2/(N Σ_p|π_p| r^p + 2nβ).
//
// Inverse Laplacian: eq. 20 is not symmetric and has eigenvalues with
// negative real part, so plain Richardson on it diverges. Scaling its train
// rows by −1/(N/η − nβ) (using N·M = (N/η)(I − (I − ηM))) gives the
// equivalent SYMMETRIC, indefinite system solved by MINRES (the default):
//
//	(I − ηM − cE)θ = −ỹ / (N/η − nβ),     c = N/(N − ηnβ),
//
// E the diagonal selector of the labelled nodes and ỹ = [y; 0]; it needs
// ηnβ ≠ N (where ηnβ = N the auto solver uses GMRES). GMRES runs on eq. 20
// as written. The paper's Algorithm 2 is
// implemented as stkr.py reads it (α ← α − γ(N(Mθ)_n + nβα − y),
// θ ← ηMθ + [α; 0], γ = 1/(N/(1−η) + nβ)); it converges for large β and
// diverges for small β, which it reports as a *krylov.BreakdownError.
// Predictions are N·(Mθ)-sized, so the default tolerance for this system is
// 1e-9.
//
// Early stopping: the paper's Appendix D lists the number of iterations of
// its algorithms among the hyperparameters chosen on val. Regressor.Iterations
// = k stops the fit after k steps of Algorithm 1 / 2 from zero (or k Krylov
// iterations with an explicit Krylov solver); IterationsGrid is the grid
// searched by `gssl stkr --max-iter auto`. On Cora it moves SP-Lap by a
// fraction of a point (BENCHMARKS.md, STKR), so 0, solve to the tolerance,
// is the default.
//
// MINRES (the default for the inverse Laplacian and for indefinite
// polynomials) solves all output columns at once with krylov.MINRESColumns:
// each column's MINRES, iterates and iteration count bitwise those of
// krylov.MINRES on that column, with the products of the columns still
// iterating done as one block product with M per iteration (one pass over
// the graph for every class), as block CG and the Richardson iterations do.
// It holds 6 N×c blocks (n×c for a polynomial) for the recurrences, besides
// the solution. For the inverse Laplacian of a graph kernel it holds 4: the
// system takes MINRES's columns as they are (krylov.ColumnsOperator), forms
// the one input block the graph gathers from (v, scaled by D^{-1/2} on a
// 0/1 graph, as graph.CSR.ScaledMulBlockTo would) and hands the product
// back by row ranges, so neither v nor y = A·v takes a block of its own.
// The right-hand side is nonzero on the train rows only and enters by them
// (krylov.MINRESColumnsRows), and α is formed from the train rows of M: a
// fit allocates 8·N·c·6 bytes beyond the kernel and O(N) vectors (θ, four
// solver blocks, the product's input; TestInverseLaplacianMINRESHeap), and
// collects the solver's blocks before it returns, so that Scores' N×c
// block reuses them. A fit whose N×c blocks are 64 MiB or more first
// returns the heap's free memory to the system (debug.FreeOSMemory): the
// garbage of the caller's earlier phases (a loader's parsed text and id
// tables) would otherwise stay resident beside the blocks for the whole
// solve. The product's input, which the graph gathers from at
// random, is allocated by internal/hugepage (transparent huge pages: with
// 4 KiB pages each gather from an 800 MB block also misses the TLB).
// Regressor.MaxMemory solves the columns in batches of
// w, 8·N·(c + 5w) bytes (InverseLaplacianBytes).
//
// Every fit reports, per output column, iterations and final relative
// residual, and the number of products with M over all columns.
//
// # Protocols
//
// The paper's protocol (Appendix D.1: transductive and inductive settings,
// p_test, selection of η and β on validation nodes, test chunks) and the
// protocol without a split (k-fold cross-validation over the labelled
// nodes) are in package protocol; the grids they search are EtaGrid,
// BetaGrid and IterationsGrid here. Normalize turns a classifier's scores
// into class probabilities (clipped at zero, rows summing to 1; the
// labelled class frequencies where no score is positive).
package stkr
