package main

import (
	"context"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/nodeids"
)

// role is a model's estimator role, as gssl_model_role reports it.
type role int32

const (
	roleNone role = iota
	roleNodeClassifier
	roleNodeRegressor
	roleNodeTransformer
	roleNodeClusterer
	rolePointClassifier
	rolePointRegressor
	rolePointTransformer
	roleGraphClassifier
)

var roleNames = [...]string{"none", "node_classifier", "node_regressor", "node_transformer", "node_clusterer",
	"point_classifier", "point_regressor", "point_transformer", "graph_classifier"}

func (r role) String() string { return roleNames[r] }

// graphClassifier is the role of a classifier of whole graphs.
type graphClassifier = estimator.Classifier[[]graphkernels.Graph, []graphkernels.Graph]

func roleOf(m any) role {
	switch m.(type) {
	case estimator.NodeClassifier:
		return roleNodeClassifier
	case estimator.NodeRegressor:
		return roleNodeRegressor
	case estimator.NodeTransformer:
		return roleNodeTransformer
	case estimator.NodeClusterer:
		return roleNodeClusterer
	case estimator.PointClassifier:
		return rolePointClassifier
	case estimator.PointRegressor:
		return rolePointRegressor
	case estimator.PointTransformer:
		return rolePointTransformer
	case graphClassifier:
		return roleGraphClassifier
	}
	return roleNone
}

func (r role) onNodes() bool  { return r >= roleNodeClassifier && r <= roleNodeClusterer }
func (r role) onPoints() bool { return r >= rolePointClassifier && r <= rolePointTransformer }

// modelEntry is a model handle's object.
type modelEntry struct {
	kind string
	m    any
	role role

	// mu lets predictions run concurrently and a fit (or a context
	// change) alone: the models are safe for concurrent reads only.
	mu sync.RWMutex

	// The data the model was fitted on, for its model file: the graph
	// (referenced while the model lives, so that a mapped file stays
	// mapped), the node ids, and the class names and data name the caller
	// gave (gssl_model_set_context).
	graph      *graphEntry
	graphs     []*graphEntry // a graph classifier's fitted graphs
	ids        *nodeids.Map
	classNames []string
	data       string
}

func newModel(kind, params string) (*modelEntry, error) {
	m, err := newKind(kind)
	if err != nil {
		return nil, err
	}
	if err := setParams(kind, m, []byte(params)); err != nil {
		return nil, err
	}
	return &modelEntry{kind: kind, m: m, role: roleOf(m)}, nil
}

// release drops the model's references to its graphs.
func (e *modelEntry) release() error {
	var err error
	if e.graph != nil {
		err = e.graph.release()
		e.graph = nil
	}
	for _, g := range e.graphs {
		if rerr := g.release(); err == nil {
			err = rerr
		}
	}
	e.graphs = nil
	return err
}

// fitData is the input of one fit, already viewed or copied from C.
type fitData struct {
	graph    *graphEntry  // node roles
	features *matrixEntry // nil for none (node roles) or required (point roles)
	labels   []int        // classifiers; nil otherwise
	targets  []float64    // regressors; nil otherwise
}

func (e *modelEntry) fit(ctx context.Context, d fitData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.role.onNodes() && d.graph == nil {
		return fmt.Errorf("%s (a %s) is fitted on a graph, and none was given", e.kind, e.role)
	}
	if e.role.onPoints() && d.features == nil {
		return fmt.Errorf("%s (a %s) is fitted on a feature matrix, and none was given", e.kind, e.role)
	}
	var nodes estimator.Nodes
	if d.graph != nil {
		nodes = estimator.Nodes{Graph: d.graph.g}
		if d.features != nil {
			if r := d.features.rows(); r != d.graph.g.Nodes() {
				return fmt.Errorf("features has %d rows for a graph of %d nodes", r, d.graph.g.Nodes())
			}
			nodes.Features = d.features.nodeFeatures()
		}
	}
	var points *mat.Dense
	if e.role.onPoints() {
		var err error
		if points, err = d.features.pointFeatures(e.kind); err != nil {
			return err
		}
	}
	needLabels := e.role == roleNodeClassifier || e.role == rolePointClassifier || e.role == roleGraphClassifier
	needTargets := e.role == roleNodeRegressor || e.role == rolePointRegressor
	switch {
	case needLabels && d.labels == nil:
		return fmt.Errorf("%s (a %s) is fitted on integer labels, and none were given", e.kind, e.role)
	case needTargets && d.targets == nil:
		return fmt.Errorf("%s (a %s) is fitted on real targets, and none were given", e.kind, e.role)
	}
	var err error
	switch m := e.m.(type) {
	case estimator.NodeClassifier:
		err = m.Fit(ctx, nodes, d.labels)
	case estimator.NodeRegressor:
		err = m.Fit(ctx, nodes, d.targets)
	case estimator.NodeTransformer:
		err = m.Fit(ctx, nodes)
	case estimator.NodeClusterer:
		err = m.Fit(ctx, nodes)
	case estimator.PointClassifier:
		err = m.Fit(ctx, points, d.labels)
	case estimator.PointRegressor:
		err = m.Fit(ctx, points, d.targets)
	case estimator.PointTransformer:
		err = m.Fit(ctx, points)
	case graphClassifier:
		return fmt.Errorf("%s is a graph classifier: fit it on graphs (gssl_model_fit_graphs)", e.kind)
	default:
		return fmt.Errorf("%s implements no estimator role yet (its package has not been converted to the contract), so it cannot be fitted here", e.kind)
	}
	if err := e.release(); err != nil {
		return err
	}
	if d.graph != nil && e.role.onNodes() {
		d.graph.acquire()
		e.graph, e.ids = d.graph, d.graph.ids
	}
	return err
}

// predictQuery is the input of one predict, viewed or copied from C.
type predictQuery struct {
	newNodes *estimator.NewNodes // node roles: nil for the fitted nodes
	features *matrixEntry        // node roles: the new nodes' features; point roles: the points (nil: fitted)
}

// predict runs the role's Predict (or Transform) and returns its result:
// scores or probabilities (classifiers), the mean and, where the model has
// one, the variance as a second column (regressors), the embedding
// (transformers), the cluster of each item as int64 (clusterers).
func (e *modelEntry) predict(ctx context.Context, q predictQuery) (*result, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	nq := estimator.NodeQuery{New: q.newNodes, Features: q.features.nodeFeatures()}
	var points *mat.Dense
	if e.role.onPoints() {
		var err error
		if points, err = q.features.pointFeatures(e.kind); err != nil {
			return nil, err
		}
	}
	switch m := e.m.(type) {
	case estimator.NodeClassifier:
		return denseResult(m.Predict(ctx, nq))
	case estimator.NodeRegressor:
		return regressionResult(m.Predict(ctx, nq))
	case estimator.NodeTransformer:
		return denseResult(m.Transform(ctx, nq))
	case estimator.NodeClusterer:
		return intResult(m.Predict(ctx, nq))
	case estimator.PointClassifier:
		return denseResult(m.Predict(ctx, points))
	case estimator.PointRegressor:
		return regressionResult(m.Predict(ctx, points))
	case estimator.PointTransformer:
		return denseResult(m.Transform(ctx, points))
	}
	return nil, fmt.Errorf("%s (role %s) cannot predict through the C ABI", e.kind, e.role)
}

func denseResult(d *mat.Dense, err error) (*result, error) {
	if err != nil {
		return nil, err
	}
	if d == nil || d.IsEmpty() {
		return &result{f64: []float64{}}, nil
	}
	r, c := d.Dims()
	out := &result{rows: r, cols: c, f64: make([]float64, r*c)}
	for i := range r {
		copy(out.f64[i*c:(i+1)*c], d.RawRowView(i))
	}
	return out, nil
}

func regressionResult(reg estimator.Regression, err error) (*result, error) {
	if err != nil {
		return nil, err
	}
	n := len(reg.Mean)
	cols := 1
	if reg.Variance != nil {
		cols = 2
	}
	out := &result{rows: n, cols: cols, f64: make([]float64, n*cols)}
	for i, m := range reg.Mean {
		out.f64[i*cols] = m
		if cols == 2 {
			out.f64[i*cols+1] = reg.Variance[i]
		}
	}
	return out, nil
}

func intResult(v []int, err error) (*result, error) {
	if err != nil {
		return nil, err
	}
	out := &result{rows: len(v), cols: 1, i64: make([]int64, len(v))}
	for i, x := range v {
		out.i64[i] = int64(x)
	}
	return out, nil
}
