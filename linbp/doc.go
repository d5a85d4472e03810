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
// entry of E. A node's class is the argmax of its row of B; 1/c + B are the
// approximate beliefs.
//
// A Propagation predicts its fitted nodes only: a new node's belief would
// need the system solved again on the graph with it. Its model file
// (PropagationKind) keeps the hyperparameters, B and Ĥ; read back, it
// predicts B bitwise and refuses new nodes as the fitted model does.
package linbp
