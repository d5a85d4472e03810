// Package propagate smooths node features and class scores over a graph:
// products with a normalised adjacency, its powers, and personalised-PageRank
// propagation, on dense (mat.Dense) and sparse (loaders.Sparse) node × feature
// matrices, in parallel over rows.
//
// # Operators
//
// With W the weight matrix of a graph.CSR, D = diag(W1) and a self-loop
// weight σ ≥ 0,
//
//	S_σ = D̃^{-1/2} (W + σI) D̃^{-1/2},   D̃ = D + σI.
//
// σ = 1 (GCN) is the renormalised adjacency S̃ of Kipf and Welling (ICLR
// 2017, eq. 2) and of SGC (Wu et al., "Simplifying Graph Convolutional
// Networks", ICML 2019, eq. 3, S = D̃^{-1/2} Ã D̃^{-1/2}, Ã = A + I); σ = 0
// (Symmetric) is the normalised adjacency D^{-1/2} W D^{-1/2} of label
// spreading (Zhou et al., "Learning with Local and Global Consistency", NIPS
// 2003) and of Correct & Smooth, with a zero row for an isolated node. Both
// are applied through graph.CSR.ScaledMulBlockTo (diag(σ t²)·X +
// diag(t)·W·diag(t)·X, t = D̃^{-1/2}): A + I is never formed. The
// eigenvalues of S_σ lie in [−1, 1].
//
// # Propagations
//
// Power computes the SGC features S^K X (Wu et al. 2019, eq. 8). PPR computes
// the personalised-PageRank propagation of APPNP (Klicpera et al., "Predict
// then Propagate: Graph Neural Networks meet Personalized PageRank", ICLR
// 2019, eq. 3, whose limit with teleport probability α is
// Z = α(I − (1−α)S̃)^{-1}H),
//
//	F = (1 − a)(I − aS)^{-1} H,   a = 1 − α ∈ (0, 1),
//
// the closed form of label spreading (Zhou et al. 2003, eq. 2 and Theorem 1:
// F* = (1−α)(I − αS)^{-1}Y). It is solved by the Chebyshev semi-iteration
// (Saad, "Iterative Methods for Sparse Linear Systems", 2nd ed., Alg. 12.1)
// on the interval [1 − a, 1 + a] that holds the spectrum of I − aS for every
// graph, so no eigenvalue estimate is needed (krylov.Chebyshev, the
// iteration labelprop's spreading runs too); the residual of every column
// block shrinks by at least 1/T_k(1/a) after k products, about
// (√κ − 1)/(√κ + 1) per product with κ = (1 + a)/(1 − a). Each iteration is
// one block product and one fused row pass; the stopping test uses the true
// residual ‖(1−a)H − (I − aS)F_k‖_F ≤ Tol·‖(1−a)H‖_F.
//
// # Chebyshev series
//
// PPRRowsSeries expands the PPR operator instead of solving with it. On
// [−1, 1], with r = a/(1 + √(1 − a²)) (so that a = 2r/(1 + r²)) and the
// generating function Σ_k r^k T_k(x) = (1 − rx)/(1 − 2rx + r²) of the
// Chebyshev polynomials T_k (Mason & Handscomb, "Chebyshev Polynomials",
// 2003, §5.2),
//
//	(1 − a)/(1 − ax) = c₀·[1 + 2 Σ_{k≥1} r^k T_k(x)],   c₀ = (1 − a)/√(1 − a²),
//
// and since |T_k| ≤ 1 there, the series cut after K terms is within
// 2c₀·r^{K+1}/(1 − r) of Π = (1 − a)(I − aS)^{-1} in the 2-norm (S is
// symmetric with its spectrum in [−1, 1]). The terms T_k(S)·E_R come from
// the three-term recurrence T_{k+1} = 2S·T_k − T_{k−1}, one block product
// each, and do not depend on a: the rows for several a (APPNP's grid) cost
// the products of the largest, whose r is the largest. The rate r is the
// Chebyshev semi-iteration's, so one a costs about as many products as
// its solve; the number of terms is fixed by a and the tolerance before
// any product.
//
// # Sparse features
//
// A sparse X is never copied into a dense matrix: the first product S·X is
// computed row by row from X's CSR arrays (row i of S X is the sum of the
// sparse rows of X at i's neighbours), and only the result, which is dense
// n×d, is stored. PowerRows and PPRRows give the rows of S^K X or of the PPR
// of X at a few nodes without any n×d matrix: since S is symmetric,
//
//	(S^K X)_R = (S^K E_R)ᵀ X,
//
// with E_R the unit columns of the rows R, so the cost is |R| propagated
// columns plus one product with X (O(|R|·nnz(X)) for a sparse X). For a
// sparse X, PowerRows walks each row instead when that costs less (the
// usual case: short walks on sparse graphs): row i of S^k is the sparse
// vector v_k = S v_{k−1}, v_0 = e_i, and row i of S^k X is Σ_l v_k[l]·X_l,
// the sparse rows of X at v_k's support; at K = 2 it costs about
// |R|·deg·deg₂·(1 + nnz(X)/n) (deg₂ the degree of a neighbour), 6.5 million
// scattered entries for actor's 3 648 training rows where the block
// products take 26 million multiply-adds. With more than half as many rows
// as features and a dense X, the rows come from products of X itself, the
// last one at the rows R only. Models
// that are linear in the propagated features (SGC, APPNP with a linear base)
// need only these rows to fit and the propagation of X·W (c columns) to
// predict.
package propagate
