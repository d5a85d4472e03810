package stkr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// RegressorKind and ClassifierKind are the kinds of a Regressor and a
// Classifier in a modelfile container (one layout: a classifier's file
// holds its classes), and ModelVersion the newest layout this package
// reads and writes.
const (
	RegressorKind  = "stkr.Regressor"
	ClassifierKind = "stkr.Classifier"
	ModelVersion   = 1
)

// Classifier is STKR as a node classifier: the Regressor's estimator on
// one-hot targets, one output column per class, the class of a node its
// largest output. It embeds the Regressor for the hyperparameters and the
// fitted state they share; Fit, Predict, Validate, Clone and the file
// methods are its own (Go has one Fit per type: a regression takes
// []float64, a classification []int).
type Classifier struct {
	Regressor
	// Classes is the number of classes (one one-hot output column each);
	// 0 means 1 + the largest label. A class without a labelled node keeps
	// its column, so a model's classes stay those of its class names; at
	// most half of them may have no labelled node.
	Classes int
}

var (
	_ estimator.NodeClassifier = (*Classifier)(nil)
	_ estimator.NodeRegressor  = (*Regressor)(nil)
)

// Validate checks the hyperparameters.
func (c *Classifier) Validate() error {
	if err := c.Regressor.Validate(); err != nil {
		return err
	}
	if c.Classes < 0 {
		return fmt.Errorf("stkr: Classes=%d is invalid: it must be ≥ 0 (0 means 1 + the largest label)", c.Classes)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters (Eigen and
// Progress are shared).
func (c *Classifier) Clone() *Classifier {
	return &Classifier{Regressor: *c.Regressor.Clone(), Classes: c.Classes}
}

// Clone returns an unfitted copy with the same hyperparameters (Eigen and
// Progress are shared).
func (r *Regressor) Clone() *Regressor {
	return &Regressor{Transform: r.Transform, Beta: r.Beta, Solver: r.Solver, Tol: r.Tol, MaxIter: r.MaxIter, Restart: r.Restart,
		Iterations: r.Iterations, Eigen: r.Eigen, MaxMemory: r.MaxMemory, Progress: r.Progress, columnByColumn: r.columnByColumn}
}

// Kind returns ClassifierKind.
func (c *Classifier) Kind() string { return ClassifierKind }

// Kind returns RegressorKind.
func (r *Regressor) Kind() string { return RegressorKind }

// graphKernel returns the graph kernel of x.Graph (x.Features is not
// used: STKR's base kernel is the graph's; FeatureKernel with FitKernel
// uses features).
func graphKernel(x estimator.Nodes) (*GraphKernel, error) {
	if x.Graph == nil {
		return nil, errors.New("stkr: the graph is nil")
	}
	return NewGraphKernel(x.Graph)
}

// Fit fits the classifier on the graph kernel of x.Graph: labels has one
// entry per node, the class of a training node or −1 (FitKernel with
// NewGraphKernel(x.Graph)).
func (c *Classifier) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	k, err := graphKernel(x)
	if err != nil {
		return err
	}
	return c.FitKernel(ctx, k, labels)
}

// Predict returns the outputs of the queried nodes, one column per class
// (decision values: the class is the row's largest; ClassProbabilities
// turns a row into probabilities): the fitted nodes' for
// estimator.FittedNodes, or new nodes' from their edges to visible nodes
// (q.New; q.Features is not used) by the graph kernel's row
// k(x)_j = N·w(x, x_j)/√(d_x d_j). A new node without edges predicts zero.
func (c *Classifier) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if q.New == nil {
		return c.Scores()
	}
	return c.NewNodeScores(ctx, *q.New)
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (c *Classifier) Output() estimator.Output { return estimator.DecisionValues }

// Fit fits a regression on the graph kernel of x.Graph: y has one target
// per node, NaN for unknown (FitKernel with NewGraphKernel(x.Graph)).
func (r *Regressor) Fit(ctx context.Context, x estimator.Nodes, y []float64) error {
	if err := r.Validate(); err != nil {
		return err
	}
	k, err := graphKernel(x)
	if err != nil {
		return err
	}
	return r.FitKernel(ctx, k, y)
}

// Predict returns the regression of the queried nodes (Mean; STKR has no
// variance): the fitted nodes' for estimator.FittedNodes, or new nodes'
// from their edges to visible nodes (q.New), as Classifier.Predict. It
// needs a model of one output (Fit, FitKernel); a model of several
// (FitIndexed) gives its outputs through Scores and NewNodeScores.
func (r *Regressor) Predict(ctx context.Context, q estimator.NodeQuery) (estimator.Regression, error) {
	var f *mat.Dense
	var err error
	if q.New == nil {
		f, err = r.Scores()
	} else {
		f, err = r.NewNodeScores(ctx, *q.New)
	}
	if err != nil {
		return estimator.Regression{}, err
	}
	if f.IsEmpty() {
		return estimator.Regression{Mean: []float64{}}, nil
	}
	rows, c := f.Dims()
	if c != 1 {
		return estimator.Regression{}, fmt.Errorf("stkr: Regressor.Predict: the model has %d outputs (fitted by FitIndexed or as a classifier); use Scores or NewNodeScores", c)
	}
	mean := make([]float64, rows)
	for i := range mean {
		mean[i] = f.At(i, 0)
	}
	return estimator.Regression{Mean: mean}, nil
}

// fitTask remembers what the targets were: one-hot classes from Fit
// (Classes > 0, with the class frequencies of the labelled nodes for nodes
// without evidence, as Normalize), or anything else.
type fitTask struct {
	Classes int       `json:"classes"`
	Prior   []float64 `json:"prior,omitempty"`
}

// savedKernel is what a Regressor read from a file keeps instead of its
// kernel: the transductive predictions, and D^{-1/2} of the graph kernel
// for new nodes' kernel rows.
type savedKernel struct {
	pred     *mat.Dense
	invSqrtD []float64
	edges    int
}

// FitKernel fits the classifier on any base kernel: labels is one vector
// aligned with the kernel's nodes, labels[i] the class of node i or −1 when
// it is not a training node, and the targets are the one-hot classes (one
// output column per class). The number of classes is the hyperparameter
// Classes (0 means 1 + the largest label), so that classes without a
// labelled node keep their column. Any target matrix on a list of training
// nodes is FitIndexed.
//
// On a solver failure (no convergence, divergence, cancellation) the model
// keeps the best iterate found and the error is returned, wrapping the
// krylov error.
func (cl *Classifier) FitKernel(ctx context.Context, k BaseKernel, labels []int) error {
	if err := cl.Validate(); err != nil {
		return err
	}
	r := &cl.Regressor
	r.u = nil
	if k == nil {
		return errors.New("stkr: the kernel is nil")
	}
	if len(labels) != k.Dim() {
		return fmt.Errorf("stkr: %d labels for a kernel on %d nodes: give one per node, −1 for unlabelled", len(labels), k.Dim())
	}
	classes := cl.Classes
	var train []int
	c := classes
	for i, l := range labels {
		switch {
		case l >= 0:
			train = append(train, i)
			if classes == 0 {
				c = max(c, l+1)
			} else if l >= classes {
				return fmt.Errorf("stkr: labels[%d] = %d is invalid: Classes = %d, so a class is in [0, %d)", i, l, classes, classes)
			}
		case l != -1:
			return fmt.Errorf("stkr: labels[%d] = %d is invalid: a class is ≥ 0, and −1 marks an unlabelled node", i, l)
		}
	}
	if len(train) == 0 {
		return errors.New("stkr: no labelled node (every label is −1)")
	}
	// A class number is not a count: as Prepare, refuse more than twice as
	// many classes as distinct labels before sizing the one-hot block.
	seen := map[int]bool{}
	for _, i := range train {
		seen[labels[i]] = true
	}
	if c > 2*len(seen) {
		return fmt.Errorf("stkr: %d classes but the %d labelled nodes have %d distinct labels: at most half the classes may have no labelled node (number the classes 0..C−1)", c, len(train), len(seen))
	}
	y := mat.NewDense(len(train), c, nil)
	for t, i := range train {
		y.Set(t, labels[i], 1)
	}
	err := r.FitIndexed(ctx, k, train, y)
	if r.u != nil {
		r.task = fitTask{Classes: c, Prior: classPrior(labels, c)}
	}
	return err
}

// classPrior returns the class frequencies of the labelled entries of
// labels (uniform when there are none), computed as Normalize does.
func classPrior(labels []int, c int) []float64 {
	prior := make([]float64, c)
	total := 0.0
	for _, l := range labels {
		if l >= 0 && l < c {
			prior[l]++
			total++
		}
	}
	for k := range prior {
		if total > 0 {
			prior[k] /= total
		} else {
			prior[k] = 1 / float64(c)
		}
	}
	return prior
}

// normalizeRow sets dst to scores clipped at zero and scaled to sum 1, or
// to prior when no entry is positive (reported false): Normalize's rule for
// one row.
func normalizeRow(dst, scores, prior []float64) bool {
	sum := 0.0
	for k, v := range scores {
		dst[k] = 0
		if v > 0 {
			dst[k] = v
			sum += v
		}
	}
	if !(sum > 0) {
		copy(dst, prior)
		return false
	}
	for k := range dst {
		dst[k] /= sum
	}
	return true
}

// ClassProbabilities turns the scores of one node (a row of Predict or
// NewNodeScores) of a classifier into class probabilities by
// Normalize's rule: clipped at zero and scaled to sum 1, or the class
// frequencies of the labelled nodes when no score is positive (reached is
// then false). It returns nil for a model not fitted as a classifier.
func (r *Regressor) ClassProbabilities(scores []float64) (p []float64, reached bool) {
	if r.task.Classes == 0 || len(scores) != r.task.Classes {
		return nil, false
	}
	p = make([]float64, len(scores))
	return p, normalizeRow(p, scores, r.task.Prior)
}

// FitKernel fits a regression on any base kernel: targets is one vector
// aligned with the kernel's nodes, NaN for nodes without a target. The
// model has one output column.
func (r *Regressor) FitKernel(ctx context.Context, k BaseKernel, targets []float64) error {
	if err := r.Validate(); err != nil {
		return err
	}
	r.u = nil
	if k == nil {
		return errors.New("stkr: the kernel is nil")
	}
	if len(targets) != k.Dim() {
		return fmt.Errorf("stkr: %d targets for a kernel on %d nodes: give one per node, NaN for unknown", len(targets), k.Dim())
	}
	var (
		train []int
		y     []float64
	)
	for i, v := range targets {
		if math.IsNaN(v) {
			continue
		}
		if math.IsInf(v, 0) {
			return fmt.Errorf("stkr: targets[%d] = %v is not finite", i, v)
		}
		train, y = append(train, i), append(y, v)
	}
	if len(train) == 0 {
		return errors.New("stkr: no node has a target (every target is NaN)")
	}
	return r.FitIndexed(ctx, k, train, mat.NewDense(len(train), 1, y))
}

// FittedClasses returns the number of classes of a model fitted as a
// classifier (Classes, or 1 + the largest label when Classes is 0), 0 for
// a regression.
func (r *Regressor) FittedClasses() int { return r.task.Classes }

// Prior returns the class frequencies of the labelled nodes of a model
// fitted as a classifier (nil otherwise): the probabilities of a node without
// evidence.
func (r *Regressor) Prior() []float64 { return append([]float64(nil), r.task.Prior...) }

// Outputs returns the number of output columns c, 0 before Fit.
func (r *Regressor) Outputs() int {
	if r.u == nil {
		return 0
	}
	_, c := r.u.Dims()
	return c
}

// Nodes returns the number of visible nodes N, 0 before Fit.
func (r *Regressor) Nodes() int {
	if r.u == nil {
		return 0
	}
	n, _ := r.u.Dims()
	return n
}

// NewNodeScores returns the outputs of new nodes from their edges to
// visible nodes, one column per output (what both roles' Predict return
// for new nodes, for any number of outputs): row i is f(x_i) = k(x_i)ᵀU
// with the graph kernel's row k(x)_j = N·w(x, x_j)/√(d_x d_j)
// (GraphKernel.Row). It needs a GraphKernel (or a model read from a
// file); a node without edges predicts zero.
func (r *Regressor) NewNodeScores(ctx context.Context, nodes estimator.NewNodes) (*mat.Dense, error) {
	if r.u == nil {
		return nil, estimator.NotFitted("stkr: Predict")
	}
	n, c := r.u.Dims()
	if err := nodes.Check(n); err != nil {
		return nil, fmt.Errorf("stkr: Predict: %w", err)
	}
	inv, err := r.invSqrtD()
	if err != nil {
		return nil, err
	}
	if nodes.Len() == 0 {
		return &mat.Dense{}, nil
	}
	out := mat.NewDense(nodes.Len(), c, nil)
	for i := 0; i < nodes.Len(); i++ {
		if i%4096 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nb, w := nodes.Row(i)
		row := kernelRow(n, inv, nb, w)
		if err := r.PredictRow(out.RawRowView(i), row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// kernelRow is GraphKernel.Row on checked input.
func kernelRow(n int, inv []float64, nb []int32, weights []float64) KernelRow {
	var dx float64
	for t := range nb {
		if weights == nil {
			dx++
		} else {
			dx += weights[t]
		}
	}
	row := KernelRow{Index: make([]int, 0, len(nb)), Value: make([]float64, 0, len(nb))}
	if dx == 0 {
		return row
	}
	scale := float64(n) / math.Sqrt(dx)
	for t, j := range nb {
		w := 1.0
		if weights != nil {
			w = weights[t]
		}
		if w == 0 || inv[j] == 0 {
			continue
		}
		row.Index = append(row.Index, int(j))
		row.Value = append(row.Value, scale*w*inv[j])
	}
	return row
}

func (r *Regressor) invSqrtD() ([]float64, error) {
	if r.saved != nil {
		return r.saved.invSqrtD, nil
	}
	gk, ok := r.kernel.(*GraphKernel)
	if !ok {
		return nil, fmt.Errorf("stkr: new nodes need the graph kernel of their edges; this model's kernel is a %T (compute its KernelRow and use PredictRow)", r.kernel)
	}
	return gk.s.Degrees().InvSqrtD, nil
}

// regressorMeta is the model's metadata in a file.
type regressorMeta struct {
	Transform  transformJSON      `json:"transform"`
	Beta       float64            `json:"beta"`
	Solver     string             `json:"solver"`
	Tol        float64            `json:"tol"`
	MaxIter    int                `json:"max_iter"`
	Restart    int                `json:"restart"`
	Iterations int                `json:"iterations"`
	Nodes      int                `json:"nodes"`
	Outputs    int                `json:"outputs"`
	Train      int                `json:"train"` // rows of alpha; 0 for kernel PCA
	Task       fitTask            `json:"task"`
	Stats      statsJSON          `json:"stats"`
	Graph      modelfile.GraphRef `json:"graph"`
}

type transformJSON struct {
	Type   string    `json:"type"` // polynomial, inverse-laplacian, topd
	Coeffs []float64 `json:"coeffs,omitempty"`
	Eta    float64   `json:"eta,omitempty"`
	D      int       `json:"d,omitempty"`
}

type statsJSON struct {
	Solver     string `json:"solver"`
	Iterations []int  `json:"iterations"`
	MatVecs    int    `json:"matvecs"`
}

// regressorCodec stores a Regressor (kind RegressorKind): hyperparameters,
// U, α, the transductive predictions and the kernel's D^{-1/2}; not the
// graph. A model read back predicts bitwise the same (Scores, PredictRow,
// NewNodeScores). Only models on a GraphKernel (or read from a file) can
// be saved: an OperatorKernel's rows for new points are the caller's.
// Eigen and Progress are not stored; a model read keeps its own.
var regressorCodec = modelfile.Codec[Regressor, regressorMeta]{Kind: RegressorKind, Version: ModelVersion,
	Fitted: func(r *Regressor) bool { return r.u != nil },
	Put:    putRegressor,
	Get:    readRegressor,
}

// classifierCodec stores a Classifier in the Regressor's layout (kind
// ClassifierKind; the metadata holds the classes). It also reads a file
// of kind RegressorKind written by a Regressor fitted on classes.
var classifierCodec = modelfile.Codec[Classifier, regressorMeta]{Kind: ClassifierKind, Version: ModelVersion,
	Also:   []string{RegressorKind},
	Fitted: func(c *Classifier) bool { return c.u != nil },
	Put: func(c *Classifier, f *modelfile.File) (regressorMeta, error) {
		if c.task.Classes == 0 {
			return regressorMeta{}, errors.New("stkr: Classifier.MarshalBinary: the model was not fitted as a classifier (FitIndexed): save it as a Regressor")
		}
		return putRegressor(&c.Regressor, f)
	},
	Get: func(f *modelfile.File, meta regressorMeta, dst *Classifier) error {
		if err := readRegressor(f, meta, &dst.Regressor); err != nil {
			return err
		}
		if dst.task.Classes == 0 {
			return errors.New("the model file holds a regression (no classes): read it with a Regressor")
		}
		dst.Classes = dst.task.Classes
		return nil
	},
}

func putRegressor(r *Regressor, f *modelfile.File) (regressorMeta, error) {
	inv, err := r.invSqrtD()
	if err != nil {
		return regressorMeta{}, fmt.Errorf("stkr: MarshalBinary: %w", err)
	}
	var t transformJSON
	switch tr := r.Transform.(type) {
	case Polynomial:
		t = transformJSON{Type: "polynomial", Coeffs: tr.Coeffs}
	case InverseLaplacian:
		t = transformJSON{Type: "inverse-laplacian", Eta: tr.Eta}
	case TopD:
		t = transformJSON{Type: "topd", D: tr.D}
	default:
		return regressorMeta{}, fmt.Errorf("stkr: MarshalBinary: transform %T cannot be saved", r.Transform)
	}
	n, c := r.u.Dims()
	meta := regressorMeta{Transform: t, Beta: r.Beta, Solver: r.Solver.String(), Tol: r.Tol, MaxIter: r.MaxIter, Restart: r.Restart,
		Iterations: r.Iterations, Nodes: n, Outputs: c, Task: r.task,
		Stats: statsJSON{Solver: r.stats.Solver, Iterations: r.stats.Iterations, MatVecs: r.stats.MatVecs},
		Graph: modelfile.GraphRef{Nodes: n, Stored: true}}
	if gk, ok := r.kernel.(*GraphKernel); ok {
		meta.Graph.Edges = gk.Graph().Edges()
	} else if r.saved != nil {
		meta.Graph.Edges = r.saved.edges
	}
	pred, err := r.Scores()
	if err != nil {
		return regressorMeta{}, err
	}
	f.PutDense("u", r.u)
	f.PutDense("predictions", pred)
	f.PutFloat64s("inv_sqrt_degrees", inv)
	f.PutFloat64s("residual", r.stats.Residual)
	if r.alpha != nil {
		meta.Train, _ = r.alpha.Dims()
		f.PutDense("alpha", r.alpha)
	}
	return meta, nil
}

func readRegressor(f *modelfile.File, meta regressorMeta, dst *Regressor) error {
	out := Regressor{Beta: meta.Beta, Tol: meta.Tol, MaxIter: meta.MaxIter, Restart: meta.Restart, Iterations: meta.Iterations,
		Eigen: dst.Eigen, Progress: dst.Progress, task: meta.Task}
	switch meta.Transform.Type {
	case "polynomial":
		out.Transform = Polynomial{Coeffs: meta.Transform.Coeffs}
	case "inverse-laplacian":
		out.Transform = InverseLaplacian{Eta: meta.Transform.Eta}
	case "topd":
		out.Transform = TopD{D: meta.Transform.D}
	default:
		return fmt.Errorf("the model file's transform %q is not one this gssl knows", meta.Transform.Type)
	}
	var err error
	if out.Solver, err = ParseSolver(meta.Solver); err != nil {
		return fmt.Errorf("the model file's solver: %w", err)
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	if err := out.Transform.Validate(1); err != nil {
		return fmt.Errorf("the model file's transform: %w", err)
	}
	n, c := meta.Nodes, meta.Outputs
	if out.u, err = f.Dense("u", n, c); err != nil {
		return err
	}
	if meta.Task.Classes != 0 && (meta.Task.Classes != c || len(meta.Task.Prior) != c) {
		return fmt.Errorf("the model file's task (%d classes, %d prior frequencies) does not match its %d outputs", meta.Task.Classes, len(meta.Task.Prior), c)
	}
	if meta.Task.Classes == 0 && len(meta.Task.Prior) != 0 {
		return fmt.Errorf("the model file's task has a class prior and no classes")
	}
	if meta.Task.Classes != 0 {
		if err := modelfile.CheckDistributions(meta.Task.Prior, c, modelfile.SumTol); err != nil {
			return fmt.Errorf("model file: metadata task.prior (the class prior): %w", err)
		}
	}
	pred, err := f.Dense("predictions", n, c)
	if err != nil {
		return err
	}
	inv, err := f.Float64sLen("inv_sqrt_degrees", n)
	if err != nil {
		return err
	}
	for i, v := range inv {
		if !(v >= 0) {
			return fmt.Errorf("the model file's D^{-1/2} of node %d is %v", i, v)
		}
	}
	res, err := f.Float64sLen("residual", len(meta.Stats.Iterations))
	if err != nil {
		return err
	}
	if meta.Train > 0 {
		if meta.Train > n {
			return fmt.Errorf("the model file declares %d training nodes for %d nodes", meta.Train, n)
		}
		if out.alpha, err = f.Dense("alpha", meta.Train, c); err != nil {
			return err
		}
	}
	out.stats = Stats{Solver: meta.Stats.Solver, Iterations: meta.Stats.Iterations, Residual: res, MatVecs: meta.Stats.MatVecs}
	if meta.Graph.Nodes != n || meta.Graph.Edges < 0 {
		return fmt.Errorf("the model file's graph has %d nodes and %d edges, for %d fitted nodes", meta.Graph.Nodes, meta.Graph.Edges, n)
	}
	out.saved = &savedKernel{pred: pred, invSqrtD: inv, edges: meta.Graph.Edges}
	*dst = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// RegressorKind; see regressorCodec), for a caller that adds its own
// sections.
func (r *Regressor) ModelFile() (*modelfile.File, error) { return regressorCodec.File(r) }

// ReadModelFile replaces r by the model in f (see UnmarshalBinary).
func (r *Regressor) ReadModelFile(f *modelfile.File) error { return regressorCodec.Read(f, r) }

// MarshalBinary encodes the fitted model as a modelfile container (see
// regressorCodec).
func (r *Regressor) MarshalBinary() ([]byte, error) { return regressorCodec.Marshal(r) }

// UnmarshalBinary replaces r by the model encoded in data; Eigen and
// Progress are kept, so that refitting on the same targets gives the same
// model. On an error r is unchanged.
func (r *Regressor) UnmarshalBinary(data []byte) error { return regressorCodec.Unmarshal(data, r) }

// ModelFile returns the fitted classifier as a modelfile container of
// kind ClassifierKind (the Regressor's layout, with the classes).
func (c *Classifier) ModelFile() (*modelfile.File, error) { return classifierCodec.File(c) }

// ReadModelFile replaces c by the classifier in f (see UnmarshalBinary).
func (c *Classifier) ReadModelFile(f *modelfile.File) error { return classifierCodec.Read(f, c) }

// MarshalBinary encodes the fitted classifier (kind ClassifierKind).
func (c *Classifier) MarshalBinary() ([]byte, error) { return classifierCodec.Marshal(c) }

// UnmarshalBinary replaces c by the classifier encoded in data (a file of
// kind ClassifierKind, or of RegressorKind written by a Regressor fitted
// on classes); Classes is the fitted number of classes. On an error c is
// unchanged.
func (c *Classifier) UnmarshalBinary(data []byte) error { return classifierCodec.Unmarshal(data, c) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r Regressor) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("stkr: Regressor: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *Regressor) UnmarshalJSON([]byte) error {
	return fmt.Errorf("stkr: Regressor: %w", estimator.ErrJSON)
}

// Info reports the last fit under the names every gssl model uses: the
// most iterations of any output column, the largest final residual and the
// products with M (Stats has the per-column detail).
func (r *Regressor) Info() estimator.Info {
	info := estimator.Info{Products: r.stats.MatVecs}
	for _, it := range r.stats.Iterations {
		info.Iterations = max(info.Iterations, it)
	}
	for _, res := range r.stats.Residual {
		if res > info.Residual || math.IsNaN(res) {
			info.Residual = res
		}
	}
	return info
}

// Normalize turns STKR's scores (one row per node, one column per class,
// regressions on one-hot targets) into probabilities: each row clipped at
// zero and scaled to sum 1. A row with no positive entry gets the class
// frequencies of the labelled nodes of labels (negative = unlabelled). It
// returns the probabilities, their argmax (the smallest class on ties) and
// the number of rows without a positive entry.
func Normalize(scores *mat.Dense, labels []int) (*mat.Dense, []int, int) {
	n, c := scores.Dims()
	prior := classPrior(labels, c)
	p := mat.NewDense(n, c, nil)
	pred := make([]int, n)
	none := 0
	for i := 0; i < n; i++ {
		dst := p.RawRowView(i)
		if !normalizeRow(dst, scores.RawRowView(i), prior) {
			none++
		}
		best := 0
		for k, v := range dst {
			if v > dst[best] {
				best = k
			}
		}
		pred[i] = best
	}
	return p, pred, none
}
