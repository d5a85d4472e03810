// Package estimatortest turns the estimator contract (package estimator)
// into tests every gssl model runs, in the spirit of scikit-learn's
// check_estimator: Check takes one Case — how to make the model, data to
// fit it on, a query to predict — and checks
//
//   - Validate accepts the case's hyperparameters and names the field of
//     each invalid one;
//   - every prediction before Fit is ErrNotFitted;
//   - Fit leaves the hyperparameters as they were, and predictions have
//     one row per queried item (one column per class for a classifier),
//     all finite;
//   - a classifier's case states its Output, Probabilities or
//     DecisionValues; the model declares the same (estimator.OutputDeclarer,
//     fitted and unfitted alike, and only a classifier declares one), and
//     the documentation of its Predict agrees, a check that the docs stay
//     true (it promises "class probabilities" or not; the doc comment is
//     read from the package's source); for probabilities, every row
//     predicted, of the query and of the fitted items (and of a
//     Probabilities() method where the model has one), is a distribution:
//     finite, ≥ 0 and summing to 1 within SumTol (DefaultSumTol = 1e-9,
//     the model's float32 rounding where it keeps float32);
//   - two fits of the same model under the same seed predict bitwise alike;
//   - Clone copies every exported field and nothing learned;
//   - a model written with MarshalBinary and read back with
//     UnmarshalBinary in a new process predicts bitwise alike;
//   - Fit under a cancelled context returns the context's error.
//
// The role is found from the model's methods: estimator.Classifier,
// Regressor, Transformer or Clusterer over the case's item and query types.
package estimatortest
