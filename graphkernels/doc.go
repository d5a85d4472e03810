// Package graphkernels compares graphs with graph kernels, and the nodes of
// one graph with kernels on graphs (course ch. 7).
//
// # Graph kernels
//
// A Graph is a graph.CSR with a discrete label per node. Every graph kernel
// implements Kernel: Fit on training graphs returns their Gram matrix and
// keeps what comparing new graphs needs; Transform returns the kernel
// between new graphs and the training graphs, plus the new graphs'
// self-similarities; Cosine wraps any kernel to k/√(k(G,G) k(G',G')).
// Gram matrices are filled in parallel.
//
// WeisfeilerLehman (Shervashidze et al., "Weisfeiler–Lehman graph kernels",
// JMLR 12, 2011, Algorithm 2 and eq. 3) relabels every node, H times,
//
//	l_{r}(v) = id( l_{r−1}(v), sort{ l_{r−1}(u) : u ∈ N(v) } )
//
// in one dictionary shared by all graphs, and the feature vector counts the
// labels of rounds 0..H: k(G, G') = Σ_r Σ_σ c_r(G, σ) c_r(G', σ). Features
// are explicit sparse vectors; labels unseen at Fit get fresh ids at
// Transform. VertexHistogram is the case H = 0.
//
// ShortestPath (Borgwardt & Kriegel, ICDM 2005) counts (label, label, hop
// distance) over pairs of nodes.
//
// RandomWalk is the geometric random-walk kernel (Gärtner, Flach & Wrobel
// 2003; Vishwanathan et al., "Graph kernels", JMLR 11, 2010, eq. 8):
//
//	k(G, G') = 1ᵀ (I − λ A×)^{−1} 1,   A× = P (A ⊗ A') P,  P = label match
//
// solved by conjugate gradients with (A ⊗ A') vec X = vec(A X A'ᵀ), never
// forming the Kronecker matrix; λ must be below 1/ρ(A×).
//
// Every kernel is a Transformer of graphs (estimator.Transformer): Fit
// learns from the training graphs, Transform gives the rows k(G'_i, G_j)
// of new graphs, Gram the training graphs' Gram matrix (FitGram does
// both).
//
// WLClassifier is the C-SVM of package svm on the WL kernel (cosine-
// normalised with Normalize, as Cosine does) as one model, a Classifier of
// graphs: Predict gives the votes of the one-vs-one machines for new
// graphs, or for its training graphs from their stored features (a nil
// query), Decision the machines' values, and it saves itself (a
// modelfile container with the dictionary, the training graphs' features
// and the machine), with bitwise equal decisions after a round trip. The
// kernels on their own refuse every encoding (ErrNotSaved,
// estimator.ErrJSON) rather than lose their state.
//
// The nested cross-validation of Shervashidze et al. (§5) over Gram
// matrices is package protocol's GramEvaluation.
//
// # Kernels on the nodes of a graph
//
// A NodeKernel is a spectral transform r(L) of the unnormalised or
// symmetric Laplacian (Smola & Kondor, "Kernels and regularization on
// graphs", COLT 2003, Table 1):
//
//	Diffusion             exp(−tL)        (Kondor & Lafferty 2002)
//	RegularizedLaplacian  (I + tL)^{−1}
//	PStepRandomWalk       (aI − L_sym)^p, a ≥ 2
//
// Operator gives x ↦ r(L)x (Chebyshev expansion with Bessel coefficients
// for exp(−tL), CG for (I + tL)^{−1}, p products for the p-step walk)
// without forming r(L); DenseNodeKernel forms r(L) from mat.EigenSym, the
// explicit O(n³) path for small graphs. For exp(−tL) the Chebyshev series
// on the Gershgorin interval is used rather than spectral.MatFunc's Lanczos
// method: its truncation error is known before the first product, it keeps
// three vectors instead of a Krylov basis and needs no re-orthogonalisation;
// the two agree to 1e-9 (TestDiffusionAgreesWithSpectralMatFunc).
package graphkernels
