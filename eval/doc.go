// Package eval holds what every gssl model is judged with: metrics
// (accuracy, macro-F1, confusion matrices, the adjusted Rand index, RMSE and
// Gaussian negative log-likelihood), seeded splits (k labelled nodes per
// class, stratified k-fold assignments), hyperparameter choice on a
// validation split (GridSearch: the first best value in grid order wins
// ties), and repeated runs over seeds with their summaries (RunSeeds,
// Summarize: mean ± standard deviation).
//
// Labels are ints 0..C−1; a negative label marks an item whose class is
// unknown, which no metric scores (as with the −1 labels of some public node
// datasets). Every random choice takes a seed, and the same seed gives the
// same split on every run and platform (math/rand/v2 PCG).
//
// The adjusted Rand index is that of Hubert & Arabie, "Comparing partitions",
// Journal of Classification 2, 1985:
//
//	ARI = (Σ_ij C(n_ij,2) − [Σ_i C(a_i,2) Σ_j C(b_j,2)]/C(n,2)) /
//	      (½[Σ_i C(a_i,2) + Σ_j C(b_j,2)] − [Σ_i C(a_i,2) Σ_j C(b_j,2)]/C(n,2))
//
// with n_ij the contingency table and a_i, b_j its row and column sums.
package eval
