// Package gp is exact Gaussian-process regression in R^d with a squared
// exponential or Matérn 5/2 covariance and Gaussian noise, fitted by maximising
// the log marginal likelihood (Rasmussen & Williams, Gaussian Processes for
// Machine Learning, 2006, eqs. 2.25–2.26, 2.30 and 5.9). It is the Euclidean
// model of IMGP (package imgp, paper eq. 12) and the baseline it is compared
// with, usable on its own.
//
// With amplitude a, length scale ℓ, noise variance v and r = ‖x − x′‖:
//
//	SquaredExponential  k(r) = a·exp(−r²/(2ℓ²))
//	Matern52            k(r) = a·(1 + u + u²/3)·exp(−u),  u = √5·r/ℓ
//	K = k(X, X) + (v + jitter)·I = LLᵀ (L = Rᵀ),   α = K⁻¹y
//	log p(y) = −½ yᵀα − Σ log L_ii − (n/2) log 2π
//	∂ log p/∂θ = ½ tr((ααᵀ − K⁻¹) ∂K/∂θ)
//	mean(x*) = k(x*, X) α,   var(x*) = a − ‖L⁻¹k(X, x*)‖²   (latent; add v for y*)
//
// The hyperparameters are optimised in log space with gonum's L-BFGS, each
// kept inside [Bounds.Lower, Bounds.Upper] by a logistic map of the log — the
// same box scikit-learn's GaussianProcessRegressor uses by default
// (1e-5 … 1e5 for ConstantKernel, Matern length scale and WhiteKernel).
//
// The optimiser stops when the log likelihood has not improved (by 1e-10
// relative) for 5 iterations.
//
// This is the explicit dense path: memory O(n² + n·d), time O(n³) per
// likelihood evaluation for n training points, on the project's GEMM
// kernels (internal/dense: blocked Cholesky K = RᵀR, triangular solves, K⁻¹
// = R⁻¹R⁻ᵀ with R⁻¹ in n³/6 multiply-adds); BenchmarkLikelihood times one
// evaluation and gradient.
package gp
