// Package estimator holds the contract every gssl model follows, as Go
// interfaces, and the few types the models share to follow it. A user who
// knows one gssl model finds the same shape in every other, and a front
// end (the gssl command, gssl serve, the C ABI under the Python package)
// wraps a role once instead of wrapping each model.
//
// # Roles
//
// A model has one role over the items it learns from (X) and the queries
// it answers (Q):
//
//	Classifier[X, Q]   Fit(ctx, x X, labels []int) error;     Predict(ctx, q Q) (*mat.Dense, error)
//	Regressor[X, Q]    Fit(ctx, x X, y []float64) error;      Predict(ctx, q Q) (Regression, error)
//	Transformer[X, Q]  Fit(ctx, x X) error;                   Transform(ctx, q Q) (*mat.Dense, error)
//	Clusterer[X, Q]    Fit(ctx, x X) error;                   Predict(ctx, q Q) ([]int, error)
//
// Models of nodes are fitted on Nodes (a graph and, for the models that use
// them, one feature row per node) and answer a NodeQuery: the zero query
// (FittedNodes) asks for the fitted nodes, a query with New asks for nodes
// that were not in the graph, given by their edges to fitted nodes (and
// their features). Models of points are fitted on a matrix with one row per
// point and answer a matrix of new points; a transductive model answers a
// nil matrix with its fitted points. NodeClassifier, NodeRegressor,
// NodeTransformer, NodeClusterer, PointClassifier, PointRegressor and
// PointTransformer name these instances; a graph classifier is a
// Classifier over lists of graphs (graphkernels.GraphClassifier).
//
// Labels are one vector aligned with the items, −1 for unlabelled, as
// scikit-learn's semi-supervised estimators take them; regression targets
// likewise, NaN for unknown. A supervised model refuses −1 and NaN.
//
// # Classifier output
//
// A classifier's Predict returns one row per queried item and one column
// per class: class probabilities (each row a distribution: finite, ≥ 0,
// summing to 1) or decision values (scores, votes or regression outputs
// whose first maximum is the class, and nothing more), as the classifier
// declares with its Output method (OutputDeclarer, which every classifier
// implements: a method, since a hyperparameter may decide) and its
// Predict's documentation says ("class probabilities"); Argmax gives the
// predicted classes. Front ends name the rows by the declaration: the C
// ABI reports it ("output" in gssl_kinds and in model info), Python gives
// predict_proba to Probabilities only and decision_function to
// DecisionValues, as scikit-learn does.
//
// # Rules every model follows
//
// Hyperparameters are exported fields set before Fit and never rewritten
// by it; the zero value of each means an exported Default… constant of its
// package, and the command line's flag defaults are those constants.
// Validate() error checks them, naming the field, its value and its valid
// range; Fit calls it first. Learned state is unexported.
//
// Clone returns an unfitted copy with every exported field copied (the
// Cloner constraint). Selection over a grid of hyperparameters (package
// eval) clones the base model and sets one field, so no setting is ever
// lost by copying fields by hand.
//
// Every long call takes a context first and checks it once per iteration;
// cancellation returns the context's error. When a solver stops at its
// iteration cap the model keeps its best iterate and Fit returns a
// *NotConvergedError, the one shape for every model (errors.As). Before a
// successful Fit or UnmarshalBinary every Predict and Transform returns an
// error for which errors.Is(err, ErrNotFitted) holds. Misuse that an error
// can describe is an error, not a panic.
//
// Info() describes the last fit with the same fields everywhere:
// Iterations (the solver's iterations, the largest over classes solved
// together), Residual (the final value the stopping rule tested) and
// Products (products of the graph or kernel operator with a vector or
// block).
//
// A fitted model writes and reads itself (Saver: Kind, MarshalBinary,
// UnmarshalBinary) as a modelfile container of its kind; predictions after
// the round trip are bitwise equal to those before, in any process.
// Package persist maps each kind to the model that reads it, and package
// savedmodel adds the data set's context (node ids, class names) for gssl
// predict and gssl serve. Gob encoding goes through MarshalBinary; JSON
// encoding of a model fails with ErrJSON rather than silently dropping the
// fitted state. A model that cannot be saved (a graph kernel alone) says so
// from MarshalBinary and is not a Saver.
//
// Package estimatortest turns these rules into tests: Check runs them on
// every model, and a model without a case there fails the build's tests.
//
// # Exceptions
//
// Each remaining departure from the rules, and why:
//
//   - logreg.Classifier, mlp.Classifier, spectral.LaplacianEigenmap and
//     KernelPCA, the graph kernels alone and the nodeclass Spreading and
//     STKR adapters are not Savers: none has a file format (a kernel is
//     refitted in a fraction of its classifier's time, an adapter is saved
//     as the model it adapts).
//   - The nodeclass Spreading and STKR adapters, a Correct & Smooth fitted
//     by FitScores or on them, nodeclass.ChannelMLP and linbp.Propagation
//     predict their fitted nodes only and refuse new ones with an error;
//     mlp.Classifier keeps no training rows, so it refuses a nil query.
//   - spectral.SpectralClustering.Clusters has no default: the number of
//     groups is the question the user asks.
//   - Low-level forms stay beside the role where a split's index lists or
//     several targets are the natural input: labelprop's and imgp's
//     FitIndexed, stkr's FitIndexed with Scores and NewNodeScores, krr's
//     FitTargets and PredictTargets; labelprop.NewNodeDetails gives serve
//     each new node's "prior" flag.
//   - Clones share memoised work that does not depend on a hyperparameter
//     being searched: the design cache of SGC and APPNP, the Base of
//     Correct & Smooth (fitted as a clone, never changed).
package estimator
