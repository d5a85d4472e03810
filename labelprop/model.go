package labelprop

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/modelfile"
)

// The kinds of the two models in a modelfile container, and the newest
// layout version of each that this package reads and writes.
//
// Spreading's layout 2 records Float32, Stop, LabelPatience and LabelTol,
// which layout 1 did not; a layout-1 file is still read, with those four
// at their zero values (the fitted state, and so every prediction, is the
// same in both layouts). Harmonic's layout is 1.
const (
	SpreadingKind    = "labelprop.Spreading"
	HarmonicKind     = "labelprop.Harmonic"
	SpreadingVersion = 2
	HarmonicVersion  = 1
)

// Kind returns SpreadingKind, the model's kind in a model file.
func (m *Spreading) Kind() string { return SpreadingKind }

// Kind returns HarmonicKind, the model's kind in a model file.
func (m *Harmonic) Kind() string { return HarmonicKind }

// Fit spreads the labels over x.Graph (x.Features is not used: label
// propagation sees the graph only): labels is one vector aligned with the
// nodes, labels[i] node i's class (0, 1, …) or −1 when it is unlabelled
// (the estimator contract's front door; see package estimator). It takes
// O((n + nnz)·c) time per iteration and O(n·c) memory beyond the graph.
//
// When the solver stops early (cancelled, or the iteration cap reached) the
// model holds the last iterate and Fit returns the error (a
// *NotConvergedError for the cap).
func (m *Spreading) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	nodes, classes, err := fromLabelVector(x.Graph, labels)
	if err != nil {
		return err
	}
	return m.FitIndexed(ctx, x.Graph, nodes, classes)
}

// Fit computes the harmonic function for labels, one vector aligned with
// the nodes of x.Graph, −1 for unlabelled (see Spreading.Fit). L_uu is
// never copied: it is applied as the subgraph induced by the unlabelled
// nodes, with the full-graph degrees on its diagonal, in one pass per block
// product (O(n + nnz) memory for the subgraph).
//
// When CG stops early (cancelled, or the iteration cap reached) the model
// holds the last iterate and Fit returns the error (a *NotConvergedError
// for the cap).
func (m *Harmonic) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	nodes, classes, err := fromLabelVector(x.Graph, labels)
	if err != nil {
		return err
	}
	return m.FitIndexed(ctx, x.Graph, nodes, classes)
}

func fromLabelVector(g *graph.CSR, labels []int) (nodes, classes []int, err error) {
	if g == nil {
		return nil, nil, errors.New("labelprop: the graph is nil")
	}
	if len(labels) != g.Nodes() {
		return nil, nil, fmt.Errorf("labelprop: %d labels for a graph of %d nodes: give one per node, −1 for unlabelled", len(labels), g.Nodes())
	}
	for i, c := range labels {
		switch {
		case c >= 0:
			nodes = append(nodes, i)
			classes = append(classes, c)
		case c != -1:
			return nil, nil, fmt.Errorf("labelprop: labels[%d] = %d is invalid: a class is ≥ 0, and −1 marks an unlabelled node", i, c)
		}
	}
	return nodes, classes, nil
}

// Predict returns the class probabilities of the queried nodes, one row per
// node and one column per class: of the fitted nodes for the zero query
// (estimator.FittedNodes: the rows of Probabilities), or of new nodes from
// their edges to fitted nodes (q.New), by one step of the spreading
// iteration from the fitted scores (see NewNodeDetails). q.Features is not
// used. It checks ctx every few thousand new nodes.
func (m *Spreading) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	return m.state.predictQuery(ctx, "Spreading", q, m.predictOne)
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Spreading) Output() estimator.Output { return estimator.Probabilities }

// Predict returns the class probabilities of the queried nodes: of the
// fitted nodes for the zero query, or of new nodes (q.New) by the weighted
// mean of their neighbours' fitted scores (see NewNodeDetails). q.Features
// is not used.
func (m *Harmonic) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	return m.state.predictQuery(ctx, "Harmonic", q, m.predictOne)
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Harmonic) Output() estimator.Output { return estimator.Probabilities }

// NewNodeDetails predicts new nodes from their edges to fitted nodes, as
// Predict does, with what Predict's rows leave out: each node's scores
// before normalisation and whether a label reached it (else it has the
// class prior).
//
// A new node x with edges w_xj to fitted nodes j gets one step of the
// spreading iteration from the fitted F:
//
//	f(x) = a Σ_j S(x, j) F_j,   S(x, j) = w_xj / √(d_x d_j),   d_x = Σ_j w_xj,
//
// with d_j the degree at fit time. This is an approximation: the new node
// does not change the degrees or the scores of the fitted nodes, as it would
// if the graph were refitted with it. For a node that was unlabelled at fit
// time, its own edges reproduce its fitted scores (to the solver tolerance).
// A node with no edge, or only edges to unreached or isolated nodes, gets
// the class prior.
func (m *Spreading) NewNodeDetails(ctx context.Context, nodes estimator.NewNodes) ([]Prediction, error) {
	return m.state.predictNodes(ctx, "Spreading", nodes, m.predictOne)
}

// NewNodeDetails predicts new nodes from their edges to fitted nodes, as
// Predict does, with their scores and whether a label reached them. A new
// node gets the weighted average of its neighbours' fitted scores (the
// harmonic property),
//
//	f(x) = Σ_j w_xj F_j / Σ_j w_xj,
//
// an approximation (the induction formula of Bengio, Delalleau & Le Roux,
// in Chapelle et al., "Semi-Supervised Learning", 2006, ch. 11): the new
// node does not change the scores of the fitted nodes, as it would if the
// graph were refitted with it. For a node that was unlabelled at fit time,
// its own edges reproduce its fitted scores (to the solver tolerance). A
// node with no edge, or only edges to unreached nodes, gets the class
// prior.
func (m *Harmonic) NewNodeDetails(ctx context.Context, nodes estimator.NewNodes) ([]Prediction, error) {
	return m.state.predictNodes(ctx, "Harmonic", nodes, m.predictOne)
}

// predictCheckEvery is how many new nodes are predicted between checks of
// the context.
const predictCheckEvery = 4096

// predictQuery is Predict for either model.
func (st *state) predictQuery(ctx context.Context, model string, q estimator.NodeQuery, one func([]int, []float64) (Prediction, error)) (*mat.Dense, error) {
	if !st.fitted {
		return nil, estimator.NotFitted("labelprop: " + model + ".Predict")
	}
	if q.New == nil {
		return st.Probabilities(), nil
	}
	pred, err := st.predictNodes(ctx, model, *q.New, one)
	if err != nil {
		return nil, err
	}
	if len(pred) == 0 {
		return &mat.Dense{}, nil // no new node: no row
	}
	out := mat.NewDense(len(pred), st.seeds.classes, nil)
	for i, p := range pred {
		out.SetRow(i, p.Probabilities)
	}
	return out, nil
}

func (st *state) predictNodes(ctx context.Context, model string, nodes estimator.NewNodes, one func([]int, []float64) (Prediction, error)) ([]Prediction, error) {
	if !st.fitted {
		return nil, estimator.NotFitted("labelprop: " + model + ".Predict")
	}
	if err := nodes.Check(st.seeds.n); err != nil {
		return nil, fmt.Errorf("labelprop: %s.Predict: %w", model, err)
	}
	out := make([]Prediction, nodes.Len())
	var idx []int
	for i := range out {
		if i%predictCheckEvery == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nb, w := nodes.Row(i)
		idx = idx[:0]
		for _, v := range nb {
			idx = append(idx, int(v))
		}
		p, err := one(idx, w)
		if err != nil {
			return nil, fmt.Errorf("labelprop: %s.Predict: new node %d: %w", model, i, err)
		}
		out[i] = p
	}
	return out, nil
}

// Nodes returns the number of fitted nodes, 0 before Fit.
func (st *state) Nodes() int {
	if st.seeds == nil {
		return 0
	}
	return st.seeds.n
}

// spreadingParams and harmonicParams are the hyperparameters as a model
// file stores them; enums by name.
type spreadingParams struct {
	Alpha                  float64 `json:"alpha"`
	Solver                 string  `json:"solver"`
	Tol                    float64 `json:"tol"`
	MaxIter                int     `json:"max_iter"`
	Classes                int     `json:"classes"`
	ClassMassNormalization bool    `json:"class_mass_normalization"`
	IsolatedSeeds          string  `json:"isolated_seeds"`
	Ordering               string  `json:"ordering"`
	// Layout 2.
	Float32       bool    `json:"float32"`
	Stop          string  `json:"stop"`
	LabelPatience int     `json:"label_patience"`
	LabelTol      float64 `json:"label_tol"`
}

type harmonicParams struct {
	Tol                    float64 `json:"tol"`
	MaxIter                int     `json:"max_iter"`
	Preconditioner         string  `json:"preconditioner"`
	Classes                int     `json:"classes"`
	ClassMassNormalization bool    `json:"class_mass_normalization"`
	IsolatedSeeds          string  `json:"isolated_seeds"`
	Ordering               string  `json:"ordering"`
}

// fitMeta is the learned state's description; the arrays are sections.
type fitMeta[P any] struct {
	Hyperparameters P `json:"hyperparameters"`
	stateMeta
}

// stateMeta is the shared learned state's part of the metadata.
type stateMeta struct {
	Nodes     int                `json:"nodes"`
	Classes   int                `json:"classes"`
	Info      info               `json:"info"`
	ClassMass bool               `json:"class_mass"` // a "scale" section is present
	Graph     modelfile.GraphRef `json:"graph"`
}

// info is Info without Residual, which may not be finite and is stored as
// a section.
type info struct {
	Iterations      int   `json:"iterations"`
	ClassIterations []int `json:"class_iterations,omitempty"`
	Products        int   `json:"products"`
	Isolated        int   `json:"isolated"`
	Unreached       int   `json:"unreached"`
	IsolatedSeeds   int   `json:"isolated_seeds"`
	// Solver is Info.Solver by name; absent (the harmonic function, or a
	// file written before it was recorded) means Auto.
	Solver string `json:"solver,omitempty"`
}

func parseEnum[T fmt.Stringer](field, s string, vals ...T) (T, error) {
	for _, v := range vals {
		if v.String() == s {
			return v, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("labelprop: the model file's %s %q is not one this gssl knows", field, s)
}

// spreadingCodec stores a Spreading (kind SpreadingKind, layout
// SpreadingVersion): hyperparameters, the scores F, the degrees, the class
// prior (a distribution, checked on reading) and scales and the labels it was fitted with; not the graph, which
// prediction does not need. Progress and WarmStart (which changes the
// iterations, not the answer) are not stored: a model read keeps its
// Progress and has no WarmStart. A layout-1 file reads with Float32, Stop,
// LabelPatience and LabelTol zero.
var spreadingCodec = modelfile.Codec[Spreading, fitMeta[spreadingParams]]{Kind: SpreadingKind, Version: SpreadingVersion,
	Fitted: func(m *Spreading) bool { return m.state.fitted },
	Put: func(m *Spreading, f *modelfile.File) (fitMeta[spreadingParams], error) {
		st := m.state.put(f)
		deg := m.state.degree
		if m.state.g != nil {
			deg = m.state.g.Degrees()
		}
		f.PutFloat64s("degrees", deg)
		return fitMeta[spreadingParams]{Hyperparameters: spreadingParams{Alpha: m.Alpha, Solver: m.Solver.String(), Tol: m.Tol,
			MaxIter: m.MaxIter, Classes: m.Classes, ClassMassNormalization: m.ClassMassNormalization,
			IsolatedSeeds: m.IsolatedSeeds.String(), Ordering: m.Ordering.String(),
			Float32: m.Float32, Stop: m.Stop.String(), LabelPatience: m.LabelPatience, LabelTol: m.LabelTol}, stateMeta: st}, nil
	},
	Get: readSpreading,
}

func readSpreading(f *modelfile.File, meta fitMeta[spreadingParams], dst *Spreading) error {
	h := meta.Hyperparameters
	if f.KindVersion < 2 {
		// Layout 1 had no field for these: present, they are not a
		// layout-1 writer's.
		if h.Float32 || h.Stop != "" || h.LabelPatience != 0 || h.LabelTol != 0 {
			return errors.New("the model file has layout 1 but records the layout-2 hyperparameters float32, stop, label_patience or label_tol")
		}
		h.Stop = StopResidual.String()
	}
	var (
		out = Spreading{Alpha: h.Alpha, Tol: h.Tol, MaxIter: h.MaxIter, Classes: h.Classes, ClassMassNormalization: h.ClassMassNormalization,
			Float32: h.Float32, LabelPatience: h.LabelPatience, LabelTol: h.LabelTol, Progress: dst.Progress}
		err error
	)
	if out.Stop, err = parseEnum("stop", h.Stop, StopResidual, StopLabels); err != nil {
		return err
	}
	if out.Solver, err = parseEnum("solver", h.Solver, Auto, Chebyshev, CG, FixedPoint); err != nil {
		return err
	}
	if out.IsolatedSeeds, err = parseEnum("isolated_seeds", h.IsolatedSeeds, IsolatedSeedError, IsolatedSeedKeep); err != nil {
		return err
	}
	if out.Ordering, err = parseEnum("ordering", h.Ordering, NaturalOrdering, ReverseCuthillMcKee); err != nil {
		return err
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	deg, err := f.Float64sLen("degrees", meta.Nodes)
	if err != nil {
		return err
	}
	for i, d := range deg {
		if !(d >= 0) {
			return fmt.Errorf("the model file's degree of node %d is %v; it must be finite and ≥ 0", i, d)
		}
	}
	if err := out.state.read(f, meta.stateMeta); err != nil {
		return err
	}
	out.state.degree = deg
	*dst = out
	return nil
}

// harmonicCodec stores a Harmonic (kind HarmonicKind): hyperparameters,
// the scores F, the class prior and scales and the labels it was fitted
// with; not the graph. Progress is not stored.
var harmonicCodec = modelfile.Codec[Harmonic, fitMeta[harmonicParams]]{Kind: HarmonicKind, Version: HarmonicVersion,
	Fitted: func(m *Harmonic) bool { return m.state.fitted },
	Put: func(m *Harmonic, f *modelfile.File) (fitMeta[harmonicParams], error) {
		st := m.state.put(f)
		return fitMeta[harmonicParams]{Hyperparameters: harmonicParams{Tol: m.Tol, MaxIter: m.MaxIter, Preconditioner: m.Preconditioner.String(),
			Classes: m.Classes, ClassMassNormalization: m.ClassMassNormalization, IsolatedSeeds: m.IsolatedSeeds.String(),
			Ordering: m.Ordering.String()}, stateMeta: st}, nil
	},
	Get: readHarmonic,
}

func readHarmonic(f *modelfile.File, meta fitMeta[harmonicParams], dst *Harmonic) error {
	h := meta.Hyperparameters
	var (
		out = Harmonic{Tol: h.Tol, MaxIter: h.MaxIter, Classes: h.Classes, ClassMassNormalization: h.ClassMassNormalization, Progress: dst.Progress}
		err error
	)
	if out.Preconditioner, err = parseEnum("preconditioner", h.Preconditioner, Jacobi, NoPreconditioner); err != nil {
		return err
	}
	if out.IsolatedSeeds, err = parseEnum("isolated_seeds", h.IsolatedSeeds, IsolatedSeedError, IsolatedSeedKeep); err != nil {
		return err
	}
	if out.Ordering, err = parseEnum("ordering", h.Ordering, NaturalOrdering, ReverseCuthillMcKee); err != nil {
		return err
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	if err := out.state.read(f, meta.stateMeta); err != nil {
		return err
	}
	*dst = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// SpreadingKind), for a caller that adds its own sections (node ids, class
// names) before writing it. The sections share memory with the model.
func (m *Spreading) ModelFile() (*modelfile.File, error) { return spreadingCodec.File(m) }

// ReadModelFile replaces m by the model in f (see UnmarshalBinary).
func (m *Spreading) ReadModelFile(f *modelfile.File) error { return spreadingCodec.Read(f, m) }

// MarshalBinary encodes the fitted model as a modelfile container (see
// spreadingCodec for what it holds).
func (m *Spreading) MarshalBinary() ([]byte, error) { return spreadingCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model encoded in data (MarshalBinary).
// Predictions of the result are bitwise those of the model that was saved.
// Progress is kept; WarmStart is nil. On an error m is unchanged.
func (m *Spreading) UnmarshalBinary(data []byte) error { return spreadingCodec.Unmarshal(data, m) }

// ModelFile returns the fitted model as a modelfile container (kind
// HarmonicKind); see Spreading.ModelFile.
func (m *Harmonic) ModelFile() (*modelfile.File, error) { return harmonicCodec.File(m) }

// ReadModelFile replaces m by the model in f (see UnmarshalBinary).
func (m *Harmonic) ReadModelFile(f *modelfile.File) error { return harmonicCodec.Read(f, m) }

// MarshalBinary encodes the fitted model as a modelfile container (see
// harmonicCodec).
func (m *Harmonic) MarshalBinary() ([]byte, error) { return harmonicCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model encoded in data (MarshalBinary);
// predictions are bitwise those of the saved model. On an error m is
// unchanged.
func (m *Harmonic) UnmarshalBinary(data []byte) error { return harmonicCodec.Unmarshal(data, m) }

// put adds the shared learned state's sections to f and returns its part
// of the metadata.
func (st *state) put(f *modelfile.File) stateMeta {
	n, c := st.scores.Dims()
	f.PutDense("scores", st.scores)
	f.PutFloat64s("prior", st.seeds.prior)
	if st.scale != nil {
		f.PutFloat64s("scale", st.scale)
	}
	f.PutInt32s("labels", st.seeds.class)
	reached := make([]byte, n)
	for i := 0; i < n; i++ {
		if st.reachedAt(i) {
			reached[i] = 1
		}
	}
	f.PutBytes("reached", reached)
	f.PutFloat64s("residual", []float64{st.info.Residual})
	in := info{Iterations: st.info.Iterations, ClassIterations: st.info.ClassIterations, Products: st.info.Products,
		Isolated: st.info.Isolated, Unreached: st.info.Unreached, IsolatedSeeds: st.info.IsolatedSeeds}
	if st.info.Solver != Auto {
		in.Solver = st.info.Solver.String()
	}
	edges := st.edges
	if st.g != nil {
		edges = st.g.Edges()
	}
	return stateMeta{Nodes: n, Classes: c, Info: in, ClassMass: st.scale != nil, Graph: modelfile.GraphRef{Nodes: n, Edges: edges, Stored: true}}
}

// reachedAt reports whether fitted node i was reached by a label: its
// probabilities are its normalised scores rather than the prior.
func (st *state) reachedAt(i int) bool {
	if st.reached != nil {
		return st.reached[i]
	}
	return true
}

// read restores the shared learned state from f, checking every array
// against the sizes meta declares.
func (st *state) read(f *modelfile.File, meta stateMeta) error {
	n, c, in, g := meta.Nodes, meta.Classes, meta.Info, meta.Graph
	scores, err := f.Dense("scores", n, c)
	if err != nil {
		return err
	}
	prior, err := f.Distribution("prior", c)
	if err != nil {
		return err
	}
	var scale []float64
	if meta.ClassMass {
		if scale, err = f.Float64sLen("scale", c); err != nil {
			return err
		}
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return err
	}
	class, err := f.Int32s("labels")
	if err != nil {
		return err
	}
	if len(class) != n {
		return fmt.Errorf("the model file has %d labels for %d nodes", len(class), n)
	}
	reachedBytes, err := f.Bytes("reached")
	if err != nil {
		return err
	}
	if len(reachedBytes) != n {
		return fmt.Errorf("the model file has %d reached flags for %d nodes", len(reachedBytes), n)
	}
	s := &seeds{n: n, classes: c, class: class, prior: prior, isolated: in.IsolatedSeeds}
	for i, k := range class {
		if k < -1 || int(k) >= c {
			return fmt.Errorf("the model file's label of node %d is %d, outside −1..%d", i, k, c-1)
		}
		if k >= 0 {
			s.nodes = append(s.nodes, i)
		}
	}
	reached := make([]bool, n)
	for i, b := range reachedBytes {
		if b > 1 {
			return fmt.Errorf("the model file's reached flag of node %d is %d", i, b)
		}
		reached[i] = b == 1
	}
	if g.Nodes != n || g.Edges < 0 {
		return fmt.Errorf("the model file's graph has %d nodes and %d edges, for %d fitted nodes", g.Nodes, g.Edges, n)
	}
	ran := Auto
	if in.Solver != "" {
		if ran, err = parseEnum("info's solver", in.Solver, Chebyshev, CG, FixedPoint); err != nil {
			return err
		}
	}
	*st = state{fitted: true, seeds: s, scores: scores, scale: scale, reached: reached, edges: g.Edges,
		info: Details{Iterations: in.Iterations, ClassIterations: in.ClassIterations, Residual: res[0], Products: in.Products,
			Isolated: in.Isolated, Unreached: in.Unreached, IsolatedSeeds: in.IsolatedSeeds, Solver: ran}}
	st.setLabels()
	return nil
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m Spreading) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("labelprop: Spreading: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *Spreading) UnmarshalJSON([]byte) error {
	return fmt.Errorf("labelprop: Spreading: %w", estimator.ErrJSON)
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m Harmonic) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("labelprop: Harmonic: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *Harmonic) UnmarshalJSON([]byte) error {
	return fmt.Errorf("labelprop: Harmonic: %w", estimator.ErrJSON)
}
