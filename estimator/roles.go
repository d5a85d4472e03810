package estimator

import (
	"context"
	"encoding"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// Estimator is what every gssl model has, whatever its role.
type Estimator interface {
	// Validate checks the hyperparameters and returns an error naming the
	// first invalid field, its value and its valid range. Fit calls it
	// first.
	Validate() error
	// Info describes the last fit (the zero Info before any).
	Info() Info
}

// Saver is a model that writes and reads itself as a modelfile container
// of its kind. Predictions after UnmarshalBinary are bitwise those before
// MarshalBinary.
type Saver interface {
	// Kind is the model's kind in a model file, e.g. "labelprop.spreading".
	Kind() string
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// Cloner is a model that gives an unfitted copy of itself with the same
// hyperparameters: every exported field is copied, the learned state is
// not. Selection over a grid clones the base model and sets one field, so
// that no hyperparameter is ever dropped by copying fields by hand.
type Cloner[M any] interface {
	Clone() M
}

// Clone returns m.Clone(). It is there for generic code whose type
// parameter is constrained by Cloner.
func Clone[M Cloner[M]](m M) M { return m.Clone() }

// Nodes is what a node model is fitted on: a graph and, for the models that
// use them, one feature row per node. Features is nil for none; a model of
// the graph alone ignores it. A dense *mat.Dense is read in place; sparse
// rows are a *loaders.Sparse, which implements mat.Matrix.
type Nodes struct {
	Graph    *graph.CSR
	Features mat.Matrix
}

// NodeQuery names the nodes a node model predicts: the fitted nodes (the
// zero NodeQuery, FittedNodes) or new nodes, given by their edges to
// fitted nodes and, for models of features, their feature rows.
type NodeQuery struct {
	New      *NewNodes
	Features mat.Matrix
}

// FittedNodes is the query for the nodes the model was fitted on.
var FittedNodes = NodeQuery{}

// Regression is a prediction of real values, one per queried item:
// Mean, and Variance where the model has one (nil otherwise).
type Regression struct {
	Mean, Variance []float64
}

// Classifier is the role of a model that learns classes from labelled
// items of type X and predicts the items named by a query of type Q.
//
// Fit takes one label per item, in 0..C−1, −1 for unknown (a supervised
// model refuses −1). Predict returns one row per queried item and one
// column per class: class probabilities or decision values, as the model
// declares with Output (OutputDeclarer, which every classifier implements)
// and its Predict's doc says; the predicted class is the row's first
// maximum (Argmax). Before a successful Fit or UnmarshalBinary, Predict
// returns an error for which errors.Is(err, ErrNotFitted) holds.
type Classifier[X, Q any] interface {
	Estimator
	Fit(ctx context.Context, x X, labels []int) error
	Predict(ctx context.Context, q Q) (*mat.Dense, error)
}

// Regressor is the role of a model that learns real targets from items of
// type X (NaN for unknown, where the model is semi-supervised) and
// predicts the items named by a query of type Q.
type Regressor[X, Q any] interface {
	Estimator
	Fit(ctx context.Context, x X, y []float64) error
	Predict(ctx context.Context, q Q) (Regression, error)
}

// Transformer is the role of a model that learns a map from items of type
// X (an embedding, a kernel's feature space) and applies it to the items
// named by a query of type Q: one row per queried item.
type Transformer[X, Q any] interface {
	Estimator
	Fit(ctx context.Context, x X) error
	Transform(ctx context.Context, q Q) (*mat.Dense, error)
}

// Clusterer is the role of a model that groups items of type X without
// labels and assigns the items named by a query of type Q to its groups.
type Clusterer[X, Q any] interface {
	Estimator
	Fit(ctx context.Context, x X) error
	Predict(ctx context.Context, q Q) ([]int, error)
}

// The roles on graphs and on points. A query of points is a matrix with one
// row per point; nil asks for the fitted points, where the model keeps them
// (a transductive model); a query of nodes is a NodeQuery.
type (
	NodeClassifier  = Classifier[Nodes, NodeQuery]
	NodeRegressor   = Regressor[Nodes, NodeQuery]
	NodeTransformer = Transformer[Nodes, NodeQuery]
	NodeClusterer   = Clusterer[Nodes, NodeQuery]

	PointClassifier  = Classifier[*mat.Dense, *mat.Dense]
	PointRegressor   = Regressor[*mat.Dense, *mat.Dense]
	PointTransformer = Transformer[*mat.Dense, *mat.Dense]
)

// Argmax returns each row's first maximal column: the predicted classes of
// a Classifier's scores. A row with a NaN is an error's business, not
// Argmax's: NaN never compares greater, so such a row gives its first
// non-NaN maximum or 0.
func Argmax(scores mat.Matrix) []int {
	r, c := scores.Dims()
	out := make([]int, r)
	for i := range out {
		best := 0
		for j := 1; j < c; j++ {
			if scores.At(i, j) > scores.At(i, best) {
				best = j
			}
		}
		out[i] = best
	}
	return out
}
