package savedmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/serve"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
	"github.com/gssl/gssl/svm"
)

// Context is the data set's side of a saved model.
type Context struct {
	// IDs are the fitted nodes' ids; nil means 0..n−1.
	IDs *nodeids.Map `json:"-"`
	// ClassNames[c] is class c's name as the user's labels file wrote it;
	// nil or "" means the class number.
	ClassNames []string `json:"class_names,omitempty"`
	// Data names the data the model was fitted on (a hint for gssl model
	// info; e.g. the edges file).
	Data string `json:"data,omitempty"`
	// GraphSHA256 is the hex SHA-256 of the graph file, when the graph came
	// from one file (modelfile.FileSHA256).
	GraphSHA256 string `json:"graph_sha256,omitempty"`
	// TargetMean and TargetScale undo a standardisation of regression
	// targets: a prediction m of the model is TargetMean + TargetScale·m in
	// the user's units, its variance TargetScale²·v. TargetScale 0 means no
	// standardisation.
	TargetMean  float64 `json:"target_mean,omitempty"`
	TargetScale float64 `json:"target_scale,omitempty"`
	// Points, for a label-propagation or STKR model fitted on the
	// K-nearest-neighbour graph of points, are the fitted nodes' points and
	// the graph's weighting, kept so that new points are predicted
	// (sections data.knn.*).
	Points *Points `json:"-"`
	// Calibration, for a classifier, maps its scores to calibrated
	// probabilities and prediction sets (sections calibration.*).
	Calibration *confidence.Calibration `json:"-"`
}

// Model is a fitted model that writes itself into a container.
type Model interface {
	ModelFile() (*modelfile.File, error)
}

// File returns m's container with c added.
func File(m Model, c Context) (*modelfile.File, error) {
	f, err := m.ModelFile()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("savedmodel: %w", err)
	}
	f.PutBytes("data.json", b)
	if c.Points != nil {
		nm, ok := m.(interface{ Nodes() int })
		if !ok || !pointsKind(f.Kind) {
			return nil, fmt.Errorf("savedmodel: a %s model cannot predict new points through a K-nearest-neighbour graph (label propagation and STKR can)", f.Kind)
		}
		if err := putPoints(f, c.Points, nm.Nodes()); err != nil {
			return nil, err
		}
	}
	if c.Calibration != nil {
		if err := c.Calibration.Put(f); err != nil {
			return nil, fmt.Errorf("savedmodel: %w", err)
		}
	}
	if c.IDs != nil && !c.IDs.IsIdentity() {
		if c.IDs.IsText() {
			f.PutStrings("data.ids", c.IDs.Strings())
		} else {
			f.PutInt64s("data.int_ids", c.IDs.Ints())
		}
	}
	return f, nil
}

// Save writes m with c to path, atomically.
func Save(path string, m Model, c Context) error {
	f, err := File(m, c)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return modelfile.WriteFile(path, f)
}

// Kinds lists the model kinds Open reads: those with a backend of their
// own, then those it opens by their role (roles.go).
func Kinds() []string {
	return append(ownKinds(), roleKinds()...)
}

// ownKinds lists the kinds with a backend of their own.
func ownKinds() []string {
	return []string{labelprop.SpreadingKind, labelprop.HarmonicKind, stkr.RegressorKind, stkr.ClassifierKind, gp.RegressorKind,
		krr.ExactKind, krr.NystromKind, krr.FalkonKind, krr.RandomFeaturesKind, imgp.RegressorKind, svm.PointSVCKind, spectral.SpectralClusteringKind,
		nodeclass.SGCKind, nodeclass.APPNPKind, nodeclass.CorrectSmoothKind, nodeclass.SepGNNKind, nodeclass.LINKXKind,
		nodeclass.ChannelMLPKind, nodeclass.APPNPNetKind, linbp.PropagationKind,
		graphkernels.WLClassifierKind}
}

// KeepsPoints reports whether m, fitted on the K-nearest-neighbour graph of
// points, can keep them in its file (Context.Points) to predict new points
// through that graph: label propagation and STKR, which predict new nodes
// from their edges. Other models take a new point's features themselves.
func KeepsPoints(m Model) bool {
	k, ok := m.(interface{ Kind() string })
	return ok && pointsKind(k.Kind())
}

// pointsKind reports whether a model of this kind may keep the points of
// its K-nearest-neighbour graph (Context.Points).
func pointsKind(kind string) bool {
	switch kind {
	case labelprop.SpreadingKind, labelprop.HarmonicKind, stkr.RegressorKind, stkr.ClassifierKind:
		return true
	}
	return false
}

// Saved is an opened model file: the model, its context and its metadata.
// It is safe for concurrent use (it is never modified after Open).
type Saved struct {
	file    *modelfile.File
	ctx     Context
	ids     *nodeids.Map
	classes []string // every class's display name; nil for regression
	meta    serve.Metadata
	b       backend
	cal     *confidence.Calibration
}

// backend is one model family behind Saved.
type backend interface {
	nodes() int    // fitted nodes; 0 for models of points
	features() int // a point's dimension; 0 for models of graphs
	classes() int  // 0 for regression
	// predictNodes and fitted return predictions with Label holding the
	// class number in decimal (Saved names it).
	predictNodes(ctx context.Context, nn estimator.NewNodes) ([]serve.Prediction, error)
	fitted() []serve.Prediction
}

var _ serve.Predictor = (*Saved)(nil)

// Open reads the model file at path; errors name the path.
func Open(path string) (*Saved, error) {
	f, err := modelfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Decode builds the model in f: the model of f's kind from package
// persist's registry reads its sections, and the backend of its family
// (backendOf) answers for it.
func Decode(f *modelfile.File) (*Saved, error) {
	s := &Saved{file: f}
	if err := s.readData(); err != nil {
		return nil, err
	}
	if !slices.Contains(Kinds(), f.Kind) {
		return nil, unknownKind(f)
	}
	m, err := persist.New(f.Kind)
	if err != nil {
		return nil, err
	}
	if err := m.ReadModelFile(f); err != nil {
		return nil, err
	}
	if s.b, err = backendOf(m, s.ctx); err != nil {
		return nil, err
	}
	if err := s.readKNNPoints(); err != nil {
		return nil, err
	}
	if err := s.readContext(); err != nil {
		return nil, err
	}
	if err := s.readCalibration(); err != nil {
		return nil, err
	}
	s.describe()
	return s, nil
}

// readData decodes the optional section data.json into s.ctx, strictly.
func (s *Saved) readData() error {
	if !s.file.Has("data.json") {
		return nil
	}
	b, err := s.file.Bytes("data.json")
	if err != nil {
		return fmt.Errorf("savedmodel: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s.ctx); err != nil {
		return fmt.Errorf("savedmodel: section data.json: %w", err)
	}
	return nil
}

// unknownKind is the error for a file whose kind this gssl does not read.
func unknownKind(f *modelfile.File) error {
	return fmt.Errorf("savedmodel: %w: the file holds a %q model, and this gssl reads %s", modelfile.ErrKind, f.Kind, strings.Join(Kinds(), ", "))
}

// backendOf returns the backend that answers for m, a model read from a
// file: the families with a backend of their own (ownKinds), then any other
// by its estimator role (roleBackend).
func backendOf(m persist.Model, ctx Context) (backend, error) {
	switch m := m.(type) {
	case *krr.Exact, *krr.Nystrom, *krr.Falkon, *krr.RandomFeatures:
		k := m.(krrModel)
		return newKRRBackend(k, k.Features(), k.Outputs(), ctx), nil
	case *labelprop.Spreading:
		return lpBackend{m: m, p: m.Probabilities()}, nil
	case *labelprop.Harmonic:
		return lpBackend{m: m, p: m.Probabilities()}, nil
	case *gp.Regressor:
		return gpBackend{m: m}, nil
	case *imgp.Regressor:
		return imgpBackend{m: m}, nil
	case *spectral.SpectralClustering:
		return clusterBackend{m: m}, nil
	case *svm.PointSVC:
		return svmBackend{m: m}, nil
	case *nodeclass.SGC, *nodeclass.APPNP, *nodeclass.CorrectSmooth, *nodeclass.SepGNN, *nodeclass.LINKX,
		*nodeclass.ChannelMLP, *nodeclass.APPNPNet, *linbp.Propagation:
		return newNodeclassBackend(m.(nodeclassModel))
	case *graphkernels.WLClassifier:
		return wlBackend{m: m}, nil
	case *stkr.Regressor:
		return newSTKRBackend(m)
	case *stkr.Classifier:
		return newSTKRBackend(&m.Regressor)
	}
	if b, ok := roleBackend(m); ok {
		return b, nil
	}
	return nil, fmt.Errorf("savedmodel: no backend answers for a %T", m)
}

// newSTKRBackend answers from the fitted scores of an STKR model.
func newSTKRBackend(m *stkr.Regressor) (backend, error) {
	pred, err := m.Scores()
	if err != nil {
		return nil, err
	}
	return stkrBackend{m: m, f: pred}, nil
}

// readKNNPoints reads the optional section data.knn.json: the points of
// the K-nearest-neighbour graph a graph model was fitted on.
func (s *Saved) readKNNPoints() error {
	f := s.file
	if !f.Has("data.knn.json") {
		return nil
	}
	if !pointsKind(f.Kind) {
		return fmt.Errorf("savedmodel: section data.knn.json in a %s model, which predicts no points", f.Kind)
	}
	p, err := readPoints(f, s.b.nodes())
	if err != nil {
		return err
	}
	s.b, s.ctx.Points = knnBackend{backend: s.b, p: p}, p
	return nil
}

// describe sets the metadata that gssl serve and model info report.
func (s *Saved) describe() {
	f := s.file
	var meta struct {
		Hyperparameters json.RawMessage `json:"hyperparameters"`
	}
	// The model has decoded the metadata strictly; here only one field.
	_ = json.Unmarshal(f.Metadata, &meta)
	hyper := meta.Hyperparameters
	if hyper == nil {
		hyper = f.Metadata
	}
	task := serve.Classification
	if s.classes == nil {
		task = serve.Regression
	}
	s.meta = serve.Metadata{Kind: f.Kind, Task: task, Classes: s.classes, Nodes: s.b.nodes(), Features: s.b.features(),
		NodeFeatures: nodeFeatures(s.b), Hyperparameters: hyper, Writer: f.Writer}
	if s.cal != nil {
		s.meta.ConformalAlpha = s.cal.Conformal.Alpha
	}
	s.graphMetadata()
	for i := 0; i < min(s.b.nodes(), 3); i++ {
		s.meta.ExampleIDs = append(s.meta.ExampleIDs, s.ids.ID(i))
	}
}

// lpBackend is a label-propagation model.
type lpBackend struct {
	m interface {
		NewNodeDetails(ctx context.Context, nodes estimator.NewNodes) ([]labelprop.Prediction, error)
		Labels() []int
		Nodes() int
		Prior() []float64
	}
	p interface{ RawRowView(i int) []float64 }
}

func (b lpBackend) nodes() int    { return b.m.Nodes() }
func (b lpBackend) features() int { return 0 }
func (b lpBackend) classes() int  { return len(b.m.Prior()) }

func (b lpBackend) predictNodes(ctx context.Context, nn estimator.NewNodes) ([]serve.Prediction, error) {
	pred, err := b.m.NewNodeDetails(ctx, nn)
	if err != nil {
		return nil, err
	}
	out := make([]serve.Prediction, len(pred))
	for i, p := range pred {
		out[i] = serve.Prediction{Label: strconv.Itoa(p.Label), Probabilities: p.Probabilities, Prior: !p.Reached}
	}
	return out, nil
}

func (b lpBackend) fitted() []serve.Prediction {
	labels := b.m.Labels()
	out := make([]serve.Prediction, len(labels))
	for i := range out {
		out[i] = serve.Prediction{Label: strconv.Itoa(labels[i]), Probabilities: slices.Clone(b.p.RawRowView(i))}
	}
	return out
}

// stkrBackend is an STKR model: a classifier on one-hot targets
// (probabilities by stkr.Normalize's rule, and the raw scores) or a
// regression.
type stkrBackend struct {
	m *stkr.Regressor
	f interface{ RawRowView(i int) []float64 }
}

func (b stkrBackend) nodes() int    { return b.m.Nodes() }
func (b stkrBackend) features() int { return 0 }
func (b stkrBackend) classes() int  { return b.m.FittedClasses() }

func (b stkrBackend) one(scores []float64) serve.Prediction {
	scores = slices.Clone(scores)
	if b.m.FittedClasses() == 0 {
		if len(scores) == 1 {
			return serve.Prediction{Mean: &scores[0]}
		}
		return serve.Prediction{Scores: scores}
	}
	p, reached := b.m.ClassProbabilities(scores)
	best := 0
	for k, v := range p {
		if v > p[best] {
			best = k
		}
	}
	return serve.Prediction{Label: strconv.Itoa(best), Probabilities: p, Scores: scores, Prior: !reached}
}

func (b stkrBackend) predictNodes(ctx context.Context, nn estimator.NewNodes) ([]serve.Prediction, error) {
	f, err := b.m.NewNodeScores(ctx, nn)
	if err != nil {
		return nil, err
	}
	out := make([]serve.Prediction, nn.Len())
	for i := range out {
		out[i] = b.one(f.RawRowView(i))
	}
	return out, nil
}

func (b stkrBackend) fitted() []serve.Prediction {
	out := make([]serve.Prediction, b.m.Nodes())
	for i := range out {
		out[i] = b.one(b.f.RawRowView(i))
	}
	return out
}

func (s *Saved) readContext() error {
	f := s.file
	n := s.b.nodes()
	s.ids = nodeids.Identity(n)
	switch {
	case f.Has("data.ids"):
		v, err := f.Strings("data.ids")
		if err != nil {
			return fmt.Errorf("savedmodel: %w", err)
		}
		if s.ids, err = nodeids.FromStrings(v); err != nil {
			return fmt.Errorf("savedmodel: section data.ids: %w", err)
		}
	case f.Has("data.int_ids"):
		v, err := f.Int64s("data.int_ids")
		if err != nil {
			return fmt.Errorf("savedmodel: %w", err)
		}
		if s.ids, err = nodeids.FromInts(v); err != nil {
			return fmt.Errorf("savedmodel: section data.int_ids: %w", err)
		}
	}
	if s.ids.Len() != n {
		return fmt.Errorf("savedmodel: the file has %d node ids for a model of %d nodes", s.ids.Len(), n)
	}
	s.ctx.IDs = s.ids
	c := s.b.classes()
	if sc := s.ctx.TargetScale; math.IsNaN(sc) || math.IsInf(sc, 0) || sc < 0 || math.IsNaN(s.ctx.TargetMean) || math.IsInf(s.ctx.TargetMean, 0) {
		return fmt.Errorf("savedmodel: section data.json: target mean %v and scale %v must be finite (scale ≥ 0)", s.ctx.TargetMean, sc)
	}
	if len(s.ctx.ClassNames) > c {
		return fmt.Errorf("savedmodel: the file has %d class names for a model of %d classes", len(s.ctx.ClassNames), c)
	}
	if c > 0 {
		s.classes = make([]string, c)
	}
	for c := range s.classes {
		s.classes[c] = strconv.Itoa(c)
		if c < len(s.ctx.ClassNames) && s.ctx.ClassNames[c] != "" {
			s.classes[c] = s.ctx.ClassNames[c]
		}
	}
	return nil
}

// Metadata describes the model (serve.Predictor).
func (s *Saved) Metadata() serve.Metadata {
	m := s.meta
	m.Classes = slices.Clone(m.Classes)
	m.ExampleIDs = slices.Clone(m.ExampleIDs)
	return m
}

// File returns the model file (not to be modified).
func (s *Saved) File() *modelfile.File { return s.file }

// Context returns the data set's side of the file.
func (s *Saved) Context() Context { return s.ctx }

// IDs returns the fitted nodes' ids.
func (s *Saved) IDs() *nodeids.Map { return s.ids }

// ClassNames returns every class's display name (its number when the file
// has no name for it).
func (s *Saved) ClassNames() []string { return slices.Clone(s.classes) }

// PredictNodes predicts new nodes from their edges to fitted nodes named by
// id; an unknown id is a *serve.InputError naming the edge.
func (s *Saved) PredictNodes(ctx context.Context, nodes []serve.NewNode) ([]serve.Prediction, error) {
	if _, ok := s.b.(graphModel); ok {
		return nil, s.graphsOnly("nodes")
	}
	if s.b.nodes() == 0 {
		return nil, &serve.InputError{Field: "nodes", Msg: fmt.Sprintf("a %s model predicts points from their features (%d each), not nodes: send \"points\"", s.file.Kind, s.b.features())}
	}
	nn, err := s.newNodes(nodes)
	if err != nil {
		return nil, err
	}
	pred, err := s.predictNodes(ctx, nodes, nn)
	if err != nil {
		return nil, err
	}
	for i := range pred {
		pred[i].ID = nodes[i].ID
		if err := s.calibrate(&pred[i], idKey(nodes[i].ID)); err != nil {
			return nil, err
		}
		s.name(&pred[i])
	}
	return pred, nil
}

// newNodes maps the edges of new nodes to fitted node indices; an unknown
// id is a *serve.InputError naming the edge.
func (s *Saved) newNodes(nodes []serve.NewNode) (estimator.NewNodes, error) {
	nn := estimator.NewNodes{Offsets: make([]int, 1, len(nodes)+1)}
	for i, n := range nodes {
		for k, e := range n.Edges {
			j, ok := s.ids.Lookup(e.To)
			if !ok {
				return nn, &serve.InputError{Field: fmt.Sprintf("nodes[%d].edges[%d].to", i, k), Msg: fmt.Sprintf("unknown node id %q: the model was fitted on %d nodes (ids like %s)", e.To, s.b.nodes(), strings.Join(s.meta.ExampleIDs, ", "))}
			}
			nn.Nodes = append(nn.Nodes, int32(j))
			nn.Weights = append(nn.Weights, e.Weight)
		}
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	return nn, nil
}

// gpBackend is a Gaussian-process regression of points.
type gpBackend struct{ m *gp.Regressor }

func (b gpBackend) nodes() int    { return 0 }
func (b gpBackend) features() int { return b.m.Features() }
func (b gpBackend) classes() int  { return 0 }
func (b gpBackend) fitted() []serve.Prediction {
	x := b.m.TrainingPoints()
	n, _ := x.Dims()
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = x.RawRowView(i)
	}
	out, err := b.predictPoints(context.Background(), pts)
	if err != nil {
		return nil // the training points always have the model's dimension
	}
	return out
}
func (b gpBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of points has no fitted nodes")
}

// krrBackend is a kernel ridge regression of points: one output is a
// regression, several with as many class names a classifier on one-hot
// targets (the largest score wins), otherwise a multi-output regression.
type krrBackend struct {
	m interface {
		PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
	}
	d, c     int
	classify bool
}

// krrModel is what the four kernel ridge models share for Open.
type krrModel interface {
	ReadModelFile(f *modelfile.File) error
	Features() int
	Outputs() int
	PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
}

func newKRRBackend(m interface {
	PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
}, d, c int, ctx Context) krrBackend {
	return krrBackend{m: m, d: d, c: c, classify: c > 1 && len(ctx.ClassNames) == c}
}

func (b krrBackend) nodes() int    { return 0 }
func (b krrBackend) features() int { return b.d }
func (b krrBackend) classes() int {
	if b.classify {
		return b.c
	}
	return 0
}
func (b krrBackend) fitted() []serve.Prediction { return nil }
func (b krrBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of points has no fitted nodes")
}

func (b krrBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data := make([]float64, 0, len(points)*b.d)
	for _, p := range points {
		data = append(data, p...)
	}
	f, err := b.m.PredictTargets(ctx, mat.NewDense(len(points), b.d, data))
	if err != nil {
		return nil, err
	}
	out := make([]serve.Prediction, len(points))
	for i := range out {
		row := slices.Clone(f.RawRowView(i))
		switch {
		case b.classify:
			best := 0
			for k, v := range row {
				if v > row[best] {
					best = k
				}
			}
			out[i] = serve.Prediction{Label: strconv.Itoa(best), Scores: row}
		case b.c == 1:
			out[i] = serve.Prediction{Mean: &row[0]}
		default:
			out[i] = serve.Prediction{Scores: row}
		}
	}
	return out, nil
}

// pointModel is a backend that predicts points.
type pointModel interface {
	predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error)
}

func (b gpBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	return regressionPoints(ctx, b.m, b.m.Features(), points)
}

// regressionPoints predicts points with a point regressor: the mean and
// the latent variance of each.
func regressionPoints(ctx context.Context, m estimator.PointRegressor, d int, points [][]float64) ([]serve.Prediction, error) {
	if len(points) == 0 {
		return nil, errors.New("no points")
	}
	data := make([]float64, 0, len(points)*d)
	for _, p := range points {
		data = append(data, p...)
	}
	r, err := m.Predict(ctx, mat.NewDense(len(points), d, data))
	if err != nil {
		return nil, err
	}
	return regressionPredictions(r), nil
}

func regressionPredictions(r estimator.Regression) []serve.Prediction {
	out := make([]serve.Prediction, len(r.Mean))
	for i := range out {
		out[i] = serve.Prediction{Mean: &r.Mean[i], Variance: &r.Variance[i]}
	}
	return out
}

// name replaces a class number by the class's name, and puts regression
// outputs in the user's units.
func (s *Saved) name(p *serve.Prediction) {
	if sc := s.ctx.TargetScale; sc != 0 {
		if p.Mean != nil {
			m := s.ctx.TargetMean + sc**p.Mean
			p.Mean = &m
		}
		if p.Variance != nil {
			v := sc * sc * *p.Variance
			p.Variance = &v
		}
	}
	if p.Label == "" {
		return
	}
	c, _ := strconv.Atoi(p.Label)
	p.Label = s.classes[c]
}

// PredictPoints predicts points from their features (models of points);
// a point of the wrong dimension is a *serve.InputError naming it, and a
// model of a graph refuses points.
func (s *Saved) PredictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	pm, ok := s.b.(pointModel)
	if _, graphs := s.b.(graphModel); graphs {
		return nil, s.graphsOnly("points")
	}
	if !ok {
		return nil, &serve.InputError{Field: "points", Msg: fmt.Sprintf("a %s model predicts new nodes from their edges to fitted nodes, not points: send \"nodes\"", s.file.Kind)}
	}
	d := s.b.features()
	for i, p := range points {
		if len(p) != d {
			return nil, &serve.InputError{Field: fmt.Sprintf("points[%d]", i), Msg: fmt.Sprintf("%d features, the model was fitted on points of %d", len(p), d)}
		}
		for k, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &serve.InputError{Field: fmt.Sprintf("points[%d][%d]", i, k), Msg: fmt.Sprintf("%v is not a finite number", v)}
			}
		}
	}
	pred, err := pm.predictPoints(ctx, points)
	if err != nil {
		return nil, err
	}
	for i := range pred {
		if err := s.calibrate(&pred[i], pointKey(points[i])); err != nil {
			return nil, err
		}
		s.name(&pred[i])
	}
	return pred, nil
}

// PredictFitted returns the model's prediction for every fitted node, in
// node order, with the node's id; for a model of points, for its training
// points, numbered from 0; for a model of graphs, for its training graphs,
// numbered from 1 (their numbers in the TU files, as gssl graphkernel
// --out numbers them).
func (s *Saved) PredictFitted() []serve.Prediction {
	out := s.b.fitted()
	_, graphs := s.b.(graphModel)
	for i := range out {
		switch {
		case graphs:
			out[i].ID = strconv.Itoa(i + 1)
		case s.b.nodes() == 0:
			out[i].ID = strconv.Itoa(i)
		default:
			out[i].ID = s.ids.ID(i)
		}
		// A read model's fitted scores are finite: no error here.
		_ = s.calibrate(&out[i], uint64(i))
		s.name(&out[i])
	}
	return out
}

// imgpBackend is an implicit-manifold GP regression of points: the fitted
// points are its graph nodes, and new points are predicted from their
// features (the model finds their neighbours among the fitted points).
type imgpBackend struct{ m *imgp.Regressor }

func (b imgpBackend) nodes() int    { return 0 }
func (b imgpBackend) features() int { return b.m.Features() }
func (b imgpBackend) classes() int  { return 0 }
func (b imgpBackend) fitted() []serve.Prediction {
	r, err := b.m.Predict(context.Background(), nil)
	if err != nil {
		return nil // a read model is fitted
	}
	return regressionPredictions(r)
}
func (b imgpBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of points has no fitted nodes")
}

func (b imgpBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	return regressionPoints(ctx, b.m, b.m.Features(), points)
}

// svmBackend is a C-SVM on points: the predicted class and, as scores, the
// decision value of every one-vs-one machine, in the order (0,1), (0,2), …
type svmBackend struct{ m *svm.PointSVC }

func (b svmBackend) nodes() int    { return 0 }
func (b svmBackend) features() int { return b.m.Features() }
func (b svmBackend) classes() int {
	c := b.m.Classes()
	return c[len(c)-1] + 1
}
func (b svmBackend) fitted() []serve.Prediction { return nil }
func (b svmBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of points has no fitted nodes")
}

func (b svmBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(points) == 0 {
		return nil, nil
	}
	d := b.m.Features()
	data := make([]float64, 0, len(points)*d)
	for _, p := range points {
		data = append(data, p...)
	}
	x := mat.NewDense(len(points), d, data)
	dec, err := b.m.Decision(x)
	if err != nil {
		return nil, err
	}
	votes, err := b.m.Predict(ctx, x)
	if err != nil {
		return nil, err
	}
	pred := estimator.Argmax(votes)
	out := make([]serve.Prediction, len(points))
	for i := range out {
		out[i] = serve.Prediction{Label: strconv.Itoa(pred[i]), Scores: slices.Clone(dec.RawRowView(i))}
	}
	return out, nil
}

// clusterBackend is a spectral clustering: the "class" of a node is its
// cluster (named by its number), without probabilities.
type clusterBackend struct{ m *spectral.SpectralClustering }

func (b clusterBackend) nodes() int    { return b.m.Nodes() }
func (b clusterBackend) features() int { return 0 }
func (b clusterBackend) classes() int  { return b.m.Clusters }
func (b clusterBackend) fitted() []serve.Prediction {
	labels := b.m.Labels()
	out := make([]serve.Prediction, len(labels))
	for i, c := range labels {
		out[i] = serve.Prediction{Label: strconv.Itoa(c)}
	}
	return out
}

func (b clusterBackend) predictNodes(ctx context.Context, nn estimator.NewNodes) ([]serve.Prediction, error) {
	labels, err := b.m.Predict(ctx, estimator.NodeQuery{New: &nn})
	if err != nil {
		return nil, err
	}
	out := make([]serve.Prediction, len(labels))
	for i, c := range labels {
		out[i] = serve.Prediction{Label: strconv.Itoa(c)}
	}
	return out, nil
}

// NodeContext is the context of a model fitted on ds, read from data: its
// ids and class names, the calibration cal and, when edges names the
// graph's file, that file's SHA-256.
func NodeContext(ds *loaders.NodeDataset, data, edges string, cal *confidence.Calibration) (Context, error) {
	c := Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: data, Calibration: cal}
	if edges != "" {
		var err error
		if c.GraphSHA256, err = modelfile.FileSHA256(edges); err != nil {
			return c, fmt.Errorf("hashing the graph file: %w", err)
		}
	}
	return c, nil
}
