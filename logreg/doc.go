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
//
// Preconditioning (Classifier.Precondition) runs L-BFGS on v = θ⊙s, with
// s_j = √(h‖x_j‖²/m + λ) for the coefficients of column j, s = √h for the
// intercepts, h = 1/4 (the largest curvature p(1−p) of the loss along a
// logit) and every s divided by the largest. ‖x_j‖²·h/m + λ bounds the
// Hessian's diagonal entry of column j's coefficients, so v is the Jacobi
// scaling of the problem (Nocedal & Wright, "Numerical Optimization",
// 2006, §7.2 on scaling); on the row-space design Z = UΛ^{1/2}, whose
// columns are orthogonal (ZᵀZ = Λ), it matches the Gram part of the
// Hessian exactly. The minimiser is the same; since s ≤ 1,
// ∇_v J = ∇_θ J ⊘ s and ‖∇_v J‖_∞ ≤ tol implies ‖∇_θ J‖_∞ ≤ tol.
//
// A warm start (Classifier.Start) begins at another fit's coefficients,
// e.g. the previous penalty's along a path from the largest λ down, as
// glmnet does (Friedman, Hastie & Tibshirani, J. Stat. Softw. 2010). On
// the row-space design it begins at A = BᵀXW, the coordinates of W
// projected on the row space, which has the same logits.
package logreg
