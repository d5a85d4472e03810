// Package spectral computes eigenpairs of large sparse symmetric operators
// and the spectral methods built on them: Laplacian eigenmaps, spectral
// clustering, kernel PCA with a Nyström extension, matrix functions f(A)v,
// and stochastic trace and log-determinant estimates.
//
// # Eigenpairs
//
// Eigs computes the k largest or smallest eigenpairs of a linop.Operator by
// block Lanczos with thick restarts (Wu & Simon, SIAM J. Matrix Anal. Appl.
// 22, 2000; Saad, "Numerical Methods for Large Eigenvalue Problems", 2nd ed.,
// 2011, ch. 6–7). The basis V is kept orthonormal to rounding by block
// classical Gram–Schmidt run twice (BCGS2), and the projection H = VᵀBV is
// formed explicitly from the Gram–Schmidt coefficients, so a restart keeps
// any rotation of the wanted Ritz vectors followed by the next block:
//
//	B V_j = V_j H_j + Q_{j+1} R_{j+1} E_jᵀ,   H_j = Y Θ Yᵀ,   keep V_j Y[:, wanted]
//
// Converged pairs (‖Av − λv‖ ≤ Tol·‖A‖) are locked: later blocks are
// orthogonalised against them and they leave the projected problem. A random
// start block of BlockSize vectors finds eigenvalues of multiplicity up to
// BlockSize; larger multiplicities appear only through rounding, which a
// single Krylov space cannot be relied on for.
//
// When an interval [Lo, Hi] containing the spectrum is known (Settings.Bounds),
// Lanczos runs on B = p(A), a Chebyshev polynomial of degree d that maps the
// unwanted part [Lo, c] of the spectrum to [−1, 1] and grows like
// cosh(d·acosh x) beyond it (Zhou & Saad, SIAM J. Matrix Anal. Appl. 29,
// 2007; Fang & Saad, SIAM J. Sci. Comput. 34, 2012):
//
//	Y₁ = (A − γI)X/e,   Y_{i+1} = 2(A − γI)Y_i/e − Y_{i−1},   γ = (c + Lo)/2,  e = (c − Lo)/2
//
// (mirrored for the smallest end). Products with a sparse matrix are cheap
// next to re-orthogonalising a basis of hundreds of vectors, and the filter
// turns a clustered end of the spectrum into a well separated one, so far
// fewer basis vectors are needed. The cut c comes from a short single-vector
// Lanczos probe: the (k+buffer)-th Ritz value bounds the (k+buffer)-th
// eigenvalue (Cauchy interlacing), and the probe's Gauss quadrature (Ritz
// values weighted by the squared first components of their eigenvectors, a
// stochastic estimate of the spectral density) places it closer. At
// restarts the Ritz pairs of A are recomputed on the wanted vectors with
// explicit residuals; the cut moves (and the recursion restarts from random
// combinations of the current Ritz vectors) when a wanted Ritz value turns
// out to be damped or when a much better cut is known. The degree is capped
// so that the filter's dynamic range stays below 1e10 and, in LaplacianEigs,
// by a cost model: a filtered product costs about d·(nnz/n + 1) row
// operations per basis vector, while the re-orthogonalisation a higher
// degree saves does not depend on the density of the graph, so the cap is
// 200/(nnz/n + 1), at least 8 (36 on PubMed, 12 on the MNIST KNN graph).
// The dense steps (block Gram–Schmidt, Rayleigh–Ritz rotations) run on the
// AVX2/FMA micro-kernels of internal/gemm where packing pays for itself.
//
// Settings.Method SingleVector is ARPACK's method in thick-restart form
// (Wu & Simon 2000, §2–3; equivalent to Sorensen's implicit restart with
// exact shifts, Lehoucq & Sorensen, SIAM J. Matrix Anal. Appl. 17, 1996):
// one Krylov vector per step on A itself (no filter), a basis of
// m = max(2k+1, k+20) vectors stored column-major (each vector contiguous),
// every new vector orthogonalised against the whole basis by classical
// Gram–Schmidt run twice, the second sweep delayed into the next step
// (DCGS2, Hernández, Román & Tomás, Parallel Comput. 33, 2007: step j
// projects the once-orthogonalised v_j and w = A·v_j on V_j in one pass,
// updates both in a second, and corrects column j of H by −H·a/s for the
// re-orthogonalisation a = V_jᵀv_j it applied after the product), H = VᵀAV
// formed from the coefficients, and at each restart the k + min(nconv, (m − k)/2) Ritz
// vectors nearest the wanted end kept, followed by the residual vector:
//
//	A V_m = V_m H_m + β_m v_{m+1} e_mᵀ,   keep V_m Y[:, kept],   H ← diag(θ_kept) + arrow,
//
// the arrow being the next Gram–Schmidt column. A Ritz pair converges when
// β_m |e_mᵀ y| ≤ Tol·‖A‖. When spectrum bounds are known it runs on a
// Chebyshev filter of low degree d as well (the same polynomial as the block
// method, scaled to B = p(A)/p(far end) so that ‖B‖ = 1): the first cycle,
// on A, places the cut (interlacing bound and Gauss quadrature, as the
// probe above); the recursion then restarts on B from a random combination
// of the candidate Ritz vectors. A Lanczos step costs d products, but the
// orthogonalisation against the basis, which costs far more than a product
// on a sparse graph, is done for several times fewer steps. Convergence is
// decided on A: when B's residual estimates of the k wanted pairs are below
// a tolerance, the restart's Ritz vectors get Rayleigh quotients and true
// residuals with A (k products), and the tolerance on B tightens by the
// ratio of the two when a pair fails; a wanted Ritz value of B in the damped
// interval, or a tolerance at rounding level, hands the run back to
// unfiltered Lanczos on A. The degree LaplacianEigs chooses follows a cost
// model like the block method's (see singleFilterDegree). Without a filter
// it needs no spectrum bounds and, on graphs of average degree above a few,
// fewer operator products and less work than the filtered block method;
// like ARPACK it sees one copy of a repeated
// eigenvalue per Krylov space (more only through rounding or after an
// invariant subspace, when it continues from a fresh random direction), so
// LaplacianEigs uses it (Method Auto) only on components of at least
// SingleVectorMinNodes nodes.
//
// Settings.Method Subspace is Chebyshev-filtered subspace iteration (Zhou &
// Saad, SIAM J. Matrix Anal. Appl. 29, 2007), for LaplacianEigs with L_sym
// or L_rw on one connected component at a time. It works on S with its
// eigenvalue 1 removed (the known vector D^{1/2}1 is projected out of the
// block), with a block X of p = k' + max(3, k'/4) vectors (k' = k − 1, at
// most 16) and no Krylov basis:
//
//	X ← T_d((S − γI)/e)·X,   γ = (c − 1)/2,  e = (c + 1)/2,  c = θ_p,
//
// then SVQB orthonormalisation (Stathopoulos & Wu, SIAM J. Sci. Comput. 23,
// 2002) and a Rayleigh–Ritz step with one more block product, whose Ritz
// values θ_1 ≥ … ≥ θ_p give the next cut c = θ_p and whose explicit
// residuals decide convergence. Each filter step is one pass over the graph
// for the whole block, run on Z = D^{-1/2}X so that a stored entry costs one
// gather of a row of Z; Z_{i+1} overwrites Z_{i−1} row by row, so the
// recursion holds two n×p blocks. It runs on float32 blocks (sums in
// float64) whose rows are padded to 16, 32 or 64 bytes, so that a gather
// fetches one cache line (graph.MulBlock32StridedRowsInto), in correction
// form: with the Ritz values Θ of X and R = SX − XΘ (known from the
// Rayleigh–Ritz step), T_d(Ŝ)X = X·T_d(Θ̂) + E_d, Ŝ = (S − γ)/e, where only
// E, of the size of R, runs in float32,
//
//	E_0 = 0,  E_1 = R/e,  E_{i+1} = 2ŜE_i − E_{i−1} + 2(R/e)·T_i(Θ̂),
//
// so the passes reach float64 residuals at the cost of float32 gathers, with
// d − 1 products a pass. Blocks of
// 8, 12 and 16 columns have AVX2 row kernels that prefetch the row 16
// entries ahead: with Go's loads the out-of-order window holds too few
// gathers, and a 12-column float32 block product cost 6.5 times a vector
// product on a 1 M-node graph (CSR kernels) instead of 1.7 times. The blocks are allocated with
// huge pages (internal/hugepage), as is the single-vector method's basis.
// The degree d of a pass is
// what the k'-th Ritz value's rate 1/T_d((θ_k' − γ)/e) needs to bring the
// largest residual to Tol, between 4 and 30, and capped so that
// T_d((θ_1 − γ)/e) ≤ 1e6 (the filtered block stays well conditioned). When
// the wanted end of the spectrum has no gap, the predicted number of block
// products exceeds 150 (or 40 passes pass) and the component is handed to
// the Lanczos method. Method Auto chooses it on components of at least
// SubspaceMinNodes nodes: there a vector no longer fits in the caches, every
// gather of a product is a miss to memory whether it fetches 8 bytes or a
// 64-byte block row, and the ~50 block products of the subspace iteration
// cost less than the ~135 products and the orthogonalisation of Lanczos
// (the 10 pairs of the 100 M-edge benchmark graph of 10 M nodes: 51 block
// products, see SubspaceMinNodes).
//
// # Laplacians
//
// LaplacianEigs returns the k smallest eigenpairs of L_un, L_sym or L_rw
// (gssl ALGORITHMS.md §1):
//
//	L_un = D − W,   L_sym = I − S,   S = D^{-1/2} W D^{-1/2},   L_rw = I − D^{-1} W
//
// without inverting anything: the smallest of L_sym are the largest of S,
// whose spectrum lies in [−1, 1] (the bound used by the filter), and
// f = D^{-1/2}u maps L_sym vectors to D-orthonormal L_rw vectors. A graph
// with c components has eigenvalue 0 with multiplicity c (78 on Cora, 390 on
// CiteSeer), which single-vector Lanczos (scipy's eigsh) silently misses;
// LaplacianEigs therefore solves each connected component on its own (small
// ones densely), sets each component's eigenvalue 0 with its exact
// eigenvector, and merges the spectra. A component needs at most
// min(size, k − c₀ + 1) pairs, c₀ being the number of components with
// eigenvalue 0.
//
// # Spectral methods
//
// LaplacianEigenmap embeds nodes by the smallest non-trivial eigenvectors of
// L_rw (Belkin & Niyogi, Neural Computation 15, 2003). SpectralClustering is
// the algorithm of Ng, Jordan & Weiss (NIPS 2001): the top-k eigenvectors of
// S, rows scaled to unit length, then KMeans with k-means++ seeds (Arthur &
// Vassilvitskii, SODA 2007) and several restarts. k-means depends only on
// the subspace the eigenvectors span (distances between rows are invariant
// under a rotation of U), whose error is at most ‖R‖/(λ_{k+1} − λ_k) for
// residuals R (Davis–Kahan), so SpectralClustering asks the eigensolver
// for residuals of 1e-6 (DefaultClusteringTol) rather than 1e-10. Lloyd's
// assignment step skips rows by Hamerly's bounds (SDM 2010) and, in the
// rows it scans when there are more than 32 clusters, centres c with
// d(b, c) ≥ 2·d(x, b) for the nearest centre b so far (Elkan, ICML 2003),
// with a margin far above rounding, so the labels are bitwise those of
// computing every distance. KernelPCA takes the top-d eigenvectors of S,
// the Gram matrix of the graph kernel
// K(x_i, x_j) = N·W_ij/√(d_i d_j) over N (STKR, Zhai et al., ICLR 2024,
// eq. 23), and extends them to a new node x with edge weights w_j by the
// Nyström formula (Williams & Seeger, NIPS 2001; Bengio et al., NIPS 2003)
//
//	u_l(x) = (1/μ_l) Σ_j w_j / √(d_x d_j) · u_l(j),   d_x = Σ_j w_j,
//
// which reproduces u_l(i) on a graph node given its own row of W.
//
// # Matrix functions and traces
//
// MatFunc computes f(A)b ≈ ‖b‖ Q_j f(T_j) e₁ from j Lanczos steps (Saad, SIAM
// J. Numer. Anal. 29, 1992; Higham, "Functions of Matrices", 2008, §13.2) for
// f = exp(−t·) (diffusion kernel), (1 + t·)^{-1} (regularised Laplacian),
// powers and log, stopping when successive approximations agree to Tol.
// Hutchinson estimates tr(A) = E[zᵀAz] with Rademacher probes (Hutchinson,
// 1990). TraceFunc and LogDet estimate tr f(A) and log det A by stochastic
// Lanczos quadrature (Ubaru, Chen & Saad, SIAM J. Matrix Anal. Appl. 38,
// 2017): zᵀf(A)z ≈ n Σ_k τ_k² f(θ_k) over the Ritz values θ_k of s Lanczos
// steps from z/‖z‖ and the first components τ_k of their eigenvectors.
//
// Every random choice comes from Settings.Seed (rand.NewPCG); reductions
// over rows use fixed chunks, so results do not depend on the number of
// cores. Long calls take a context and an optional progress callback.
package spectral
