// Package pictures draws the reports of gssl's protocols: for each kind of
// run, a Picture holds the panels of one figure (package figures), the
// tables an HTML report adds (package htmlreport) and notes that say what
// could not be drawn and why.
//
// Every function takes the values a library call returned (a protocol
// report, a fitted model, a data set and its predictions) and draws those
// values alone: nothing is recomputed from printed output or guessed from
// field names. The one computation of its own is the 2-D Laplacian
// eigenmap that places the nodes of a node picture (the Fiedler-type
// coordinates of Belkin and Niyogi, "Laplacian eigenmaps for
// dimensionality reduction and data representation", Neural Computation
// 15(6), 2003), on the largest connected component and only up to
// MaxEmbedNodes nodes.
//
// Pictures by run:
//   - node classifiers (labelprop, classify): Predictions — confusion
//     matrix, per-class accuracy, eigenmap by predicted class with the
//     wrong test nodes ringed;
//   - spectral clustering: Clusters; embeddings: Embedding; eigenpairs:
//     Spectrum (multiplicities marked) and residuals;
//   - STKR: the selection grid as a heat map and the chosen transform
//     r(λ) against kernel ridge's r(λ) = λ;
//   - GP and IMGP: predictions against targets with ±2σ bands; the IMGP
//     sweep and the Nyström (FALKON) sweep: scores against the sweep's
//     variable;
//   - K-nearest neighbours: the K-th distance histogram, distance
//     quantiles by rank and recall against time;
//   - graph kernels: the Gram matrix ordered by class, the heights chosen
//     and accuracy against the WL height.
package pictures
