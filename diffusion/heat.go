package diffusion

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/modelfile"
)

// HeatClassifierKind is the kind of a fitted HeatClassifier in a
// modelfile container, and ModelVersion the newest layout of it this
// package reads and writes.
const (
	HeatClassifierKind = "diffusion.HeatClassifier"
	ModelVersion       = 1
)

// DefaultTime is the diffusion time t when HeatClassifier.Time is 0, and
// MaxTime the largest accepted (the number of terms grows like t).
const (
	DefaultTime = 5.0
	MaxTime     = 1000.0
)

// HeatClassifier is heat-diffusion node classification (see the package
// documentation): an estimator.NodeClassifier of the graph alone (node
// features are ignored) whose Predict returns the diffused label mass of
// every class.
type HeatClassifier struct {
	// Time is the diffusion time t, in (0, MaxTime]; 0 means DefaultTime.
	Time float64
	// Classes is the number of classes C; 0 means 1 + the largest label.
	Classes int

	scores *mat.Dense // n × C, F
	prior  []float64  // mean row of F, for new nodes without edges
	terms  int        // Chebyshev terms after the first
}

var _ estimator.NodeClassifier = (*HeatClassifier)(nil)

// Validate checks Time and Classes.
func (h *HeatClassifier) Validate() error {
	if !(h.Time >= 0 && h.Time <= MaxTime) {
		return fmt.Errorf("diffusion: HeatClassifier.Time = %v is invalid: it must be in (0, %v], or 0 for DefaultTime (%v)", h.Time, MaxTime, DefaultTime)
	}
	if h.Classes < 0 {
		return fmt.Errorf("diffusion: HeatClassifier.Classes = %d is invalid: it must be ≥ 1 (0 means 1 + the largest label)", h.Classes)
	}
	return nil
}

func (h *HeatClassifier) time() float64 {
	if h.Time == 0 {
		return DefaultTime
	}
	return h.Time
}

// Fit diffuses the labels (one per node, −1 for unknown) over the graph.
func (h *HeatClassifier) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := h.Validate(); err != nil {
		return err
	}
	g := x.Graph
	if g == nil || g.Nodes() == 0 {
		return errors.New("diffusion: HeatClassifier: no graph")
	}
	n := g.Nodes()
	if len(labels) != n {
		return fmt.Errorf("diffusion: HeatClassifier: %d labels for %d nodes: give one per node, −1 for unknown", len(labels), n)
	}
	classes, known := h.Classes, 0
	for i, l := range labels {
		switch {
		case l < -1 || (h.Classes > 0 && l >= h.Classes):
			return fmt.Errorf("diffusion: HeatClassifier: label %d of node %d is invalid: it must be −1 (unknown) or a class in [0, %d)", l, i, max(classes, l+1))
		case l >= 0:
			known++
			if h.Classes == 0 {
				classes = max(classes, l+1)
			}
		}
	}
	if known == 0 {
		return errors.New("diffusion: HeatClassifier: no node is labelled")
	}
	y := mat.NewDense(n, classes, nil)
	for i, l := range labels {
		if l >= 0 {
			y.Set(i, l, 1)
		}
	}
	f, terms, err := heat(ctx, g, y, h.time())
	if err != nil {
		return err
	}
	h.scores, h.terms, h.prior = f, terms, meanRow(f)
	return nil
}

// heat returns exp(−t·L)·y and the number of Chebyshev terms after the
// first (see the package documentation).
func heat(ctx context.Context, g *graph.CSR, y *mat.Dense, t float64) (*mat.Dense, int, error) {
	n, c := y.Dims()
	right := make([]float64, n)
	left := make([]float64, n)
	for i := range right {
		if d := g.Degree(i); d > 0 {
			right[i] = 1 / math.Sqrt(d)
			left[i] = -right[i]
		}
	}
	s := graph.Scaling{Left: left, Right: right} // −S = −D^{−1/2} W D^{−1/2}
	coef := chebyshev(t)
	f := mat.NewDense(n, c, nil)
	f.Scale(coef[0], y)
	prev, cur, next := mat.NewDense(n, c, nil), mat.DenseCopyOf(y), mat.NewDense(n, c, nil)
	for k := 1; k < len(coef); k++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if k == 1 {
			g.ChebyshevStepTo(next, cur, nil, s, 1) // T_1 = −S·T_0
		} else {
			g.ChebyshevStepTo(next, cur, prev, s, 2) // T_{k+1} = −2S·T_k − T_{k−1}
		}
		prev, cur, next = cur, next, prev
		addScaled(f, coef[k], cur)
	}
	return f, len(coef) - 1, nil
}

// addScaled sets f += a·x.
func addScaled(f *mat.Dense, a float64, x *mat.Dense) {
	n, _ := f.Dims()
	for i := 0; i < n; i++ {
		fr, xr := f.RawRowView(i), x.RawRowView(i)
		for j, v := range xr {
			fr[j] += a * v
		}
	}
}

// chebyshev returns the Chebyshev coefficients of λ ↦ exp(−tλ) on [0, 2]
// in the variable λ − 1, c_0 halved so that the series is Σ c_k T_k, by
// interpolation at N Chebyshev nodes (N well above the terms that matter,
// so aliasing is below rounding), cut at the first coefficient at most
// 2⁻⁵² of the largest.
func chebyshev(t float64) []float64 {
	nodes := 2 * (int(math.Ceil(t)) + 10*int(math.Ceil(math.Sqrt(t))) + 40)
	f := make([]float64, nodes)
	theta := make([]float64, nodes)
	for j := range f {
		theta[j] = math.Pi * (float64(j) + 0.5) / float64(nodes)
		f[j] = math.Exp(-t * (math.Cos(theta[j]) + 1))
	}
	c := make([]float64, nodes)
	big := 0.0
	for k := range c {
		sum := 0.0
		for j, v := range f {
			sum += v * math.Cos(float64(k)*theta[j])
		}
		c[k] = 2 * sum / float64(nodes)
		big = max(big, math.Abs(c[k]))
	}
	c[0] /= 2
	// |c_k| = 2e^{−t}I_k(t) falls with k; past the cut the computed values
	// are rounding noise.
	for k := 1; k < len(c); k++ {
		if math.Abs(c[k]) <= 0x1p-52*big {
			return c[:k]
		}
	}
	return c
}

// meanRow returns the mean of the rows of f.
func meanRow(f *mat.Dense) []float64 {
	n, c := f.Dims()
	out := make([]float64, c)
	for i := 0; i < n; i++ {
		for j, v := range f.RawRowView(i) {
			out[j] += v
		}
	}
	for j := range out {
		out[j] /= float64(n)
	}
	return out
}

// Predict returns the scores of the fitted nodes (the zero query) or of
// new nodes given by their edges to fitted nodes, one column per class.
func (h *HeatClassifier) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if h.scores == nil {
		return nil, estimator.NotFitted("diffusion: HeatClassifier")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if q.New == nil {
		return mat.DenseCopyOf(h.scores), nil
	}
	n, c := h.scores.Dims()
	if err := q.New.Check(n); err != nil {
		return nil, fmt.Errorf("diffusion: HeatClassifier: %w", err)
	}
	if q.New.Len() == 0 {
		return nil, errors.New("diffusion: HeatClassifier: no new nodes")
	}
	out := mat.NewDense(q.New.Len(), c, nil)
	for i := 0; i < q.New.Len(); i++ {
		nodes, weights := q.New.Row(i)
		row := out.RawRowView(i)
		total := 0.0
		for k, j := range nodes {
			w := 1.0
			if weights != nil {
				w = weights[k]
			}
			total += w
			for cl, v := range h.scores.RawRowView(int(j)) {
				row[cl] += w * v
			}
		}
		if !(total > 0) || math.IsInf(total, 0) {
			copy(row, h.prior)
			continue
		}
		for cl := range row {
			row[cl] /= total
		}
	}
	return out, nil
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (h *HeatClassifier) Output() estimator.Output { return estimator.DecisionValues }

// Nodes returns the number of fitted nodes, 0 before Fit.
func (h *HeatClassifier) Nodes() int {
	if h.scores == nil {
		return 0
	}
	n, _ := h.scores.Dims()
	return n
}

// Outputs returns the number of classes (Predict's columns), 0 before Fit.
func (h *HeatClassifier) Outputs() int {
	if h.scores == nil {
		return 0
	}
	_, c := h.scores.Dims()
	return c
}

// Info reports the Chebyshev terms after the first as Iterations and
// Products (one block product with the graph each).
func (h *HeatClassifier) Info() estimator.Info {
	return estimator.Info{Iterations: h.terms, Products: h.terms}
}

// Kind returns HeatClassifierKind.
func (h *HeatClassifier) Kind() string { return HeatClassifierKind }

// Clone returns an unfitted copy of h.
func (h *HeatClassifier) Clone() *HeatClassifier {
	return &HeatClassifier{Time: h.Time, Classes: h.Classes}
}

type heatMeta struct {
	Time    float64 `json:"time"`
	Classes int     `json:"classes"`
	Nodes   int     `json:"nodes"`
	Columns int     `json:"columns"`
	Terms   int     `json:"terms"`
}

// heatCodec stores a HeatClassifier: its settings and the scores F of the
// fitted nodes (new nodes need nothing else).
var heatCodec = modelfile.Codec[HeatClassifier, heatMeta]{Kind: HeatClassifierKind, Version: ModelVersion,
	Fitted: func(h *HeatClassifier) bool { return h.scores != nil },
	Put: func(h *HeatClassifier, f *modelfile.File) (heatMeta, error) {
		f.PutDense("scores", h.scores)
		return heatMeta{Time: h.Time, Classes: h.Classes, Nodes: h.Nodes(), Columns: h.Outputs(), Terms: h.terms}, nil
	},
	Get: func(f *modelfile.File, m heatMeta, dst *HeatClassifier) error {
		out := HeatClassifier{Time: m.Time, Classes: m.Classes, terms: m.Terms}
		if err := out.Validate(); err != nil {
			return fmt.Errorf("the model file's settings: %w", err)
		}
		if m.Terms < 0 || (m.Classes != 0 && m.Classes != m.Columns) {
			return fmt.Errorf("the model file declares %d terms and %d classes for %d columns", m.Terms, m.Classes, m.Columns)
		}
		s, err := f.Dense("scores", m.Nodes, m.Columns)
		if err != nil {
			return err
		}
		out.scores, out.prior = s, meanRow(s)
		*dst = out
		return nil
	},
}

// ModelFile returns the fitted model as a modelfile container.
func (h *HeatClassifier) ModelFile() (*modelfile.File, error) { return heatCodec.File(h) }

// ReadModelFile replaces h by the model in f; on an error h is unchanged.
func (h *HeatClassifier) ReadModelFile(f *modelfile.File) error { return heatCodec.Read(f, h) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (h *HeatClassifier) MarshalBinary() ([]byte, error) { return heatCodec.Marshal(h) }

// UnmarshalBinary replaces h by the model in data; on an error h is
// unchanged.
func (h *HeatClassifier) UnmarshalBinary(data []byte) error { return heatCodec.Unmarshal(data, h) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (h HeatClassifier) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("diffusion: HeatClassifier: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (h *HeatClassifier) UnmarshalJSON([]byte) error {
	return fmt.Errorf("diffusion: HeatClassifier: %w", estimator.ErrJSON)
}
