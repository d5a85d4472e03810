// Command capi is gssl's C ABI: the Go library built with
//
//	go build -buildmode=c-shared -o libgssl.so ./capi
//
// behind a small, versioned set of C functions (gssl.h, written by the
// build), which the Python package gssl (python/) loads with ctypes.
//
// # Handles
//
// Graphs, models, results and calls are int64 handles into a Go-side table
// (handles.go); C never holds a Go pointer. A handle is never reused, so a
// stale one is an error (GSSL_EHANDLE), not another object. Every handle is
// released by gssl_free.
//
// # Calls, errors and cancellation
//
// Every function that can fail takes a call handle first (gssl_call_new) and
// returns a status code: 0 for success, one of the GSSL_E… codes otherwise,
// whose message gssl_call_error copies out. The call handle also carries a
// context: gssl_call_cancel cancels it from any thread, and a long fit or
// predict running under it returns GSSL_ECANCELLED within one iteration. One
// call handle per thread and call keeps messages apart.
//
// # Memory
//
// Arrays come in as C pointers and lengths. Arrays the graph or model can
// use as they are (float64 weights and features, int32 column indices,
// int64 row offsets and edge ends on a 64-bit platform) are read in place
// and, for a graph built from CSR arrays or a model fitted on features, kept
// as views: the caller must keep them alive and unmodified until the graph
// or model handle is freed (the Python package holds a reference). Other
// dtypes are copied once (float32 weights, int64 column indices, int32 row
// offsets and edge ends). Results are copied out into caller-provided
// buffers (gssl_result_copy), so no C pointer to Go memory survives a call;
// gssl_model_predict_into writes a prediction straight into the caller's
// buffer when it fits, with no result handle and no intermediate copy.
//
// Feature matrices can also be handles (gssl_matrix_from_dense,
// gssl_matrix_from_csr, used by gssl_model_fit_matrix and
// gssl_model_predict_matrix): a CSR matrix becomes a *loaders.Sparse, which
// the node models of features (package nodeclass) read without densifying
// it; its float64 values and int32 column indices are views, an int64
// indptr too, and the other dtypes are copied once (gssl_matrix_copied
// names them).
//
// # Models
//
// Models are built by kind from the registry of model kinds (package
// persist) and driven through the roles of package estimator, whatever the
// model:
// hyperparameters are the exported fields, set by name from a JSON object;
// fit and predict dispatch on the role (node classifier, node regressor,
// point classifier, …). Models are saved as the CLI saves them (package
// savedmodel's container with the node ids and class names), so a model
// saved here opens in gssl predict and gssl serve. The spectral embeddings
// (Laplacian eigenmap, kernel PCA) have no model file format yet: they are
// kinds of this package only (kinds.go), fitted and applied but not saved.
//
// A classifier's predictions are class probabilities or decision values, as
// it declares (estimator.OutputDeclarer): gssl_kinds reports each kind's
// "output" ("probabilities" or "decision_values") with its default
// hyperparameters, gssl_model_info the model's own; other roles have none.
// The Python package gives predict_proba to the first, decision_function to
// the second.
//
// A hyperparameter of an interface type that model kinds implement (the
// base classifier of confidence.Classifier, the regression of
// krr.Classifier) holds a model, given as {"type": kind, its
// hyperparameters…} like a kernel (components.go): any kind of the right
// role, not a list per wrapper.
//
// confidence.Classifier is a kind here too (kinds.go): fitted with the
// nodes to calibrate on (gssl_model_fit_held_out), it predicts calibrated
// probabilities and conformal prediction sets (gssl_model_predict_sets,
// each node's uniform drawn from its key as gssl predict draws it). Its
// file is its base model's with calibration sections, and every model file
// with such sections (gssl classify and labelprop --conformal --save) opens
// as this kind, predicting what gssl predict does.
//
// # Confidence tools
//
// gssl_eval_roc_auc, gssl_eval_fit_temperature, gssl_eval_reliability and
// gssl_eval_conformal_calibrate/_sets expose package eval's ROC AUC,
// temperature scaling, reliability diagram and ECE, and split-conformal
// prediction sets on score arrays (eval.go).
package main
