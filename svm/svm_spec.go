package svm

import (
	"github.com/gssl/gssl/estimator"
	"math"

	"github.com/gssl/gssl/kernel"
)

// Spec describes a PointSVC by names and numbers, as a command line, a
// configuration file or another front end gives it; PointSVC builds it.
type Spec struct {
	Kernel string  `json:"kernel" flag:"kernel"` // "gaussian" or "linear"
	Sigma  float64 `json:"sigma" flag:"sigma"`   // the Gaussian kernel's bandwidth σ > 0
	C      float64 `json:"C" flag:"c"`           // box constraint, finite and > 0
	Tol    float64 `json:"tol" flag:"tol"`       // SMO's tolerance on the KKT violation (Settings.Tol)
}

// PointSVC returns the machine s describes; an invalid field is a
// *estimator.FieldError (a bad Sigma the kernel's own error).
func (s Spec) PointSVC() (*PointSVC, error) {
	k, ok := map[string]kernel.Kernel{"gaussian": kernel.Gaussian{Sigma: s.Sigma}, "linear": kernel.Linear{}}[s.Kernel]
	if !ok {
		return nil, &estimator.FieldError{Package: "svm", Field: "Kernel", Value: s.Kernel, Reason: "want gaussian or linear"}
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if !(s.C > 0) || math.IsInf(s.C, 0) {
		return nil, &estimator.FieldError{Package: "svm", Field: "C", Value: s.C, Reason: "it must be finite and > 0"}
	}
	p := &PointSVC{Kernel: k, C: s.C, Settings: Settings{Tol: s.Tol}}
	return p, p.Validate()
}
