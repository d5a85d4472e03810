package confidence

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/persist"
)

// DefaultHoldout is the fraction of each class's labelled nodes that
// Classifier.Fit holds out to calibrate on.
const DefaultHoldout = 0.25

// Classifier is a node classifier whose predictions are calibrated class
// probabilities, with prediction sets (Sets). Fit holds out a fraction of
// each class's labelled nodes, fits Base on the others and calibrates on
// the held-out ones (FitHeldOut takes the held-out nodes from the caller,
// e.g. a split's validation nodes).
type Classifier struct {
	// Base is the classifier calibrated, a template: Fit fits a clone of
	// it (its Clone method, returning its own type) and leaves Base as it
	// is. Saving needs Base to be a saver registered in package persist.
	Base estimator.NodeClassifier
	// Holdout in (0, 1) is the fraction of each class's labelled nodes held
	// out (0 means DefaultHoldout); a class keeps at least one node for
	// Base.
	Holdout float64
	// Alpha in (0, 1) is the miscoverage of the prediction sets (0 means
	// DefaultAlpha).
	Alpha float64
	// Seed draws the held-out nodes.
	Seed uint64

	fitted estimator.NodeClassifier
	cal    *Calibration
}

var (
	_ estimator.NodeClassifier = (*Classifier)(nil)
	_ estimator.Saver          = (*Classifier)(nil)
)

func (m *Classifier) holdout() float64 {
	if m.Holdout == 0 {
		return DefaultHoldout
	}
	return m.Holdout
}

func (m *Classifier) alpha() float64 {
	if m.Alpha == 0 {
		return DefaultAlpha
	}
	return m.Alpha
}

// Validate checks the hyperparameters, Base's included.
func (m *Classifier) Validate() error {
	switch {
	case m.Base == nil:
		return fmt.Errorf("confidence: Base is nil: a classifier to calibrate is needed")
	case !(m.Holdout >= 0 && m.Holdout < 1):
		return fmt.Errorf("confidence: Holdout=%v is invalid: it must be in the open interval (0, 1), or 0 for %v", m.Holdout, DefaultHoldout)
	case !(m.Alpha >= 0 && m.Alpha < 1):
		return fmt.Errorf("confidence: Alpha=%v is invalid: it must be in the open interval (0, 1), or 0 for %v", m.Alpha, DefaultAlpha)
	}
	if _, err := cloneBase(m.Base); err != nil {
		return err
	}
	return m.Base.Validate()
}

// cloneBase returns b.Clone(), for a b whose Clone returns a node
// classifier.
func cloneBase(b estimator.NodeClassifier) (estimator.NodeClassifier, error) {
	meth := reflect.ValueOf(b).MethodByName("Clone")
	if meth.IsValid() && meth.Type().NumIn() == 0 && meth.Type().NumOut() == 1 {
		if c, ok := meth.Call(nil)[0].Interface().(estimator.NodeClassifier); ok {
			return c, nil
		}
	}
	return nil, fmt.Errorf("confidence: Base %T is invalid: it has no Clone method returning a node classifier", b)
}

// Info is the fitted clone of Base's.
func (m *Classifier) Info() estimator.Info {
	if m.fitted == nil {
		return estimator.Info{}
	}
	return m.fitted.Info()
}

// Clone returns an unfitted copy (with the same Base template).
func (m *Classifier) Clone() *Classifier {
	c := *m
	c.fitted, c.cal = nil, nil
	return &c
}

// HeldOut returns the nodes Fit holds out of labels: for each class, a
// fraction Holdout of its nodes (rounded down, at most all but one) drawn
// with Seed, in increasing order.
func (m *Classifier) HeldOut(labels []int) []int {
	byClass := map[int][]int{}
	maxClass := -1
	for i, y := range labels {
		if y >= 0 {
			byClass[y] = append(byClass[y], i)
			maxClass = max(maxClass, y)
		}
	}
	rng := rand.New(rand.NewPCG(m.Seed, 0x686f6c64))
	held := make([]bool, len(labels))
	for y := 0; y <= maxClass; y++ {
		nodes := byClass[y]
		k := min(int(math.Floor(m.holdout()*float64(len(nodes)))), len(nodes)-1)
		rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		for _, i := range nodes[:max(k, 0)] {
			held[i] = true
		}
	}
	var out []int
	for i, h := range held {
		if h {
			out = append(out, i)
		}
	}
	return out
}

// Fit fits Base on the labelled nodes not in HeldOut(labels) and
// calibrates on the held-out ones.
func (m *Classifier) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	return m.FitHeldOut(ctx, x, labels, m.HeldOut(labels))
}

// FitHeldOut fits Base on the labelled nodes not in heldOut, then
// calibrates on the labelled nodes in heldOut.
func (m *Classifier) FitHeldOut(ctx context.Context, x estimator.Nodes, labels []int, heldOut []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fitted, m.cal = nil, nil
	train := append([]int(nil), labels...)
	var n int
	for _, i := range heldOut {
		if i < 0 || i >= len(labels) {
			return fmt.Errorf("confidence: held-out node %d is out of range [0, %d)", i, len(labels))
		}
		if labels[i] >= 0 {
			n++
		}
		train[i] = -1
	}
	if n == 0 {
		return fmt.Errorf("confidence: none of the %d held-out nodes has a label to calibrate on", len(heldOut))
	}
	base, err := cloneBase(m.Base)
	if err != nil {
		return err
	}
	if err := base.Fit(ctx, x, train); err != nil {
		return err
	}
	scores, err := base.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return err
	}
	cal, err := Fit(scores, labels, heldOut, m.alpha(), m.Seed)
	if err != nil {
		return err
	}
	m.fitted, m.cal = base, cal
	return nil
}

// Calibration returns the fitted calibration, nil before Fit.
func (m *Classifier) Calibration() *Calibration { return m.cal }

// Fitted returns the fitted clone of Base whose scores the calibration
// maps, nil before Fit.
func (m *Classifier) Fitted() estimator.NodeClassifier { return m.fitted }

// Predict returns the calibrated class probabilities of the queried nodes.
func (m *Classifier) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.cal == nil {
		return nil, estimator.NotFitted("confidence: Classifier: Predict")
	}
	scores, err := m.fitted.Predict(ctx, q)
	if err != nil {
		return nil, err
	}
	return m.cal.Probabilities(scores)
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Classifier) Output() estimator.Output { return estimator.Probabilities }

// Sets returns the prediction set of each queried node, classes in
// decreasing probability.
func (m *Classifier) Sets(ctx context.Context, q estimator.NodeQuery) ([][]int, error) {
	p, err := m.Predict(ctx, q)
	if err != nil {
		return nil, err
	}
	return m.cal.Sets(p), nil
}

// Kind is Base's kind: the file is Base's, with the calibration beside it
// (package persist reads it as the uncalibrated Base).
func (m *Classifier) Kind() string {
	if s, ok := m.Base.(estimator.Saver); ok {
		return s.Kind()
	}
	return ""
}

const sectionFit = "calibration.fit" // Holdout, Alpha, Seed (its two 32-bit halves)

// classifierCodec stores a Classifier as its fitted Base's model file
// with the calibration's sections and sectionFit added: the file is
// Base's kind, which package persist reads as the uncalibrated Base.
var classifierCodec = modelfile.Codec[Classifier, struct{}]{Kind: "confidence.Classifier",
	Fitted: func(m *Classifier) bool { return m.cal != nil },
	Base: func(m *Classifier) (*modelfile.File, error) {
		b, ok := m.fitted.(persist.Model)
		if !ok {
			return nil, fmt.Errorf("confidence: a %T cannot be saved", m.fitted)
		}
		return b.ModelFile()
	},
	Put: func(m *Classifier, f *modelfile.File) (struct{}, error) {
		if err := m.cal.Put(f); err != nil {
			return struct{}{}, err
		}
		f.PutFloat64s(sectionFit, []float64{m.Holdout, m.Alpha, float64(m.Seed >> 32), float64(m.Seed & math.MaxUint32)})
		return struct{}{}, nil
	},
	Get: readClassifier,
}

// MarshalBinary writes Base's model file with the calibration added.
func (m *Classifier) MarshalBinary() ([]byte, error) { return classifierCodec.Marshal(m) }

// UnmarshalBinary replaces m by the calibrated classifier in data; on an
// error m is unchanged.
func (m *Classifier) UnmarshalBinary(data []byte) error {
	f, err := modelfile.Unmarshal(data)
	if err != nil {
		return err
	}
	return m.ReadModelFile(f)
}

// ReadModelFile replaces m by the calibrated classifier in f (a file that
// MarshalBinary wrote, or any node classifier's file with a calibration);
// on an error m is unchanged.
func (m *Classifier) ReadModelFile(f *modelfile.File) error { return classifierCodec.Read(f, m) }

// readClassifier reads the calibrated classifier in f into dst.
func readClassifier(f *modelfile.File, _ struct{}, dst *Classifier) error {
	cal, err := Read(f)
	if err != nil {
		return err
	}
	if cal == nil {
		return fmt.Errorf("confidence: the %s model file holds no calibration", f.Kind)
	}
	// A file calibrated on given nodes (gssl classify and labelprop
	// --conformal, on the split's validation nodes) has no fit section:
	// its Alpha and Seed are the calibration's, and Holdout the default.
	v := []float64{0, cal.Conformal.Alpha, float64(cal.Seed >> 32), float64(cal.Seed & math.MaxUint32)}
	if f.Has(sectionFit) {
		if v, err = f.Float64s(sectionFit); err != nil {
			return err
		}
	}
	if len(v) != 4 {
		return fmt.Errorf("confidence: section %s holds %d values, want 4", sectionFit, len(v))
	}
	for _, h := range v[2:] {
		if h != math.Trunc(h) || h < 0 || h > math.MaxUint32 {
			return fmt.Errorf("confidence: section %s: seed half %v is not a 32-bit integer", sectionFit, h)
		}
	}
	base, err := persist.Read(f)
	if err != nil {
		return err
	}
	nc, ok := base.(estimator.NodeClassifier)
	if !ok {
		return fmt.Errorf("confidence: a %s model is not a node classifier", f.Kind)
	}
	next := Classifier{Base: nc, Holdout: v[0], Alpha: v[1], Seed: uint64(v[2])<<32 | uint64(v[3])}
	if err := next.Validate(); err != nil {
		return fmt.Errorf("confidence: section %s: %w", sectionFit, err)
	}
	next.fitted, next.cal = nc, cal
	*dst = next
	return nil
}
