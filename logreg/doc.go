// Package logreg is L2-regularised multinomial logistic (softmax)
// regression, fitted by gonum's L-BFGS (gonum.org/v1/gonum/optimize) with the
// exact gradient, on dense or sparse design matrices.
//
// With m labelled rows x_i ∈ R^d, classes y_i ∈ {0, …, c−1}, weights
// W ∈ R^{d×c} and an unpenalised intercept b ∈ R^c, the fit minimises
//
//	J(W, b) = −(1/m) Σ_i log p_{i,y_i} + (λ/2)‖W‖²_F,
//	p_i = softmax(Wᵀx_i + b),
//
// whose gradient is
//
//	∇_W J = (1/m) Xᵀ(P − Y) + λW,   ∇_b J = (1/m) (P − Y)ᵀ1,
//
// with P the m×c matrix of probabilities and Y the one-hot labels (Bishop,
// "Pattern Recognition and Machine Learning", 2006, §4.3.4, eq. 4.109; the
// penalty is scikit-learn's with λ = 1/(C·m)). J is strictly convex in W for
// λ > 0.
//
// When d > m the fit runs in the row space of X: with XXᵀ = UΛUᵀ (rank r),
// every W = V A + W⊥ with V = XᵀUΛ^{-1/2} orthonormal and XW⊥ = 0, so the
// logits depend on A only, ‖W‖² = ‖A‖² + ‖W⊥‖², and the minimiser has
// W⊥ = 0 (the representer theorem). The problem on the r×c matrix A with
// the design Z = UΛ^{1/2} (m×r) is the same problem, at a cost of O(m²d)
// for the Gram matrix instead of O(m·d·c) per evaluation of J.
package logreg
