// Package nodeclass classifies the nodes of a graph from their features and
// the graph together: the linear models of the GNN literature, fitted by
// logistic regression (package logreg) on propagated features (package
// propagate), and Correct & Smooth on top of any base model.
//
// SGC (Wu et al., "Simplifying Graph Convolutional Networks", ICML 2019,
// eq. 8) is softmax regression on K-step propagated features,
//
//	Ŷ = softmax(S̃^K X̂ W + 1bᵀ),   S̃ = D̃^{-1/2}(A + I)D̃^{-1/2},
//
// X̂ the row-normalised features. APPNP (Klicpera et al., "Predict then
// Propagate", ICLR 2019, eq. 3 with a linear predictor H = X̂W) propagates
// the logits by personalised PageRank,
//
//	Ŷ = softmax(Π X̂ W + 1bᵀ),   Π = (1 − a)(I − aS̃)^{-1},
//
// which, trained end to end, is softmax regression on ΠX̂. Both fits need
// only the rows of the propagated features at the labelled nodes
// ((PX)_L = (P E_L)ᵀX, P symmetric) and predict by propagating the c
// columns of X̂W, so no n×d matrix is formed even for sparse X.
//
// Correct & Smooth (Huang et al., "Combining Label Propagation and Simple
// Models Out-performs Graph Neural Networks", ICLR 2021, §3) takes a base
// model's soft labels Z, propagates the training residuals E = Y_L − Z_L,
//
//	Z⁽ʳ⁾ = Z + s·(1 − α₁)(I − α₁S)^{-1}E   (s fixed, or autoscaled per node),
//
// then spreads the corrected labels with the training rows reset to Y,
//
//	Ŷ = (1 − α₂)(I − α₂S)^{-1}G,   G = Z⁽ʳ⁾ with G_L = Y_L,
//
// S = D^{-1/2}AD^{-1/2}, the label-spreading closed form of Zhou et al.
// (NIPS 2003). Bases: SGC, APPNP, label spreading (Spreading) and STKR
// (STKR, optionally with the feature kernel stkr.FeatureKernel).
//
// Every model follows the estimator contract: labels are one vector with −1
// for unlabelled nodes, exported hyperparameters whose zero values mean the
// Default constants, Fit(ctx, …) error, ErrNotFitted, and PredictGraph for
// new nodes (a new graph with their features and edges; SGC and APPNP).
// Choose selects among candidates (SGCGrid, APPNPGrid, CorrectSmoothGrid,
// STKRGrid) on validation nodes, or by stratified k-fold cross-validation
// over the labelled nodes when there are none; Evaluate runs the protocol
// of one split (base model first, then Correct & Smooth's grid on it, as
// Huang et al. tune C&S), and PerClassSplit draws the split of Shchur et
// al. (2018) for graphs without a standard one. The penalty λ of SGC and
// APPNP is relative to the design's mean squared row norm, so one grid
// serves data sets with very different feature scales.
//
// WithEmbedding appends Laplacian-eigenmap coordinates (package spectral)
// to the features, the spectral embedding C&S gives its linear base.
package nodeclass
