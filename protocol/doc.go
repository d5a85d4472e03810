// Package protocol holds the evaluation protocols that need the models
// themselves, on top of package eval's metrics, splits and selection: the
// transductive IMGP run and the IMGP-against-GP sweep over labelled
// fractions and seeds (RunIMGP, IMGPSweep), the sweep of Nyström centres
// of kernel ridge regression (SweepCentres: test error and time against M,
// Rudi, Carratino & Rosasco 2017), and the nested cross-validation of
// kernel machines over Gram matrices of graphs (GramEvaluation: the
// protocol of Shervashidze et al., JMLR 2011, §5), with GraphKernelStudy
// the whole graph-classification experiment of gssl graphkernel (timed Gram
// matrices, candidate WL heights, the nested cross-validation, accuracy
// against a fixed height, and the model refitted on every graph for
// saving). Model packages keep their equations; the commands call these.
//
// It is a package of its own because package eval sits below the models
// (loaders use its splits, and model tests use loaders), while these
// protocols sit above them.
package protocol
