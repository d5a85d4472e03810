package labelprop

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
)

// DefaultTol is the stopping tolerance used when Tol is 0: the relative
// residual ‖b − Ax‖₂/‖b‖₂ of each class's CG solve, or the relative change
// max|ΔF|/max|F| of the fixed-point iteration — the rules of the peer script
// shared/bench/peers/lp.py.
const DefaultTol = 1e-6

// DefaultMaxIter caps the Chebyshev and CG iterations of label spreading
// when MaxIter is 0: their own defaults (2·⌈acosh(1/Tol)/acosh(1/a)⌉ + 100
// and 2n + 100) are lowered to it. Chebyshev's bound reaches it only for a
// within about 4·10⁻⁶ of 1 (a = 0.9999 needs about 2 100 iterations at
// DefaultTol); a = 0.9999999999999999 would need 10⁹.
const DefaultMaxIter = 10000

// DefaultAlpha is a when Spreading.Alpha is 0, and the a gssl labelprop
// uses when --alpha auto cannot choose one (no class has two labels to
// cross-validate with): with one label per class on Cora it is the best
// value of AlphaGrid (gssl labelprop --split random:1 --seeds 5 --val 0
// --alpha A). Near 1 the scores tend to the degree profile and favour the
// class of the labelled node of largest degree.
const DefaultAlpha = 0.9

// defaultFixedPointIter is the fixed-point iteration cap when MaxIter is 0
// (the peer's cap). a = 0.99 needs about 1 000 sweeps at DefaultTol.
const defaultFixedPointIter = 100000

// ErrNotFitted is the cause of the error of every prediction before a
// successful Fit or UnmarshalBinary (errors.Is); it is estimator.ErrNotFitted.
var ErrNotFitted = estimator.ErrNotFitted

// IsolatedSeeds says what Fit does with a labelled node of degree zero,
// whose label cannot spread to any other node.
type IsolatedSeeds int

const (
	// IsolatedSeedError makes Fit fail, naming the node (the zero value):
	// such a label is usually a data error and is wasted.
	IsolatedSeedError IsolatedSeeds = iota
	// IsolatedSeedKeep lets the node keep its label; Details.IsolatedSeeds
	// counts such nodes. Random splits on graphs with isolated nodes need it.
	IsolatedSeedKeep
)

func (p IsolatedSeeds) String() string {
	switch p {
	case IsolatedSeedError:
		return "error"
	case IsolatedSeedKeep:
		return "keep"
	}
	return fmt.Sprintf("IsolatedSeeds(%d)", int(p))
}

// Details describes a finished fit: estimator.Info's counters and what is
// particular to label propagation.
type Details struct {
	// Iterations is the number of fixed-point sweeps, or the most CG
	// iterations any class needed.
	Iterations int
	// ClassIterations holds the CG iterations of each class (nil for the
	// fixed-point solver).
	ClassIterations []int
	// Residual is the largest final relative residual ‖b − Ax‖₂/‖b‖₂ over
	// the classes (CG), or the last relative change max|ΔF|/max|F| (fixed
	// point).
	Residual float64
	// Products counts sparse products with the graph; a product with an n×c
	// block counts once.
	Products int
	// Isolated counts unlabelled nodes of degree zero. They are part of
	// Unreached.
	Isolated int
	// Unreached counts unlabelled nodes with no path to a labelled node
	// (isolated nodes and components without a label). Their scores are zero
	// and they are given the class prior.
	Unreached int
	// IsolatedSeeds counts labelled nodes of degree zero (kept under
	// IsolatedSeedKeep).
	IsolatedSeeds int
	// Solver is the label spreading solver that ran (Auto resolved); the
	// zero value, Auto, for the harmonic function.
	Solver Solver
}

// NotConvergedError reports that the solver stopped at its iteration cap
// before reaching the tolerance. The model then holds the last iterate (for
// CG the best in the energy norm of the error; for the fixed point, a
// contraction, the closest to the solution). It is the shape every gssl
// model shares (Model "labelprop", Method the solver).
type NotConvergedError = estimator.NotConvergedError

func notConverged(method string, iterations int, residual, tol float64, err error) *NotConvergedError {
	return &NotConvergedError{Model: "labelprop", Method: method, Iterations: iterations, Residual: residual, Tol: tol, Hint: "raise MaxIter or Tol", Err: err}
}

// Prediction is the prediction for a node that was not in the graph at fit
// time, with what Predict's row leaves out (see NewNodeDetails).
type Prediction struct {
	// Scores is one propagation step from the fitted scores, before
	// class-mass normalisation.
	Scores []float64
	// Probabilities are the scores after class-mass normalisation (when the
	// model uses it), normalised to sum to 1; the class prior when no
	// neighbour carries label mass.
	Probabilities []float64
	// Label is the most probable class (the smallest on ties).
	Label int
	// Reached is false when the prior was used.
	Reached bool
}

// seeds is the validated labelled set.
type seeds struct {
	n, classes int
	nodes      []int
	class      []int32 // per node: its class, or −1 when unlabelled
	prior      []float64
	isolated   int // labelled nodes of degree 0
}

// newSeeds checks the labelled nodes against g. numClasses 0 means 1 + the
// largest class.
func newSeeds(g *graph.CSR, nodes, classes []int, numClasses int, policy IsolatedSeeds) (*seeds, error) {
	if g == nil || g.Nodes() == 0 {
		return nil, errors.New("labelprop: the graph has no nodes")
	}
	n := g.Nodes()
	if len(nodes) != len(classes) {
		return nil, fmt.Errorf("labelprop: %d labelled nodes but %d classes; nodes[k] has class classes[k]", len(nodes), len(classes))
	}
	if len(nodes) == 0 {
		return nil, errors.New("labelprop: no labelled node: label spreading needs at least one labelled node per class")
	}
	c := numClasses
	if c == 0 {
		for _, k := range classes {
			c = max(c, k+1)
		}
	}
	// Every class needs a labelled node, so c ≤ len(nodes): checked before
	// the prior and the n×c blocks are allocated from a class number.
	if c > len(nodes) {
		// Name the first class without a node, found without a table of c.
		seen := slices.Sorted(slices.Values(classes))
		missing := 0
		for _, k := range slices.Compact(seen) {
			if k == missing {
				missing++
			} else if k > missing {
				break
			}
		}
		return nil, fmt.Errorf("labelprop: class %d has no labelled node (Classes = %d, %d labelled nodes); every class needs at least one: number the classes 0..C−1", missing, c, len(nodes))
	}
	s := &seeds{n: n, classes: c, nodes: append([]int(nil), nodes...), class: make([]int32, n), prior: make([]float64, c)}
	for i := range s.class {
		s.class[i] = -1
	}
	where := make(map[int]int, len(nodes))
	for k, v := range nodes {
		if v < 0 || v >= n {
			return nil, fmt.Errorf("labelprop: labelled node nodes[%d] = %d is out of range [0, %d)", k, v, n)
		}
		if classes[k] < 0 || classes[k] >= c {
			return nil, fmt.Errorf("labelprop: node %d (classes[%d]) has class %d, outside [0, %d) (Classes = %d)", v, k, classes[k], c, c)
		}
		if j, dup := where[v]; dup {
			return nil, fmt.Errorf("labelprop: node %d is labelled twice (nodes[%d] and nodes[%d])", v, j, k)
		}
		where[v] = k
		if g.Degree(v) == 0 {
			if policy != IsolatedSeedKeep {
				return nil, fmt.Errorf("labelprop: labelled node %d (nodes[%d]) is isolated (degree 0), so its label cannot spread; remove it or set IsolatedSeeds to IsolatedSeedKeep", v, k)
			}
			s.isolated++
		}
		s.class[v] = int32(classes[k])
		s.prior[classes[k]]++
	}
	for k, cnt := range s.prior {
		if cnt == 0 {
			return nil, fmt.Errorf("labelprop: class %d has no labelled node (Classes = %d); every class needs at least one", k, c)
		}
		s.prior[k] = cnt / float64(len(nodes))
	}
	return s, nil
}

// reached marks the nodes whose connected component holds a labelled node
// (graph.CSR.Reachable: a search from the labelled nodes, which newSeeds
// has checked).
func (s *seeds) reached(g *graph.CSR) ([]bool, error) {
	out, err := g.Reachable(s.nodes)
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	return out, nil
}

// state is what a fit learns; both estimators embed it.
type state struct {
	fitted  bool
	g       *graph.CSR // nil for a model read by UnmarshalBinary
	degree  []float64  // the fitted degrees when g is nil
	reached []bool     // per node: a label reached it (else it has the prior)
	edges   int        // the fitted graph's edges when g is nil
	seeds   *seeds
	scores  *mat.Dense // F, n×c
	scale   []float64  // class-mass normalisation factors, nil when off
	labels  []int
	info    Details
}

// begin starts a fit: it clears the learned state, runs the estimator's
// Validate and checks the labelled nodes.
func (st *state) begin(ctx context.Context, validate func() error, g *graph.CSR, nodes, classes []int, numClasses int, policy IsolatedSeeds) (context.Context, *seeds, error) {
	*st = state{}
	if err := validate(); err != nil {
		return nil, nil, err
	}
	s, err := newSeeds(g, nodes, classes, numClasses, policy)
	if err != nil {
		return nil, nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return ctx, s, nil
}

// blockInfo reads the counters of a block CG solve.
func blockInfo(res krylov.BlockResult) Details {
	info := Details{ClassIterations: res.Iterations, Residual: res.MaxResidual(), Products: res.Products}
	for _, it := range res.Iterations {
		info.Iterations = max(info.Iterations, it)
	}
	return info
}

// finish derives the class-mass scales and labels from F. The
// probabilities are not stored: a row of them is a function of F's row,
// the scales and the prior (probabilityRow), formed when asked for.
func (st *state) finish(g *graph.CSR, s *seeds, reached []bool, f *mat.Dense, cmn bool, info Details) {
	n, c := f.Dims()
	for i := 0; i < n; i++ {
		if s.class[i] >= 0 {
			continue
		}
		if g.Degree(i) == 0 {
			info.Isolated++
		}
		if !reached[i] {
			info.Unreached++
		}
	}
	info.IsolatedSeeds = s.isolated
	*st = state{fitted: true, g: g, seeds: s, scores: f, reached: reached, info: info}
	if cmn {
		// Zhu, Ghahramani & Lafferty (2003) §4: scale class k so that its mass
		// over the unlabelled nodes is the labelled class frequency q_k.
		mass := make([]float64, c)
		for i := 0; i < n; i++ {
			if s.class[i] < 0 {
				for k, v := range f.RawRowView(i) {
					mass[k] += v
				}
			}
		}
		st.scale = make([]float64, c)
		for k := range mass {
			st.scale[k] = s.prior[k]
			if mass[k] > 0 {
				st.scale[k] /= mass[k]
			}
		}
	}
	st.setLabels()
}

// labelGrain is the number of rows per task of setLabels.
const labelGrain = 16384

// setLabels sets every node's label, the argmax of its row of
// probabilities (label), rows in parallel (each label its own row's).
func (st *state) setLabels() {
	n, c := st.scores.Dims()
	st.labels = make([]int, n)
	prior := argmax(st.seeds.prior)
	parallel.For(n, labelGrain, func(lo, hi int) {
		p := make([]float64, c)
		for i := lo; i < hi; i++ {
			st.labels[i] = st.label(p, i, prior)
		}
	})
}

// label returns argmax(probabilityRow(p, i)), prior being the prior's
// argmax, mostly without the divisions of normalise: a probability is a
// clipped score v_k over their sum s, and fl(v_k/s) does not decrease
// with v_k, so the first largest score has the first largest probability
// unless an earlier score rounds to the same quotient, which needs it
// within a few units of roundoff of the largest (v_k ≥ (1 − 2⁻⁴⁰)·max,
// or a largest score below 2⁻¹⁰⁰⁰, where the quotients are formed).
func (st *state) label(p []float64, i, prior int) int {
	if !st.reached[i] {
		return prior
	}
	if sum := st.clip(p, st.scores.RawRowView(i)); !(sum > 0) || math.IsInf(sum, 0) {
		return prior
	}
	best := argmax(p)
	top := p[best]
	if top < 0x1p-1000 || slices.ContainsFunc(p[:best], func(v float64) bool { return v >= top*(1-0x1p-40) }) {
		st.normalise(p, st.scores.RawRowView(i))
		return argmax(p)
	}
	return best
}

// probabilityRow writes node i's class probabilities into p (len c) and
// returns it: its row of F normalised (normalise) when a label reached
// it, the prior otherwise.
func (st *state) probabilityRow(p []float64, i int) []float64 {
	if st.reached[i] {
		st.normalise(p, st.scores.RawRowView(i))
	} else {
		copy(p, st.seeds.prior)
	}
	return p
}

// normalise sets p to the scores scaled by the class-mass factors, clipped
// at zero (solver rounding can leave tiny negatives) and normalised to sum
// 1; to the prior when nothing is left. It reports whether scores were used.
func (st *state) normalise(p, scores []float64) bool {
	sum := st.clip(p, scores)
	if !(sum > 0) || math.IsInf(sum, 0) {
		copy(p, st.seeds.prior)
		return false
	}
	for k := range p {
		p[k] /= sum
	}
	return true
}

// clip sets p to the scores scaled by the class-mass factors and clipped
// at zero, and returns their sum.
func (st *state) clip(p, scores []float64) float64 {
	var sum float64
	for k, v := range scores {
		if st.scale != nil {
			v *= st.scale[k]
		}
		p[k] = clipNegative(v)
		sum += p[k]
	}
	return sum
}

// clipNegative returns math.Max(v, 0) (v above zero, NaN for NaN, +0
// otherwise), inlined: setLabels calls it for every entry of F, and the
// call to math.Max's assembly cost more than the rest of the row.
func clipNegative(v float64) float64 {
	if v > 0 || v != v {
		return v
	}
	return 0
}

// predict turns the scores of a new node into a Prediction.
func (st *state) predict(scores []float64) Prediction {
	p := Prediction{Scores: scores, Probabilities: make([]float64, len(scores))}
	p.Reached = st.normalise(p.Probabilities, scores)
	p.Label = argmax(p.Probabilities)
	return p
}

// checkNew validates the edges of a new node and returns its weights and
// their sum d_x.
func (st *state) checkNew(nodes []int, weights []float64) (w []float64, dx float64, err error) {
	if !st.fitted {
		return nil, 0, estimator.NotFitted("labelprop: Predict")
	}
	if weights != nil && len(weights) != len(nodes) {
		return nil, 0, fmt.Errorf("labelprop: Predict: %d neighbours but %d weights", len(nodes), len(weights))
	}
	n := st.seeds.n
	w = make([]float64, len(nodes))
	for k, v := range nodes {
		if v < 0 || v >= n {
			return nil, 0, fmt.Errorf("labelprop: Predict: neighbour nodes[%d] = %d is out of range [0, %d)", k, v, n)
		}
		w[k] = 1
		if weights != nil {
			w[k] = weights[k]
		}
		if math.IsNaN(w[k]) || math.IsInf(w[k], 0) || w[k] < 0 {
			return nil, 0, fmt.Errorf("labelprop: Predict: weight %v of the edge to node %d (weights[%d]) must be finite and ≥ 0", w[k], v, k)
		}
		dx += w[k]
	}
	return w, dx, nil
}

// degreeOf returns the degree of fitted node j.
func (st *state) degreeOf(j int) float64 {
	if st.g != nil {
		return st.g.Degree(j)
	}
	return st.degree[j]
}

// Scores returns a copy of the n×c score matrix F (before class-mass
// normalisation), or nil before Fit.
func (st *state) Scores() *mat.Dense {
	if st.scores == nil {
		return nil
	}
	return mat.DenseCopyOf(st.scores)
}

// Probabilities returns a copy of the n×c class probabilities: the rows of F
// after class-mass normalisation (when used), clipped at zero and normalised
// to sum 1; the class prior (the frequencies of the labelled classes) for
// unreached nodes. It returns nil before Fit. The model does not keep
// them (8nc bytes): each call forms a new matrix from the scores;
// ProbabilityRow forms one row.
func (st *state) Probabilities() *mat.Dense {
	if st.scores == nil {
		return nil
	}
	n, c := st.scores.Dims()
	out := mat.NewDense(n, c, nil)
	for i := range n {
		st.probabilityRow(out.RawRowView(i), i)
	}
	return out
}

// ProbabilityRow writes the class probabilities of fitted node i (row i
// of Probabilities) into dst, which it returns: grown to the number of
// classes when shorter, nil before Fit. Writers of large fits stream the
// rows with it instead of holding the n×c matrix.
func (st *state) ProbabilityRow(dst []float64, i int) []float64 {
	if st.scores == nil {
		return nil
	}
	n, c := st.scores.Dims()
	if i < 0 || i >= n {
		panic(fmt.Sprintf("labelprop: ProbabilityRow: node %d is out of range [0, %d)", i, n))
	}
	if cap(dst) < c {
		dst = make([]float64, c)
	}
	return st.probabilityRow(dst[:c], i)
}

// Labels returns the predicted class of every node: the most probable one,
// the smallest on ties. It returns nil before Fit.
func (st *state) Labels() []int { return append([]int(nil), st.labels...) }

// FittedLabels returns Labels and the number of classes: the Argmax of
// Predict(FittedNodes) and its columns, without forming the n×c
// probabilities (eval scores a fit by it).
func (st *state) FittedLabels() ([]int, int) {
	if st.scores == nil {
		return nil, 0
	}
	_, c := st.scores.Dims()
	return st.Labels(), c
}

// Info describes the last fit: the iterations, the final residual and the
// products with the graph (the zero Info before Fit).
func (st *state) Info() estimator.Info {
	return estimator.Info{Iterations: st.info.Iterations, Residual: st.info.Residual, Products: st.info.Products}
}

// Details describes the last fit in full (see Details).
func (st *state) Details() Details {
	d := st.info
	d.ClassIterations = append([]int(nil), d.ClassIterations...)
	return d
}

// Prior returns the class frequencies among the labelled nodes of the last
// fit, or nil before Fit.
func (st *state) Prior() []float64 {
	if st.seeds == nil {
		return nil
	}
	return append([]float64(nil), st.seeds.prior...)
}

// argmax returns the index of the largest entry, the first on ties.
func argmax(v []float64) int {
	best := 0
	for k, x := range v {
		if x > v[best] {
			best = k
		}
	}
	return best
}

// Classifier is what both estimators provide beyond the node classifier
// role: the fit from a list of labelled nodes, the labels, probabilities and
// scores of every fitted node, the fit's details, and new nodes' details.
type Classifier interface {
	estimator.NodeClassifier
	estimator.Saver
	FitIndexed(ctx context.Context, g *graph.CSR, nodes, classes []int) error
	Labels() []int
	Probabilities() *mat.Dense
	ProbabilityRow(dst []float64, i int) []float64
	Scores() *mat.Dense
	Details() Details
	NewNodeDetails(ctx context.Context, nodes estimator.NewNodes) ([]Prediction, error)
}

var (
	_ Classifier                   = (*Spreading)(nil)
	_ Classifier                   = (*Harmonic)(nil)
	_ estimator.NodeClassifier     = (*Spreading)(nil)
	_ estimator.NodeClassifier     = (*Harmonic)(nil)
	_ estimator.Cloner[*Spreading] = (*Spreading)(nil)
	_ estimator.Cloner[*Harmonic]  = (*Harmonic)(nil)
)

// checkTol validates the shared solver settings.
func checkSolver(tol float64, maxIter int, classes int) error {
	if tol != 0 && !(tol > 0 && tol < 1) {
		return fmt.Errorf("labelprop: Tol = %v is invalid: it must be inside (0, 1), or 0 for the default %v", tol, DefaultTol)
	}
	if maxIter < 0 {
		return fmt.Errorf("labelprop: MaxIter = %d is invalid: it must be ≥ 0 (0 means the default)", maxIter)
	}
	if classes < 0 {
		return fmt.Errorf("labelprop: Classes = %d is invalid: it must be ≥ 0 (0 means 1 + the largest labelled class)", classes)
	}
	return nil
}

func checkIsolatedSeeds(p IsolatedSeeds) error {
	if p != IsolatedSeedError && p != IsolatedSeedKeep {
		return fmt.Errorf("labelprop: IsolatedSeeds = %d is invalid: use IsolatedSeedError or IsolatedSeedKeep", int(p))
	}
	return nil
}
