package mlp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Defaults of the Classifier's fields (used where a field is zero).
const (
	DefaultHidden       = 64
	DefaultDropout      = 0.5
	DefaultWeightDecay  = 5e-4
	DefaultLearningRate = 0.01
	DefaultEpochs       = 500
	DefaultPatience     = 50
	DefaultHoldOut      = 0.2
)

// Off turns a rate field (Dropout, WeightDecay) off: its zero value means
// the default.
const Off = -1

// Classifier is a one-hidden-layer perceptron trained by Adam with early
// stopping (see the package doc). Predict returns class probabilities.
type Classifier struct {
	// Hidden is the number of hidden units, ≥ 1 (0: DefaultHidden).
	Hidden int
	// Dropout is the probability of dropping a hidden unit in training, in
	// [0, 1) (0: DefaultDropout; Off: none).
	Dropout float64
	// WeightDecay is λ ≥ 0 (0: DefaultWeightDecay; Off: none).
	WeightDecay float64
	// LearningRate is Adam's step size, > 0 (0: DefaultLearningRate).
	LearningRate float64
	// Epochs is the most full-batch steps, ≥ 1 (0: DefaultEpochs).
	Epochs int
	// Patience is the number of epochs without a better validation loss
	// after which training stops, ≥ 1 (0: DefaultPatience).
	Patience int
	// HoldOut is the fraction of Fit's rows kept apart for early stopping,
	// in (0, 1) (0: DefaultHoldOut). FitValidated takes the validation rows
	// explicitly and ignores it.
	HoldOut float64
	// Seed seeds the initial weights, the dropout masks and Fit's hold-out.
	Seed uint64

	fit *fitted
}

// fitted is the learned state.
type fitted struct {
	p       *params
	classes int
	info    estimator.Info
}

var _ estimator.PointClassifier = (*Classifier)(nil)

func (m *Classifier) hidden() int { return orInt(m.Hidden, DefaultHidden) }
func (m *Classifier) epochs() int { return orInt(m.Epochs, DefaultEpochs) }
func (m *Classifier) patience() int {
	return orInt(m.Patience, DefaultPatience)
}
func (m *Classifier) dropout() float64     { return rate(m.Dropout, DefaultDropout) }
func (m *Classifier) weightDecay() float64 { return rate(m.WeightDecay, DefaultWeightDecay) }
func (m *Classifier) learningRate() float64 {
	if m.LearningRate == 0 {
		return DefaultLearningRate
	}
	return m.LearningRate
}
func (m *Classifier) holdOut() float64 {
	if m.HoldOut == 0 {
		return DefaultHoldOut
	}
	return m.HoldOut
}

func orInt(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

func rate(v, def float64) float64 {
	switch v {
	case 0:
		return def
	case Off:
		return 0
	}
	return v
}

// Validate checks the hyperparameters.
func (m *Classifier) Validate() error {
	switch {
	case m.Hidden < 0:
		return fmt.Errorf("mlp: Hidden=%d is invalid: it must be ≥ 1 (0 for %d)", m.Hidden, DefaultHidden)
	case m.Dropout != Off && !(m.Dropout >= 0 && m.Dropout < 1):
		return fmt.Errorf("mlp: Dropout=%v is invalid: it must be in [0, 1) (0 for %v, Off for none)", m.Dropout, DefaultDropout)
	case m.WeightDecay != Off && !(m.WeightDecay >= 0 && !math.IsInf(m.WeightDecay, 1)):
		return fmt.Errorf("mlp: WeightDecay=%v is invalid: it must be finite and ≥ 0 (0 for %v, Off for none)", m.WeightDecay, DefaultWeightDecay)
	case !(m.LearningRate >= 0 && !math.IsInf(m.LearningRate, 1)):
		return fmt.Errorf("mlp: LearningRate=%v is invalid: it must be finite and > 0 (0 for %v)", m.LearningRate, DefaultLearningRate)
	case m.Epochs < 0:
		return fmt.Errorf("mlp: Epochs=%d is invalid: it must be ≥ 1 (0 for %d)", m.Epochs, DefaultEpochs)
	case m.Patience < 0:
		return fmt.Errorf("mlp: Patience=%d is invalid: it must be ≥ 1 (0 for %d)", m.Patience, DefaultPatience)
	case !(m.HoldOut >= 0 && m.HoldOut < 1):
		return fmt.Errorf("mlp: HoldOut=%v is invalid: it must be in the open interval (0, 1) (0 for %v)", m.HoldOut, DefaultHoldOut)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *Classifier) Clone() *Classifier {
	c := *m
	c.fit = nil
	return &c
}

// Info reports the epochs run (Iterations) and the best validation loss
// (Residual) of the last fit.
func (m *Classifier) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// Classes returns the number of classes of the fit (0 before).
func (m *Classifier) Classes() int {
	if m.fit == nil {
		return 0
	}
	return m.fit.classes
}

// Fit trains on the rows of x with labels in 0..C−1, keeping a random
// HoldOut fraction of them apart for early stopping.
func (m *Classifier) Fit(ctx context.Context, x *mat.Dense, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := checkRows("x", x, labels); err != nil {
		return err
	}
	n := len(labels)
	nv := int(math.Round(m.holdOut() * float64(n)))
	if nv < 1 || nv >= n {
		return fmt.Errorf("mlp: %d labelled rows with HoldOut=%v leave %d for validation and %d for training: both need ≥ 1", n, m.holdOut(), nv, n-nv)
	}
	perm := rand.New(rand.NewPCG(m.Seed, 0x4d1)).Perm(n)
	tr, va := perm[nv:], perm[:nv]
	return m.FitValidated(ctx, rowsOf(x, tr), pick(labels, tr), rowsOf(x, va), pick(labels, va))
}

// FitValidated trains on x with labels and stops early on the loss of the
// validation rows xv with labels yv: the node models' protocol, whose
// validation nodes are given by the split.
func (m *Classifier) FitValidated(ctx context.Context, x *mat.Dense, labels []int, xv *mat.Dense, yv []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if err := checkRows("x", x, labels); err != nil {
		return err
	}
	if err := checkRows("validation x", xv, yv); err != nil {
		return err
	}
	_, d := x.Dims()
	if _, dv := xv.Dims(); dv != d {
		return fmt.Errorf("mlp: validation rows have %d columns, training rows %d", dv, d)
	}
	c := 0
	for _, y := range append(append([]int(nil), labels...), yv...) {
		c = max(c, y+1)
	}
	c = max(c, 2)
	m.fit = nil
	rng := rand.New(rand.NewPCG(m.Seed, 0x31a7))
	p := newParams(d, m.hidden(), c, rng)
	best, bestLoss, since, epoch := p.clone(), math.Inf(1), 0, 0
	opt := &Adam{LearningRate: m.learningRate()}
	g := p.zeroLike()
	w := newWork(x.RawMatrix().Rows, m.hidden(), c)
	wv := newWork(xv.RawMatrix().Rows, m.hidden(), c)
	for epoch = 1; epoch <= m.epochs(); epoch++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("mlp: fit cancelled at epoch %d: %w", epoch, err)
		}
		w.drawMask(rng, m.dropout())
		lossGrad(p, x, labels, w, m.weightDecay(), g)
		opt.Step(p.slices(), g.slices())
		lv := lossGrad(p, xv, yv, wv, 0, nil)
		if math.IsNaN(lv) {
			return &estimator.NotConvergedError{Model: "mlp", Method: "adam", Iterations: epoch, Residual: lv}
		}
		if lv < bestLoss {
			bestLoss, since = lv, 0
			best.copyFrom(p)
		} else if since++; since >= m.patience() {
			break
		}
	}
	m.fit = &fitted{p: best, classes: c, info: estimator.Info{Iterations: min(epoch, m.epochs()), Residual: bestLoss}}
	return nil
}

// Predict returns the class probabilities of the rows of x (one row each,
// one column per class). A nil x is an error: the model keeps no rows.
func (m *Classifier) Predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if m.fit == nil {
		return nil, fmt.Errorf("mlp: %w", estimator.ErrNotFitted)
	}
	if x == nil {
		return nil, fmt.Errorf("mlp: Predict needs the rows to classify: the perceptron keeps none of its training rows")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mlp: predict cancelled: %w", err)
	}
	n, d := x.Dims()
	if d != m.fit.p.w1.RawMatrix().Rows {
		return nil, fmt.Errorf("mlp: the query has %d columns, the model was fitted on %d", d, m.fit.p.w1.RawMatrix().Rows)
	}
	w := newWork(n, m.fit.p.w1.RawMatrix().Cols, m.fit.classes)
	forward(m.fit.p, x, w)
	return w.prob, nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Classifier) Output() estimator.Output { return estimator.Probabilities }

func checkRows(what string, x *mat.Dense, labels []int) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("mlp: %s has no rows", what)
	}
	n, _ := x.Dims()
	if n != len(labels) {
		return fmt.Errorf("mlp: %s has %d rows but %d labels", what, n, len(labels))
	}
	for i, y := range labels {
		if y < 0 {
			return fmt.Errorf("mlp: %s row %d has label %d: a supervised model needs every label ≥ 0", what, i, y)
		}
	}
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("mlp: %s row %d column %d is %v: features must be finite", what, i, j, v)
			}
		}
	}
	return nil
}

func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		out.SetRow(k, x.RawRowView(i))
	}
	return out
}

func pick(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = y[i]
	}
	return out
}
