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
// relative) for 5 iterations. Its line search backtracks from the
// quasi-Newton step until the sufficient-decrease (Armijo) condition
// holds: near the optimum, where the noise hyperparameter sits at its
// lower bound and K is ill-conditioned, the log likelihood is reproducible
// to about 5e-13 relative only, and a bracketing search (gonum's default
// bisection) spends tens of evaluations searching that rounding noise
// (srmnist, 2 000 images: 116 evaluations against 61, the same optimum to
// 2e-14).
//
// With W = ααᵀ − K⁻¹ the three traces are sums over the entries of W:
//
//	∂ log p/∂ log a = ½ Σ_ij W_ij·a·k_ij,   ∂ log p/∂ log ℓ = ½ Σ_ij W_ij·a·k_ij·(∂ log k/∂ log ℓ)_ij,
//	∂ log p/∂ log v = ½ v Σ_i W_ii,
//
// so no product K⁻¹·∂K is formed, and K⁻¹ itself is never stored.
//
// This is the explicit dense path: memory O(n² + n·d) (three n×n arrays
// while fitting), time O(n³) per likelihood evaluation for n training
// points, n³/2 multiply-adds on the project's GEMM kernels:
//
//	K = RᵀR        blocked Cholesky in place (internal/dense), n³/6; a·k(D) kept below the diagonal
//	Z = R⁻¹        blocked by columns of 96: Z_JJ = R_JJ⁻¹, Z[:j0, J] = −Z[:j0, :j0]·R[:j0, J]·Z_JJ, n³/6
//	K⁻¹ = ZZᵀ      tile by tile, each tile summed into the gradient as it is computed, n³/6
//
// Z is packed once, in the layouts of both GEMM operands, storing each row
// from its diagonal on; every product runs from the first depth where its
// panels are non-zero. The n×n buffers are reused across the evaluations
// of a fit; BenchmarkLikelihood times one evaluation and gradient.
package gp
