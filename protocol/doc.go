// Package protocol holds the evaluation protocols that need the models
// themselves, on top of package eval's metrics, splits, folds and selection:
// the runs of specific models over splits, seeds, grids and settings. Model
// packages keep their equations, grids and defaults; the commands call
// these.
//
// # Settings and partitions
//
// Task is a node-classification problem (a graph and a label per node).
// Partition is the four-way split of the STKR paper (Appendix D.1): train
// and val are labelled, test and other unlabelled; only test is scored.
// NewPartition keeps round(p_test·N) of a split's test nodes as the test
// set (DefaultPTest, the paper's p_test); TestChunks cuts a split's test
// nodes into chunks of that size, one partition per chunk, so that every
// test node is scored while only p_test of the graph is hidden at a time.
// Setting says what the learner sees at fit time: Transductive (every node
// and edge visible, val and test labels hidden); Inductive (the test nodes
// and their edges invisible, predicted afterwards from their edges to the
// visible nodes; hyperparameters are chosen with the val nodes hidden too,
// then the chosen model is refitted with val visible and unlabelled);
// InductiveStrict (val hidden in that fit too, the paper's D.1 read
// literally); InductiveTestOnly (only the test nodes hidden).
//
// # Label propagation (package labelprop)
//
// ChooseAlpha chooses the spreading weight a without a validation split,
// by seeded stratified k-fold cross-validation over the labelled nodes
// (eval.SelectByCV over labelprop.AlphaCandidates, clones of a base model,
// so that Float32, the stopping rule and the solver are the ones
// cross-validated). EvaluateLabelProp is the protocol of gssl labelprop:
// over the seeds of an eval.Splitter, one clone per value of the grid
// fitted on the training nodes (each solve warm-started from the previous
// value's), the best on the validation nodes scored on the test nodes
// (eval.SelectOnSplit); without a split, a chosen by ChooseAlpha
// (labelprop.DefaultAlpha when no class has two labels), then one fit on
// every labelled node. Progress observes the runs and the
// cross-validation's fits.
//
// # Spectrally transformed kernel regression (package stkr)
//
// After R. Zhai, R. Pukdee, R. Jin, M.-F. Balcan, P. Ravikumar,
// "Spectrally Transformed Kernel Regression", ICLR 2024, Appendix D.1.
// PrepareSTKR builds the base kernel K = N·W_ij/√(d_i d_j) on the visible
// graph of a setting: in the inductive settings the subgraph induced by
// the visible nodes (with its own degrees), and for each hidden node x the
// kernel row of its edges to visible nodes,
//
//	k(x)_j = N·w(x, x_j)/√(d_x d_j),
//
// d_x the weight of those edges. STKRPrepared.Select chooses η and β by
// validation accuracy (stkr.EtaGrid, stkr.BetaGrid, the grids of stkr.py);
// ChooseSTKR adds the inductive refit; ChooseSTKRSplit runs it on one split
// (one partition, or one per test chunk) and sums the test counts;
// RunSTKRBenchmark repeats it over seeds and SummarizeSTKR sums it up.
// Without a split, ChooseSTKRCV (and RunSTKRCV, with the middle of the
// STKRGrid when no class has two labels) fits on every labelled node with
// the hyperparameters chosen by seeded stratified k-fold cross-validation
// (pooled held-out accuracy, the first best candidate on ties); the scores
// become class probabilities by stkr.Normalize. STKRGrid.Cells reduces a
// selection's accuracies to the best of each (η, β) cell.
//
// # Point models, regression, kernel machines and graph kernels
//
//   - the train/test setting of the point models: PointTask (the user's
//     points split by known values, NewPointTask; an image set's
//     origin.txt parts, ReadImageTask; the first rows, FirstRowsTask),
//     FitPredict (a timed fit and prediction of a krr.MultiOutput, scored
//     by error rate or RMSE) and FitClassify (any point classifier);
//   - the transductive regression setting of gp and imgp: RegressionTask
//     (the user's points, SyntheticRegression, ReadImageRegression; the
//     labelled rows by Label), RunGP, RunIMGP and IMGPPredictions, and the
//     IMGP-against-GP sweep over labelled fractions and seeds (IMGPSweep);
//   - the sweep of Nyström centres of kernel ridge regression
//     (SweepCentres: test error and time against M, Rudi, Carratino &
//     Rosasco 2017; SweepKRR scores it);
//   - the reports of these runs for a reader, whose JSON is the command
//     line's: KRRReport, KRRSweepReport, ClassifierReport, GPReport,
//     IMGPReport and IMGPSweepReport, and the tables of their predictions
//     (PredictionTable: KRRTable, SVMTable, RegressionTable);
//   - the nested cross-validation of kernel machines over Gram matrices of
//     graphs (GramEvaluation: the protocol of Shervashidze et al., JMLR
//     2011, §5), with GraphKernelStudy the whole graph-classification
//     experiment of gssl graphkernel (timed Gram matrices, candidate WL
//     heights, the nested cross-validation, accuracy against a fixed
//     height, and the model refitted on every graph for saving).
//
// It is a package of its own because package eval sits below the models
// (loaders use its splits, and model tests use loaders), while these
// protocols sit above them.
package protocol
