// Package savedmodel saves a fitted gssl model together with what a user
// needs to query it — the ids of the fitted nodes and the class names, as
// the user's files wrote them — and opens such a file as a serve.Predictor,
// for gssl predict, gssl model info and gssl serve.
//
// The file is a modelfile container written by the model's own ModelFile
// method, with the data set's context added in sections whose names start
// with "data." (the models never use that prefix):
//
//	data.json      bytes: one JSON object (Context without the ids)
//	data.ids       strings: the fitted nodes' text ids, or
//	data.int_ids   int64: their integer ids (neither: the ids are 0..n−1)
//
// New nodes are given by their edges to fitted nodes (serve.NewNode, by the
// user's ids); the feature models of package nodeclass take each new
// node's features too (serve.Metadata.NodeFeatures > 0, NewNode.Features,
// or PredictNodesWithFeatures for a dense or sparse matrix of them), and
// the other models refuse features on a node rather than ignore them.
//
// A label-propagation or STKR model fitted on the K-nearest-neighbour graph
// of points (Context.Points) also keeps those points and the graph's
// weighting, in sections
//
//	data.knn.json    bytes: kernel, K, σ, rows and columns
//	data.knn.points  float64: the fitted nodes' points, row-major
//	data.knn.scale   float64: per-node σ_i (self-tuning) or D̃_ii (IMGP)
//
// and predicts a new point (PredictPoints, serve's "points") as a new node
// whose edges go to its K nearest fitted points (exact search), weighted as
// the graph's own edges (knngraph.Weighted.Extend), by the model's own
// new-node prediction. The sections are validated like user input.
//
// Open dispatches on the file's kind (Kinds lists those this build reads);
// an unknown kind, a newer layout or a damaged file is an error naming it.
// Nothing in the file is executed.
//
// A graph classifier (graphkernels.WLClassifier) is a model of whole
// graphs: Saved is then a serve.GraphPredictor (PredictGraphs for graphs
// as a request gives them, PredictKernelGraphs for graphs as
// loaders.LoadTU reads them), its metadata says Input "graphs", its
// fitted items are its training graphs (numbered from 1, predicted from
// the feature vectors the file keeps), and nodes and points are refused by
// name; the models of nodes and points refuse graphs likewise.
package savedmodel
