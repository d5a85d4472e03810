package svm

import (
	"fmt"

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

// ridgeCodec stores a KernelRidge: Ridge, the classes and α (items ×
// classes, row-major) in section "alpha".
var ridgeCodec = modelfile.Codec[KernelRidge, ridgeMeta]{Kind: KernelRidgeKind, Version: ModelVersion,
	Fitted: func(r *KernelRidge) bool { return r.alpha != nil },
	Put: func(r *KernelRidge, f *modelfile.File) (ridgeMeta, error) {
		f.PutDense("alpha", r.alpha)
		return ridgeMeta{Ridge: r.Ridge, Classes: r.classes, Items: r.Items()}, nil
	},
	Get: func(f *modelfile.File, meta ridgeMeta, dst *KernelRidge) error {
		out := KernelRidge{Ridge: meta.Ridge}
		if err := out.Validate(); err != nil {
			return fmt.Errorf("the model file's settings: %w", err)
		}
		// One class is a valid fit for KernelRidge (every score is that class).
		if len(meta.Classes) == 1 {
			if c := meta.Classes[0]; c < 0 || c > MaxClass {
				return fmt.Errorf("the model file's class %d is not in 0..%d", c, MaxClass)
			}
		} else if err := checkClasses(meta.Classes); err != nil {
			return err
		}
		a, err := f.Dense("alpha", meta.Items, len(meta.Classes))
		if err != nil {
			return err
		}
		out.classes, out.alpha = meta.Classes, a
		*dst = out
		return nil
	},
}

// ModelFile returns the fitted model as a modelfile container (kind
// KernelRidgeKind).
func (r *KernelRidge) ModelFile() (*modelfile.File, error) { return ridgeCodec.File(r) }

// ReadModelFile replaces r by the model in f; on an error r is unchanged.
func (r *KernelRidge) ReadModelFile(f *modelfile.File) error { return ridgeCodec.Read(f, r) }

// MarshalBinary encodes the fitted model; one read back scores bitwise the
// same on the same kernel rows.
func (r *KernelRidge) MarshalBinary() ([]byte, error) { return ridgeCodec.Marshal(r) }

// UnmarshalBinary replaces r by the model in data; on an error r is
// unchanged.
func (r *KernelRidge) UnmarshalBinary(data []byte) error { return ridgeCodec.Unmarshal(data, r) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r KernelRidge) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("svm: KernelRidge: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *KernelRidge) UnmarshalJSON([]byte) error {
	return fmt.Errorf("svm: KernelRidge: %w", estimator.ErrJSON)
}
