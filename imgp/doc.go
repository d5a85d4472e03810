// Package imgp is implicit-manifold Gaussian-process regression (IMGP:
// Fichera, Borovitskiy, Krause & Billard, "Implicit Manifold Gaussian Process
// Regression", NeurIPS 2023; shared/papers/000_…txt, with the formulas the
// text lost restated in shared/ALGORITHMS.md §2–3).
//
// Geometry (eq. 7). All N inputs, labelled or not, are the nodes of a
// symmetrised KNN graph (package knngraph) with
//
//	Ã_ij = S_K(x_i,x_j)·exp(−‖x_i − x_j‖²/(4α²)),  Ã_ii = 1,
//	A = D̃⁻¹ÃD̃⁻¹,  D = diag(A1),  Δ_rw = I − D⁻¹A.
//
// Prior (eq. 8, Proposition 2). The graph Matérn kernel with D-orthonormal
// eigenpairs (λ_l, f_l) of Δ_rw and c = 2ν/κ²,
//
//	k(x_i,x_j) = s·Σ_l (c + λ_l)^{−ν} f_l(x_i) f_l(x_j),   s = σ²/C,
//
// has, with all N eigenpairs, the sparse precision (Precision)
//
//	P = K⁻¹ = (1/s)·D(cI + Δ_rw)^ν = (1/s)·M(D⁻¹M)^{ν−1},   M = (1+c)D − A,
//
// a product with which costs ν sparse products (integer ν only).
//
// Training (eq. 14–15, generalised to noisy, partly labelled data). With E
// the selector of the n labelled nodes and ỹ the targets padded with zeros,
//
//	Q = P + E/σ_ε²,  m = Q⁻¹ỹ/σ_ε²,
//	log p(y) = −½[yᵀy/σ_ε² − ỹᵀQ⁻¹ỹ/σ_ε⁴ + log det Q − log det P + n log σ_ε² + n log 2π],
//
// whose gradient with respect to log α, log κ, log s and log σ_ε² needs
// m (one CG solve with Q) and traces tr(Q⁻¹∂P), tr(M⁻¹∂M), tr(M⁻¹D),
// tr((Q⁻¹)_nn), estimated with Rademacher probes z as zᵀX⁻¹(∂X)z (the
// Hutchinson estimate of eq. 15), X⁻¹z by Jacobi-preconditioned CG. ∂A/∂α
// follows from ∂Ã_ij/∂α = Ã_ij‖x_i−x_j‖²/(2α³) through A = D̃⁻¹ÃD̃⁻¹. Adam
// runs on the log hyperparameters with fresh seeded probes at every step;
// every step costs O(ν·nnz(A)) per CG iteration, linear in N. The mean and
// the probes' Q solves run as one block CG, the probes' M solves as another
// (Precision is a linop.BlockOperator: one graph pass per product for all
// columns, each column's CG recursion unchanged). Training in s
// = σ²/C instead of σ² gives the same maximiser (C depends only on α, κ);
// Regressor.Variance reports σ² of the truncated kernel afterwards.
//
// Likelihood value (Regressor.LogMarginalLikelihood; not needed by
// training). The determinant term is log det Q − log det P =
// log det(I_n + (P⁻¹)_nn/σ_ε²) (matrix determinant lemma), exact by n·ν CG
// solves with M for few labels; otherwise stochastic Lanczos quadrature
// (Ubaru, Chen & Saad 2017) of log det Q = Σ log q_i + log det Q̂ (Q̂ the
// Jacobi-scaled Q) minus log det P = −N log s + Σ log D_i +
// ν log det((1+c)I − D^{−1/2}AD^{−1/2}), whose spectrum lies in [c, 2 + c],
// the two quadratures sharing each probe.
//
// Prediction (eq. 11–12). After training, the L smallest eigenpairs of Δ_rw
// (an Eigensolver: Lanczos by default, sparse block Lanczos from package
// spectral per connected component; DenseComponents is the explicit dense
// reference) give the rank-L kernel Σ_l φ_l(x)φ_l(x′), φ_l = √(s(c+λ_l)^{−ν})
// f_l, whose posterior given the labelled nodes is an L×L Gaussian over the
// feature weights. Off the graph the eigenvectors are extended by Nyström,
//
//	f_l(x) = 1/(1 − λ_l)·Σ_{j∈KNN(x)} A(x,x_j)/D(x)·f_l(x_j),
//
// and blended with a Euclidean GP (package gp):
//
//	f(x) = γ(x) f_m(x) + (1 − γ(x)) f_e(x),
//	γ(x) = exp(1 − (3α)²/((3α)² − dist(x,M)²)) inside 3α, else 0,
//
// mean γm_m + (1−γ)m_e, covariance γγ′k_m + (1−γ)(1−γ′)k_e; dist(x, M) is
// the distance to the nearest node (NearestNode) or the mean distance to the
// K nearest (MeanNeighbour).
//
// Rank-L refit (not in the paper; the default, ProcedureRefit; ProcedurePaper
// skips it; Regressor.Refined applies it to a fitted model). The
// likelihood trained above is that of the full-rank prior, while predictions
// use the L smallest eigenpairs only. With few labels the two disagree about
// κ: the full-rank maximiser gives the truncated model too short a length
// scale. The refit maximises, at the trained α, the exact marginal
// likelihood of the rank-L model,
//
//	y ~ N(0, F_n S F_nᵀ + σ_ε² I),  S = diag(s(c + λ_l)^{−ν}),
//
// over κ, s and σ_ε² (Woodbury and the determinant lemma: O(L³) per
// evaluation), by L-BFGS.
//
// Targets. The model is fitted to standardised targets (y − μ)/σ (the
// mean and population standard deviation of the known targets, or the
// Regressor's Scaling), and Predict returns the targets' units: a nil
// query gives the rank-L posterior on the fitted nodes, new points the
// blend above. Posterior returns the blend with its parts, in the
// standardised units.
package imgp
