// Package protocol holds the evaluation protocols that need the models
// themselves, on top of package eval's metrics, splits and selection:
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
//     Rosasco 2017);
//   - the nested cross-validation of kernel machines over Gram matrices of
//     graphs (GramEvaluation: the protocol of Shervashidze et al., JMLR
//     2011, §5), with GraphKernelStudy the whole graph-classification
//     experiment of gssl graphkernel (timed Gram matrices, candidate WL
//     heights, the nested cross-validation, accuracy against a fixed
//     height, and the model refitted on every graph for saving).
//
// Model packages keep their equations; the commands call these.
//
// It is a package of its own because package eval sits below the models
// (loaders use its splits, and model tests use loaders), while these
// protocols sit above them.
package protocol
