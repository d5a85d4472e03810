// Package svm holds kernel machines on a precomputed kernel: the C-support
// vector classifier solved by sequential minimal optimisation, one-vs-one
// for several classes, and kernel ridge classification.
//
// # C-SVM
//
// With labels y_i ∈ {−1, +1} and the Gram matrix K of the training items,
// the dual problem (course ch. 4; Cortes & Vapnik 1995) is
//
//	min_α ½ αᵀQα − eᵀα   s.t.  0 ≤ α_i ≤ C,  yᵀα = 0,   Q_ij = y_i y_j K_ij
//
// and the classifier is sign g(x), g(x) = Σ_i α_i y_i k(x_i, x) + b.
// SolveDual uses SMO with the working-set selection of Fan, Chen & Lin,
// "Working set selection using second order information for training
// support vector machines", JMLR 6 (2005): with ∇f(α) = Qα − e,
//
//	i ∈ argmax { −y_t ∇_t : t ∈ I_up(α) }
//	j ∈ argmin { −b_it²/a_it : t ∈ I_low(α), −y_t ∇_t < −y_i ∇_i }
//	a_it = K_ii + K_tt − 2K_it (τ = 1e-12 if ≤ 0),  b_it = −y_i ∇_i + y_t ∇_t
//
// (their WSS 2, eq. 11, with τ from WSS 3 for kernels that are not positive
// definite), stopping when m(α) − M(α) < ε (their eq. 9; ε = 1e-3 as in
// LIBSVM). The two variables are updated analytically and clipped to the
// box as in LIBSVM; b is the mean of −y_i∇_i over the free variables.
// Variables stuck at a bound are shrunk from the active set every 1000
// iterations and the gradient rebuilt from ḡ_t = C Σ_{α_j = C} Q_tj before
// the final optimality check (LIBSVM's shrinking). At
// the solution the KKT conditions (course Proposition 4.4) hold:
//
//	α_i = 0 ⇒ y_i g(x_i) ≥ 1,   0 < α_i < C ⇒ y_i g(x_i) = 1,   α_i = C ⇒ y_i g(x_i) ≤ 1.
//
// SVC trains one machine per pair of classes (classes sorted, the smaller
// one +1) and predicts by majority vote, ties to the smaller class, like
// LIBSVM and scikit-learn's SVC(kernel="precomputed").
//
// # Kernel ridge classification
//
// KernelRidge solves (K + rI) A = Y for one-hot targets Y by krr.SolveGram
// (the Cholesky solve krr.Exact uses too, so there is one kernel ridge);
// Predict returns the scores k(x)ᵀA of every class, whose row maximum is
// the predicted class (course ch. 3). r is the ridge of the unnormalised
// objective Σ‖f(x_i) − y_i‖² + r‖f‖² (scikit-learn's alpha); krr.Exact's λ
// of (1/n)Σ‖f(x_i) − y_i‖² + λ‖f‖² is r = nλ.
//
// Costs: SMO reads K into an n×n array and spends O(n) per iteration;
// KernelRidge is the dense O(n³) path. Both take the kernel matrix, never
// the items, so any kernel — graph kernels, kernels on points — plugs in.
package svm
