// Package estimator writes down the contract every gssl model follows, and
// holds the few types the models share to follow it. A user who knows one
// gssl model should find the same shape in every other.
//
// # The contract
//
// Labels are one vector aligned with the nodes (or points), −1 for
// unlabelled, as scikit-learn's semi-supervised estimators take them;
// regression targets likewise, NaN for unknown. Fit is the front door:
//
//	m := &labelprop.Spreading{Alpha: 0.9}
//	err := m.Fit(ctx, g, labels)    // labels[i] ∈ {−1, 0, …, C−1}
//
//	r := &gp.Regressor{}
//	err = r.Fit(ctx, x, y)          // y[i] NaN: row i has no target
//
// Classifiers (labelprop.Spreading and Harmonic, stkr.Regressor, the
// nodeclass models) take Fit(ctx, data, labels []int); regressors on
// points (gp.Regressor, imgp.Regressor) take Fit(ctx, x, y []float64).
// stkr.Regressor, which does both, is a classifier through Fit (one-hot
// targets; the class count is its hyperparameter Classes, so a class
// without a labelled node keeps its column) and a regression through
// FitTargets(ctx, k, y []float64). Where the number of classes can differ
// from 1 + the largest label, it is a hyperparameter field, Classes (0
// meaning 1 + the largest label), never a Fit argument. The supervised models (svm, graphkernels.WLClassifier)
// take one class per training item in the same Fit(ctx, data, labels)
// shape and refuse −1, and krr's take a target matrix, Fit(ctx, x, Y),
// every row known.
//
// Where a split's index lists are the natural input, the same fit is
// FitIndexed: the labelled items as a list of indices with their targets
// alongside (labelprop's FitIndexed(ctx, g, nodes, classes), imgp's
// FitIndexed(ctx, x, labelled, y), stkr's FitIndexed(ctx, k, train, Y) for
// any target matrix). Fit is FitIndexed on the entries that are not −1 or
// NaN.
//
// Hyperparameters are exported fields set before Fit and never rewritten by
// it; the zero value of each means an exported Default… constant of its
// package (the command line's flag defaults are those constants, never a
// second copy of the number). Validate() error checks them; Fit calls it
// first. Learned state is unexported.
//
// Fit(ctx, …) error checks ctx once per iteration. When a solver stops at
// its iteration cap the model keeps its best iterate and Fit returns a
// *NotConvergedError (the one shape for every model: Iterations, Residual,
// Tol and the solver's own error), testable with errors.As; cancellation
// returns ctx's error.
//
// Prediction is in batches: PredictNodes for nodes that were not in the
// graph at fit time, given their edges to fitted nodes (NewNodes, the CSR
// form of those edges; labelprop, stkr; nodeclass with the new nodes'
// features as a second argument), and, for models of features,
// PredictPoints or Predict for new feature vectors (gp, imgp, krr, svm's
// PointSVC); spectral.SpectralClustering assigns new nodes to clusters
// with PredictNodes. Before a successful Fit (or UnmarshalBinary) every
// prediction returns an error for which errors.Is(err, ErrNotFitted) holds;
// misuse an error can describe is an error, not a panic.
//
// Info() describes the last fit with the same field names everywhere:
// Iterations (the solver's iterations: sweeps, CG or Chebyshev steps, the
// largest over classes solved together), Residual (the final relative
// residual or change the stopping rule tested) and Products (products of
// the graph or kernel operator with a vector or block). Model-specific
// counters come after these.
//
// A fitted model writes and reads itself: MarshalBinary and UnmarshalBinary
// (encoding.BinaryMarshaler) use a modelfile container with the model's
// kind and layout version, and predictions after the round trip are
// bitwise equal to those before (labelprop.Spreading and Harmonic,
// stkr.Regressor, gp.Regressor, imgp.Regressor, krr.Exact, Nystrom,
// Falkon and RandomFeatures, svm.PointSVC, spectral.SpectralClustering,
// nodeclass.SGC, APPNP and CorrectSmooth, and the graph classifier
// graphkernels.WLClassifier, which predicts new graphs with PredictDecision;
// package savedmodel opens any of them for gssl predict and gssl serve, and
// savedmodel.Kinds lists them). Because gob uses MarshalBinary, gob
// encoding works too; JSON encoding of a model fails with an error naming
// MarshalBinary, rather than silently dropping the fitted state. The
// models on a precomputed kernel, svm.SVC and svm.KernelRidge, save
// themselves too (savedmodel opens neither: predicting needs kernel rows to
// the training items); the graph kernels on their own refuse every encoding
// (graphkernels.ErrNotSaved, ErrJSON).
//
// New nodes of the feature models of package nodeclass (SGC, APPNP,
// Correct & Smooth) need their features with their edges: their
// PredictNodes takes NewNodes and the new nodes' features, and follows the
// frozen-known rule of nodeclass's documentation (the fitted nodes keep
// their values); saved files keep what it needs (the fitted degrees and
// propagated logits, Correct & Smooth's base model), and gssl predict
// (--edges with --features) and gssl serve (nodes carrying "features")
// answer for new nodes of a reloaded model too. The one remaining
// exception: a Correct & Smooth fitted by FitScores, or on a Spreading or
// STKR base, does not predict new nodes (its file has no base model) and
// says so.
package estimator
