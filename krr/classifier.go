package krr

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// ClassifierKind is the kind of a fitted Classifier in a modelfile
// container.
const ClassifierKind = "krr.Classifier"

// Classifier is kernel ridge classification: Fit regresses the one-hot
// coding of the labels (OneHot) with a clone of Model, all classes at once
// (FitTargets), and Predict returns the regression's scores, one column
// per class; the predicted class is the largest score (estimator.Argmax).
type Classifier struct {
	// Model is the regression of the one-hot targets, one of Exact,
	// Nystrom, Falkon and RandomFeatures; Fit fits a clone of it.
	Model MultiOutput
	// Classes is the number of classes C; 0 means 1 + the largest label.
	Classes int

	fitted MultiOutput
}

var _ estimator.PointClassifier = (*Classifier)(nil)

// Validate checks Model and Classes.
func (c *Classifier) Validate() error {
	if c.Model == nil || CloneModel(c.Model) == nil {
		return fmt.Errorf("krr: Classifier.Model = %T is invalid: use a *Exact, *Nystrom, *Falkon or *RandomFeatures", c.Model)
	}
	if c.Classes < 0 {
		return fmt.Errorf("krr: Classifier.Classes = %d is invalid: it must be ≥ 2 (0 means 1 + the largest label)", c.Classes)
	}
	return c.Model.Validate()
}

// Fit fits the one-hot coding of labels (one class in 0..C−1 per row of
// x; every row must have one).
func (c *Classifier) Fit(ctx context.Context, x *mat.Dense, labels []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	classes := c.Classes
	if classes == 0 {
		for _, l := range labels {
			classes = max(classes, l+1)
		}
	}
	for i, l := range labels {
		if l < 0 {
			return fmt.Errorf("krr: Classifier: label %d of row %d is invalid: every training row needs a class in [0, %d)", l, i, classes)
		}
	}
	y, err := OneHot(labels, classes)
	if err != nil {
		return err
	}
	m := CloneModel(c.Model)
	if err := m.FitTargets(ctx, x, y); err != nil {
		var nc *estimator.NotConvergedError
		if errors.As(err, &nc) {
			c.fitted = m
		}
		return err
	}
	c.fitted = m
	return nil
}

// Predict returns the scores of every class at the rows of x.
func (c *Classifier) Predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if c.fitted == nil {
		return nil, estimator.NotFitted("krr: Classifier")
	}
	return c.fitted.PredictTargets(ctx, x)
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (c *Classifier) Output() estimator.Output { return estimator.DecisionValues }

// Fitted returns the fitted regression of the one-hot targets (nil before
// Fit).
func (c *Classifier) Fitted() MultiOutput { return c.fitted }

// Info is the fitted regression's.
func (c *Classifier) Info() estimator.Info {
	if c.fitted == nil {
		return estimator.Info{}
	}
	return c.fitted.Info()
}

// Kind returns ClassifierKind.
func (c *Classifier) Kind() string { return ClassifierKind }

// Clone returns an unfitted copy of c (Model is cloned too).
func (c *Classifier) Clone() *Classifier {
	out := &Classifier{Classes: c.Classes}
	if c.Model != nil {
		out.Model = CloneModel(c.Model)
	}
	return out
}

type classifierMeta struct {
	Classes int `json:"classes"`
}

// classifierCodec stores a Classifier: the number of classes, and the
// fitted regression's own container in section "model".
var classifierCodec = modelfile.Codec[Classifier, classifierMeta]{Kind: ClassifierKind, Version: ModelVersion,
	Fitted: func(c *Classifier) bool { return c.fitted != nil },
	Put: func(c *Classifier, f *modelfile.File) (classifierMeta, error) {
		inner, err := c.fitted.(interface {
			ModelFile() (*modelfile.File, error)
		}).ModelFile()
		if err != nil {
			return classifierMeta{}, err
		}
		return classifierMeta{Classes: c.Classes}, f.PutNested("model", inner)
	},
	Get: func(f *modelfile.File, meta classifierMeta, dst *Classifier) error {
		if meta.Classes < 0 {
			return fmt.Errorf("the model file's classes = %d", meta.Classes)
		}
		inner, err := f.Nested("model")
		if err != nil {
			return fmt.Errorf("the classifier's model: %w", err)
		}
		var m interface {
			MultiOutput
			ReadModelFile(*modelfile.File) error
			Outputs() int
		}
		switch inner.Kind {
		case ExactKind:
			m = &Exact{}
		case NystromKind:
			m = &Nystrom{}
		case FalkonKind:
			m = &Falkon{}
		case RandomFeaturesKind:
			m = &RandomFeatures{}
		default:
			return fmt.Errorf("the classifier's model is a %q, not a kernel ridge model", inner.Kind)
		}
		if err := m.ReadModelFile(inner); err != nil {
			return err
		}
		if meta.Classes != 0 && meta.Classes != m.Outputs() {
			return fmt.Errorf("the model file's classes = %d, its model has %d outputs", meta.Classes, m.Outputs())
		}
		*dst = Classifier{Model: CloneModel(m), Classes: meta.Classes, fitted: m}
		return nil
	},
}

// Features returns the dimension of the training points, 0 before Fit.
func (c *Classifier) Features() int {
	if c.fitted == nil {
		return 0
	}
	return c.fitted.(interface{ Features() int }).Features()
}

// Outputs returns the number of classes of a fitted model (the columns of
// Predict), 0 before Fit.
func (c *Classifier) Outputs() int {
	if c.fitted == nil {
		return 0
	}
	return c.fitted.(interface{ Outputs() int }).Outputs()
}

// ModelFile returns the fitted model as a modelfile container (kind
// ClassifierKind).
func (c *Classifier) ModelFile() (*modelfile.File, error) { return classifierCodec.File(c) }

// ReadModelFile replaces c by the model in f; on an error c is unchanged.
func (c *Classifier) ReadModelFile(f *modelfile.File) error { return classifierCodec.Read(f, c) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (c *Classifier) MarshalBinary() ([]byte, error) { return classifierCodec.Marshal(c) }

// UnmarshalBinary replaces c by the model in data; on an error c is
// unchanged.
func (c *Classifier) UnmarshalBinary(data []byte) error { return classifierCodec.Unmarshal(data, c) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (c Classifier) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: Classifier: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (c *Classifier) UnmarshalJSON([]byte) error {
	return fmt.Errorf("krr: Classifier: %w", estimator.ErrJSON)
}
