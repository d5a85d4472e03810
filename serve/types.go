package serve

import (
	"context"
	"encoding/json"
	"fmt"
)

// Predictor is a fitted model as the server sees it. Its methods are called
// from many goroutines at once and must not modify the model.
type Predictor interface {
	// Metadata describes the model.
	Metadata() Metadata
	// PredictNodes predicts nodes that were not in the graph at fit time
	// from their edges to fitted nodes, one Prediction per node in order.
	// Input the model refuses is reported as an *InputError naming the
	// field (e.g. "nodes[1].edges[0].to" for an unknown id).
	PredictNodes(ctx context.Context, nodes []NewNode) ([]Prediction, error)
	// PredictPoints predicts points from their features; a model without
	// features returns an *InputError for the field "points".
	PredictPoints(ctx context.Context, points [][]float64) ([]Prediction, error)
}

// GraphPredictor is a Predictor of whole graphs (a graph classifier, such
// as a saved graphkernels.WLClassifier). The handler answers a request of
// "graphs" only with a Predictor that implements it, and refuses it with a
// 422 naming the field otherwise.
type GraphPredictor interface {
	Predictor
	// PredictGraphs predicts each graph, one Prediction per graph in order.
	// The graphs have passed the decoder's checks (node indices in range,
	// sizes within the Config's limits); input the model refuses is an
	// *InputError naming the field ("graphs[2]").
	PredictGraphs(ctx context.Context, graphs []Graph) ([]Prediction, error)
}

// Graph is a graph to classify: nodes 0..Nodes−1, the discrete label of
// each, and undirected edges as pairs of node indices (a repeated edge or
// both directions of one count once; a self loop is dropped, as the TU
// loader drops them).
type Graph struct {
	// ID names the graph in the answer; optional.
	ID string `json:"id,omitempty"`
	// Nodes is the number of nodes: len(Labels) when labels are given.
	Nodes int `json:"nodes"`
	// Labels[i] is node i's label (an atom type, say); nil when the request
	// gave none, which means label 0 for every node (as for a TU data set
	// without node labels).
	Labels []int `json:"labels,omitempty"`
	// Edges are pairs of node indices in [0, Nodes).
	Edges [][2]int `json:"edges"`
}

// InputGraphs is Metadata.Input of a model of whole graphs: its requests
// send "graphs".
const InputGraphs = "graphs"

// Task is what a model predicts.
type Task string

// The tasks.
const (
	Classification Task = "classification"
	Regression     Task = "regression"
)

// Metadata describes a model to clients (GET /v1/model).
type Metadata struct {
	// Kind is the model type, e.g. "labelprop.Spreading".
	Kind string `json:"kind"`
	Task Task   `json:"task"`
	// Classes are the class names, in the order of the probabilities (or
	// of the scores of a classifier without probabilities).
	Classes []string `json:"classes,omitempty"`
	// Nodes is the number of fitted nodes; a new node's edges name them by
	// id. 0 when the model does not predict new nodes.
	Nodes int `json:"nodes"`
	// Features is the dimension of a point; 0 when the model does not
	// predict points.
	Features int `json:"features"`
	// Input is InputGraphs ("graphs") for a model of whole graphs, whose
	// requests send "graphs"; empty for models of nodes or points (Nodes
	// and Features say which).
	Input string `json:"input,omitempty"`
	// Graphs is the number of graphs a model of graphs was fitted on.
	Graphs int `json:"graphs,omitempty"`
	// NodeFeatures is the dimension of a new node's feature vector, for
	// models that predict a new node from its features and its edges
	// together (package nodeclass); 0 when new nodes are given by their
	// edges alone.
	NodeFeatures int `json:"node_features,omitempty"`
	// ExampleIDs are a few fitted node ids, for the page's example request.
	ExampleIDs []string `json:"example_ids,omitempty"`
	// Hyperparameters are the model's settings, as the model file has them.
	Hyperparameters json.RawMessage `json:"hyperparameters,omitempty"`
	// Writer is the gssl build that fitted the model.
	Writer string `json:"writer,omitempty"`
	// ConformalAlpha is the miscoverage of the prediction sets of a
	// calibrated classifier (each Prediction's Set holds the true class
	// with probability ≥ 1 − ConformalAlpha); 0 for a model without.
	ConformalAlpha float64 `json:"conformal_alpha,omitempty"`
}

// NewNode is a node that was not in the graph at fit time.
type NewNode struct {
	ID    string `json:"id"`
	Edges []Edge `json:"edges"`
	// Features is the node's feature vector, Metadata.NodeFeatures values,
	// for the models that need it; nil for the others.
	Features []float64 `json:"features,omitempty"`
}

// Edge is an edge from a new node to a fitted node, named by its id.
type Edge struct {
	To     string  `json:"to"`
	Weight float64 `json:"weight"`
}

// Prediction is the prediction for one node, point or graph.
type Prediction struct {
	// ID is the node's id, or the graph's when the request named it (empty
	// for points).
	ID string `json:"id,omitempty"`
	// Label is the most probable class's name (classifiers).
	Label string `json:"label,omitempty"`
	// Probabilities are in the order of Metadata.Classes (classifiers);
	// calibrated for a calibrated classifier.
	Probabilities []float64 `json:"probabilities,omitempty"`
	// Set is the conformal prediction set of a calibrated classifier: class
	// names in decreasing probability (package confidence).
	Set []string `json:"set,omitempty"`
	// Scores are a classifier's raw scores per class when it has no
	// probabilities (e.g. STKR's regression on one-hot targets), a C-SVM's
	// decision values (one per one-vs-one machine, in the order (0,1),
	// (0,2), …, (1,2), … of Metadata.Classes), or a multi-output
	// regression's outputs.
	Scores []float64 `json:"scores,omitempty"`
	// Mean and Variance are the predictive distribution (regression);
	// Variance is nil for models without one.
	Mean     *float64 `json:"mean,omitempty"`
	Variance *float64 `json:"variance,omitempty"`
	// Prior is true when nothing reached the item and the class prior was
	// returned (a node whose edges all lead to unreached nodes).
	Prior bool `json:"prior,omitempty"`
}

// InputError is input that the model refuses, naming the field.
type InputError struct {
	Field string // e.g. "nodes[3].edges[0].to"
	Msg   string
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Field, e.Msg)
}

// Request is the body of POST /v1/predict: exactly one of Nodes, Points
// and Graphs.
type Request struct {
	Nodes  []NewNode   `json:"nodes,omitempty"`
	Points [][]float64 `json:"points,omitempty"`
	Graphs []Graph     `json:"graphs,omitempty"`
}

// Response is the answer to POST /v1/predict.
type Response struct {
	Kind        string       `json:"kind"`
	Classes     []string     `json:"classes,omitempty"`
	Predictions []Prediction `json:"predictions"`
}

// ErrorBody is the body of every error answer.
type ErrorBody struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}
