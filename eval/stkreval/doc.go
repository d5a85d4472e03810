// Package stkreval holds the protocols of STKR (package stkr), after
//
//	R. Zhai, R. Pukdee, R. Jin, M.-F. Balcan, P. Ravikumar,
//	"Spectrally Transformed Kernel Regression", ICLR 2024.
//
// # Protocol (Appendix D.1)
//
// Partition splits the nodes into train / val / test / other; p_test keeps
// round(p_test·N) of a split's test nodes as the test set. Transductive:
// all nodes and edges visible, n = |train|. Inductive: the test nodes and
// their edges are invisible at fit time and are predicted afterwards from
// their edges to the visible nodes, k(x)_j = N·w(x, x_j)/√(d_x d_j) with d_x
// the weight of those edges (the visible graph is the induced subgraph,
// with its own degrees). Hyperparameters are chosen as the paper does, on a
// view where the val nodes and their edges are hidden as well (so that val
// accuracy is accuracy on unseen nodes); Choose then refits the chosen
// regressor with the val nodes visible and unlabelled before it predicts
// test, so that the fit predicting test differs from the transductive one
// only by the test nodes. InductiveStrict is the paper's D.1 read
// literally (val hidden in that fit too, n = |train|, m = |other|); on Cora,
// where val is 18 % of a sparse graph, it loses about 8 points to
// Transductive, all of it from the missing val nodes (BENCHMARKS.md).
// InductiveTestOnly hides only the test nodes, also for the choice.
// Prepared.Select chooses hyperparameters by validation accuracy (η from
// stkr.EtaGrid, β from stkr.BetaGrid, the grids of stkr.py). TestChunks cuts a
// split's test nodes into chunks of round(p_test·N), one partition per
// chunk, so that every test node is scored while only p_test of the graph
// is hidden at a time: the low-noise estimate of the protocol's test
// accuracy (BENCHMARKS.md, stkr). ChooseSplit runs all of it on one split
// (one partition, or one per chunk) and sums the test counts.
//
// # Without a split
//
// ChooseCV is the protocol for real use: fit on every labelled node and
// predict every other one, with the hyperparameters chosen by seeded
// stratified k-fold cross-validation over the labelled nodes (transductive,
// pooled held-out accuracy, the first best candidate on ties); the scores
// become class probabilities by stkr.Normalize.
//
// It is a package of its own, not part of eval, because package loaders
// (which stkr's feature kernel reads through propagate) imports eval.
package stkreval
