// Package serve answers predictions of a fitted model over HTTP, on the
// standard library's net/http. Models know nothing of HTTP: a handler takes
// any Predictor, which reads the user's node ids and class names and is
// shared read-only by every request.
//
// # Endpoints
//
//	POST /v1/predict   a batch of new nodes with their edges to fitted nodes,
//	                   of points with their features, or of graphs to
//	                   classify → predictions
//	GET  /v1/model     the model's metadata (Metadata)
//	GET  /healthz      "ok" while the server runs
//	GET  /metrics      Prometheus text format: requests and errors by handler
//	                   and status code, a latency histogram, predicted items
//	GET  /             a page showing the metadata with a form that sends one
//	                   prediction request (plain HTML and a same-origin script)
//
// A prediction request is one JSON object with exactly one of
//
//	{"nodes": [{"id": "x", "edges": [{"to": "paper_1", "weight": 1}]}]}
//	{"points": [[0.5, 1.25], [3, 4]]}
//	{"graphs": [{"id": "g", "labels": [0, 0, 1], "edges": [[0, 1], [1, 2]]}]}
//
// (an edge's weight defaults to 1; for a model that predicts a new node
// from its features and edges together, Metadata.NodeFeatures > 0, each
// node carries "features": [...] too; a graph gives its node labels, or
// "nodes": n for n nodes of label 0, and its edges as pairs of node
// indices; only a GraphPredictor takes graphs) and is answered with
//
//	{"kind": "labelprop.Spreading", "classes": ["A", "B"],
//	 "predictions": [{"id": "x", "label": "B", "probabilities": [0.2, 0.8]}]}
//
// for classifiers ("probabilities" in the order of classes for the models
// whose predictions are probabilities (estimator.Probabilities), else
// "scores": their decision values (estimator.DecisionValues), a C-SVM's one
// per one-vs-one machine) or with "mean" and "variance" for regression
// models. docs/serve.md has runnable examples.
//
// # Errors
//
// Every error is a JSON object {"error": "...", "field": "..."}, field the
// path of the offending part of the request ("nodes[2].edges[0].to") when
// there is one: 400 for malformed JSON, unknown fields or a request holding
// not exactly one of nodes, points and graphs, an edge of a graph that is
// not a pair of integers; 413 for a body over Config.MaxBody, a batch over
// Config.MaxBatch or a graph over Config.MaxGraphNodes or MaxGraphEdges;
// 415 for a body that is not application/json; 422 for what the model
// refuses (an unknown node id, a point or a node's features of the wrong
// dimension or missing, a negative weight, a node index outside its graph,
// graphs sent to a model of nodes); 401 without the bearer token; 404 and
// 405 for other paths and methods; 500 for a failure of the model itself
// (logged, not echoed).
//
// # Safety
//
// The server listens on loopback by default and refuses to start on another
// address without a bearer token (Config.Token, compared in constant time).
// Bodies are limited by http.MaxBytesReader, batches by size, and the
// server has read, write and idle timeouts. Shutdown (the context of Serve
// ending) stops accepting connections and lets the requests in flight
// finish. Handlers do not recover panics: a panic in a Predictor is a bug
// for the tests to find, not a 500 to hide.
package serve
