// Package linbp is linearised belief propagation: label propagation through
// a class compatibility matrix, the classic semi-supervised answer to
// graphs whose neighbours tend to disagree (heterophily).
//
// With c classes, E the n×c centred prior beliefs (row i of a labelled node
// is its one-hot label minus 1/c, of an unlabelled node 0), S = D^{-1/2} A
// D^{-1/2} the normalised adjacency and Ĥ = H − 1/c the centred class
// compatibility matrix, the beliefs B solve (Gatterbauer, Günnemann, Koutra
// & Faloutsos, "Linearized and single-pass belief propagation", VLDB 2015)
//
//	B = E + a S B Ĥ,     i.e.   (I − a Ĥᵀ ⊗ S) vec(B) = vec(E)
//
// H is estimated from the labelled nodes as the row-normalised counts of
// edges between classes (homophily.Measure; Kumar, Rossi & Gatterbauer,
// "Factorized graph representations for semi-supervised learning from
// sparse data", SIGMOD 2020, estimate it from sparse labels); a class with
// no counted edge gets the uniform row, which centring turns to 0. The
// system has a unique solution, reached by the fixed-point iteration
//
//	B₀ = E,   B_{t+1} = E + a S B_t Ĥ
//
// when a ρ(S) ρ(Ĥ) < 1; ρ(S) ≤ 1, so a = Alpha / ρ(Ĥ) with Alpha in (0, 1)
// guarantees it, the error shrinking by Alpha per step. The iteration stops
// when the largest change of an entry is at most Tol times the largest
// entry of E. A node's class is the argmax of its row of B.
//
// # Probabilities
//
// B is centred: its rows sum to 0 (those of E and Ĥ do) and its entries
// are often negative, so B is a decision value, not a distribution
// (Beliefs returns it). LinBP linearises BP around the uniform belief: a
// node's belief is b = 1/c + b̂ with b̂ its row of B, the residual of
// Gatterbauer et al.'s centring, a distribution while the residuals are
// small. Predict returns those approximate beliefs made a distribution
// where they are not, the part below 0 clipped and the row renormalised:
//
//	P_ik = max(1/c + B_ik, 0) / Σ_l max(1/c + B_il, 0).
//
// A row of B sums to 0, so its largest entry is ≥ 0 and the denominator
// ≥ 1/c. Clipping and scaling never reverse two entries of a row and never
// clip the largest, so P's argmax is B's: the predicted classes, and the
// accuracy, are those of B (a tie that rounding would create before the
// first largest entry is broken by raising it one unit in the last
// place). P is not calibrated: with full-strength priors (one-hot minus
// 1/c) and Alpha near 1 the residuals are not small and many rows are
// clipped; a calibrated map is the confidence package's temperature,
// fitted on held-out nodes (gssl classify --conformal).
//
// A Propagation predicts its fitted nodes only: a new node's belief would
// need the system solved again on the graph with it. Its model file
// (PropagationKind, layout 2) keeps the hyperparameters, B and Ĥ; read
// back, it predicts P bitwise and refuses new nodes as the fitted model
// does. Layout 1, whose Predict returned B, is refused: a calibration
// saved beside it was fitted on B, not P.
package linbp
