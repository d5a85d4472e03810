// Package krr fits kernel ridge regression on dense point sets, exactly for
// small n and approximately at scale, with one Fit/Predict shape for all:
//
//	Exact           α = (K + nλI)^{−1} Y                       O(n²) memory, O(n³) time
//	Nystrom         α = (K_nMᵀK_nM + nλK_MM)^{−1} K_nMᵀ Y      O(nd + M²) memory, O(nMd + nM² + M³) time
//	Falkon          the same α by preconditioned CG            O(nd + M²) memory, O(nMdt) or O(nMd + nM²) time
//	RandomFeatures  w = (ZᵀZ + nλI)^{−1} ZᵀY, z(x) = √(2/D) cos(Wᵀx + b)
//
// with f(x) = Σ_j α_j k(x, c_j) (c_j the training points for Exact, the M
// Nyström centres otherwise) and Y an n×c target matrix (one-hot rows for
// classification, see OneHot and Argmax). The objective is
// (1/n)Σ‖f(x_i) − y_i‖² + λ‖f‖²_H (FALKON paper, eq. 1–5 and 8; the
// kernel-methods course in gssl's papers/003, ch. 9).
//
// SolveGram is the one dense kernel ridge solve, α = (K + rI)^{−1} Y on a
// Gram matrix, by a Cholesky factorisation. Exact calls it with r = nλ;
// svm.KernelRidge (a precomputed kernel, one-hot class targets) with its
// Ridge r, the scaling of the unnormalised objective
// Σ‖f(x_i) − y_i‖² + r‖f‖²_H (scikit-learn's KernelRidge alpha): the same
// system for r = nλ.
//
// # FALKON
//
// FALKON (Rudi, Carratino & Rosasco, "FALKON: An Optimal Large Scale Kernel
// Method", NeurIPS 2017, Algorithm 1; written out in gssl's ALGORITHMS.md §6)
// solves the Nyström system with the preconditioner B = T^{−1}A^{−1}:
//
//	T = chol(K_MM + εM I),   A = chol(T Tᵀ/M + λ I)        (upper, RᵀR = X)
//	BHB(u) = A^{−T} [ T^{−T} (K_nMᵀ K_nM T^{−1} A^{−1} u) / n  +  λ A^{−1} u ]
//	r = A^{−T} T^{−T} K_nMᵀ y / n,   β = CG(BHB, r, t iterations),   α = T^{−1} A^{−1} β
//
// K_nM is never stored whole. Its products come from kernel.Matrix, either
// streamed (every CG iteration evaluates the n×M kernel in row blocks: time
// O(nMd) per iteration) or through the M×M matrix K_nMᵀK_nM accumulated in
// one blocked pass (time O(nMd + nM²) once, then O(M²) per iteration); both
// keep memory O(nd + M²). Products selects; the default picks the cheaper.
// Once K_nMᵀK_nM is formed the fit runs a garbage collection, so that the
// M×M matrices that follow reuse the memory of its packed row blocks
// rather than fresh pages (see setup.normal).
// CG is krylov.BlockCG run for exactly t iterations (its
// NotConvergedError is the expected outcome of a fixed-iteration run).
// The dense M×M steps (the Cholesky factors, T Tᵀ, the triangular solves,
// K_nMᵀK_nM and its products) are blocked algorithms on the project's
// GEMM kernels (internal/gemm).
//
// # Rank-deficient K_MM
//
// Centres that repeat a point of X are dropped (they add nothing to the
// span of the k(·, c_j) and make K_MM singular) and reported. A K_MM that
// is numerically singular for the given λ (centres close for the kernel
// width) shows up as a failure of a Cholesky factorisation or as CG
// meeting pᵀAp ≤ 0: the fit then switches from the normal matrix to the
// streamed products (AutoProducts only: forming K_nMᵀK_nM squares the
// conditioning) or raises the jitter ε tenfold and starts again, up to
// ε = 1e-4, and reports the ε it used.
//
// Nystrom solves the same preconditioned system directly: with
// S = T^{−T} K_nMᵀK_nM T^{−1}/n + λI (well conditioned, κ ≤ 1 + ‖K‖/(nλ)),
// α = T^{−1} S^{−1} T^{−T} K_nMᵀY/n, which is FALKON's limit as t → ∞.
//
// Centres are drawn uniformly (Uniform), by approximate ridge leverage
// scores (Leverage: ℓ_i ≈ (k_ii − k_iJ (K_JJ + nλI)^{−1} k_Ji)/(nλ) from a
// uniform pilot set J, Rudi et al. 2018 "On fast leverage score sampling
// and optimal learning", eq. 4), or given (Fixed).
//
// Random Fourier features (Rahimi & Recht 2007) approximate the Gaussian
// kernel exp(−‖x−y‖²/(2σ²)) by z(x)ᵀz(y) with W ~ N(0, σ^{−2} I), b ~ U[0, 2π).
//
// Each model is an estimator.PointRegressor of one target (Fit, Predict)
// and fits several targets at once with FitTargets and PredictTargets;
// Classifier is kernel ridge classification, the regression of one-hot
// targets (an estimator.PointClassifier). The sweep of the number of
// centres M is package protocol's SweepCentres.
//
// Every random choice comes from a PCG source seeded by the estimator's Seed.
package krr
