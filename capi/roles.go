package main

import (
	"context"
	"fmt"
	"sync"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
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
	// heldOut are the labelled nodes a model that calibrates itself holds
	// out of its fit to calibrate on (heldOutFitter); nil for none given.
	heldOut []int
}

// heldOutFitter is a node classifier that can be told which labelled nodes
// to hold out of its fit (to calibrate on), as confidence.Classifier can.
type heldOutFitter interface {
	FitHeldOut(ctx context.Context, x estimator.Nodes, labels []int, heldOut []int) error
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
	held, _ := e.m.(heldOutFitter)
	if d.heldOut != nil && held == nil {
		return fmt.Errorf("%s holds out no nodes of its fit: held-out nodes are for a model that calibrates itself (%s)", e.kind, conformalKind)
	}
	var err error
	switch m := e.m.(type) {
	case estimator.NodeClassifier:
		if d.heldOut != nil {
			err = held.FitHeldOut(ctx, nodes, d.labels, d.heldOut)
		} else {
			err = m.Fit(ctx, nodes, d.labels)
		}
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
	o, err := e.output(ctx, q)
	if err != nil {
		return nil, err
	}
	return o.result(), nil
}

// predictInto is predict writing into dst when the result fits in its
// capacity (then it returns a nil result), and returning the result as
// predict does otherwise; shape is the result's either way. The model's
// output is copied into dst once, with no intermediate result.
func (e *modelEntry) predictInto(ctx context.Context, q predictQuery, dst unsafe.Pointer, capacity int) (shape resultShape, r *result, err error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	o, err := e.output(ctx, q)
	if err != nil {
		return resultShape{}, nil, err
	}
	shape = o.shape()
	if dst == nil || shape.nbytes() > capacity {
		return shape, o.result(), nil
	}
	o.writeTo(dst)
	return shape, nil, nil
}

// output runs the role's Predict (or Transform); e.mu is read-locked.
func (e *modelEntry) output(ctx context.Context, q predictQuery) (output, error) {
	nq := estimator.NodeQuery{New: q.newNodes, Features: q.features.nodeFeatures()}
	var points *mat.Dense
	if e.role.onPoints() {
		var err error
		if points, err = q.features.pointFeatures(e.kind); err != nil {
			return output{}, err
		}
	}
	switch m := e.m.(type) {
	case estimator.NodeClassifier:
		return denseOutput(m.Predict(ctx, nq))
	case estimator.NodeRegressor:
		return regressionOutput(m.Predict(ctx, nq))
	case estimator.NodeTransformer:
		return denseOutput(m.Transform(ctx, nq))
	case estimator.NodeClusterer:
		return intOutput(m.Predict(ctx, nq))
	case estimator.PointClassifier:
		return denseOutput(m.Predict(ctx, points))
	case estimator.PointRegressor:
		return regressionOutput(m.Predict(ctx, points))
	case estimator.PointTransformer:
		return denseOutput(m.Transform(ctx, points))
	}
	return output{}, fmt.Errorf("%s (role %s) cannot predict through the C ABI", e.kind, e.role)
}

// output is what a role's Predict returned, before it is copied out:
// exactly one of dense, reg (a regression) and ints is set.
type output struct {
	dense *mat.Dense
	reg   *estimator.Regression
	ints  []int
}

func denseOutput(d *mat.Dense, err error) (output, error) {
	if err != nil {
		return output{}, err
	}
	if d == nil {
		d = &mat.Dense{}
	}
	return output{dense: d}, nil
}

func regressionOutput(reg estimator.Regression, err error) (output, error) {
	if err != nil {
		return output{}, err
	}
	return output{reg: &reg}, nil
}

func intOutput(v []int, err error) (output, error) {
	if err != nil {
		return output{}, err
	}
	if v == nil {
		v = []int{}
	}
	return output{ints: v}, nil
}

// resultShape is a result's dtype and shape.
type resultShape struct{ dtype, rows, cols int }

func (s resultShape) nbytes() int { return 8 * s.rows * s.cols }

func (o output) shape() resultShape {
	switch {
	case o.reg != nil:
		cols := 1
		if o.reg.Variance != nil {
			cols = 2
		}
		return resultShape{dtypeFloat64, len(o.reg.Mean), cols}
	case o.ints != nil:
		return resultShape{dtypeInt64, len(o.ints), 1}
	}
	if o.dense.IsEmpty() {
		return resultShape{dtype: dtypeFloat64}
	}
	r, c := o.dense.Dims()
	return resultShape{dtypeFloat64, r, c}
}

// writeTo writes the output row by row, as float64 or int64 (its shape),
// at dst, which holds shape().nbytes() bytes.
func (o output) writeTo(dst unsafe.Pointer) {
	s := o.shape()
	n := s.rows * s.cols
	if n == 0 {
		return
	}
	if s.dtype == dtypeInt64 {
		out := unsafe.Slice((*int64)(dst), n)
		for i, x := range o.ints {
			out[i] = int64(x)
		}
		return
	}
	out := unsafe.Slice((*float64)(dst), n)
	if o.reg != nil {
		for i, m := range o.reg.Mean {
			out[i*s.cols] = m
			if s.cols == 2 {
				out[i*s.cols+1] = o.reg.Variance[i]
			}
		}
		return
	}
	raw := o.dense.RawMatrix()
	if raw.Stride == s.cols {
		copy(out, raw.Data[:n])
		return
	}
	for i := range s.rows {
		copy(out[i*s.cols:(i+1)*s.cols], o.dense.RawRowView(i))
	}
}

// result copies the output into a new result.
func (o output) result() *result {
	s := o.shape()
	r := &result{rows: s.rows, cols: s.cols}
	if s.dtype == dtypeInt64 {
		r.i64 = make([]int64, s.rows*s.cols)
		if len(r.i64) > 0 {
			o.writeTo(unsafe.Pointer(&r.i64[0]))
		}
		return r
	}
	r.f64 = make([]float64, s.rows*s.cols)
	if len(r.f64) > 0 {
		o.writeTo(unsafe.Pointer(&r.f64[0]))
	}
	return r
}

// denseResult copies a matrix into a new result.
func denseResult(d *mat.Dense, err error) (*result, error) {
	o, err := denseOutput(d, err)
	if err != nil {
		return nil, err
	}
	return o.result(), nil
}

// calibrated is a classifier whose probabilities are calibrated and which
// has prediction sets (confidence.Classifier).
type calibrated interface {
	Calibration() *confidence.Calibration
}

// predictSets returns the conformal prediction set of every queried node,
// as an int64 result of one row per node and one column per class: the
// set's classes in decreasing probability, then −1. A node's set is drawn
// with its key: a fitted node's is its number, a new node's that of its id
// (keys, one per new node: savedmodel.NewNodeKey), as gssl predict and
// serve draw them.
func (e *modelEntry) predictSets(ctx context.Context, q predictQuery, keys []uint64) (*result, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	c, ok := e.m.(calibrated)
	if !ok {
		return nil, fmt.Errorf("%s has no prediction sets: they are a calibrated classifier's (%s)", e.kind, conformalKind)
	}
	cal := c.Calibration()
	if cal == nil {
		return nil, estimator.NotFitted(e.kind + ": prediction sets")
	}
	o, err := e.output(ctx, q)
	if err != nil {
		return nil, err
	}
	s := o.shape()
	if q.newNodes != nil && len(keys) != s.rows {
		return nil, fmt.Errorf("prediction sets: %d ids for %d new nodes", len(keys), s.rows)
	}
	out := &result{rows: s.rows, cols: s.cols, i64: make([]int64, s.rows*s.cols)}
	for i := range s.rows {
		key := uint64(i)
		if q.newNodes != nil {
			key = keys[i]
		}
		row := out.i64[i*s.cols : (i+1)*s.cols]
		for j := range row {
			row[j] = -1
		}
		for j, k := range cal.Conformal.Set(o.dense.RawRowView(i), confidence.Uniform(cal.Seed, key)) {
			row[j] = int64(k)
		}
	}
	return out, nil
}
