package svm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// KernelRidgeKind is the kind of a fitted KernelRidge (on a precomputed
// kernel) in a modelfile container (layout ModelVersion). The file holds
// the coefficients α over the training items, not the items: predicting
// needs the kernel rows of new items against the training items, as for
// SVC.
const KernelRidgeKind = "svm.KernelRidge"

type ridgeMeta struct {
	Ridge   float64 `json:"ridge"`
	Classes []int   `json:"classes"`
	Items   int     `json:"items"`
}

// Items returns the number of training items, 0 before Fit.
func (r *KernelRidge) Items() int {
	if r.alpha == nil {
		return 0
	}
	n, _ := r.alpha.Dims()
	return n
}

// ModelFile returns the fitted model as a modelfile container (kind
// KernelRidgeKind): Ridge, the classes and α (items × classes, row-major)
// in section "alpha".
func (r *KernelRidge) ModelFile() (*modelfile.File, error) {
	if r.alpha == nil {
		return nil, estimator.NotFitted("svm: KernelRidge.MarshalBinary")
	}
	f := modelfile.New(KernelRidgeKind, ModelVersion)
	if err := f.SetMetadata(ridgeMeta{Ridge: r.Ridge, Classes: r.classes, Items: r.Items()}); err != nil {
		return nil, err
	}
	f.PutFloat64s("alpha", mat.DenseCopyOf(r.alpha).RawMatrix().Data)
	return f, nil
}

// MarshalBinary encodes the fitted model; one read back scores bitwise the
// same on the same kernel rows.
func (r *KernelRidge) MarshalBinary() ([]byte, error) {
	f, err := r.ModelFile()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// UnmarshalBinary replaces r by the model in data; on an error r is
// unchanged.
func (r *KernelRidge) UnmarshalBinary(data []byte) error {
	f, err := modelfile.Unmarshal(data)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	return r.ReadModelFile(f)
}

// ReadModelFile replaces r by the model in f; on an error r is unchanged.
func (r *KernelRidge) ReadModelFile(f *modelfile.File) error {
	if err := f.Expect(KernelRidgeKind, ModelVersion); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	var meta ridgeMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	out := KernelRidge{Ridge: meta.Ridge}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("svm: the model file's settings: %w", err)
	}
	// One class is a valid fit for KernelRidge (every score is that class).
	if len(meta.Classes) == 1 {
		if meta.Classes[0] < 0 {
			return fmt.Errorf("svm: the model file's class %d is negative", meta.Classes[0])
		}
	} else if err := checkClasses(meta.Classes); err != nil {
		return err
	}
	if meta.Items < 1 {
		return fmt.Errorf("svm: the model file declares %d training items", meta.Items)
	}
	a, err := f.Float64s("alpha")
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	c := len(meta.Classes)
	if len(a)%meta.Items != 0 || len(a)/meta.Items != c {
		return fmt.Errorf("svm: the model file has %d coefficients for %d items and %d classes", len(a), meta.Items, c)
	}
	for i, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("svm: the model file's coefficient %d is %v", i, v)
		}
	}
	out.classes = meta.Classes
	out.alpha = mat.NewDense(meta.Items, c, a)
	*r = out
	return nil
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r KernelRidge) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("svm: KernelRidge: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *KernelRidge) UnmarshalJSON([]byte) error {
	return fmt.Errorf("svm: KernelRidge: %w", estimator.ErrJSON)
}
