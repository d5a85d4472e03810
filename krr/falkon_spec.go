package krr

import (
	"errors"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"math"

	"github.com/gssl/gssl/kernel"
)

// MaxSpecIterations bounds Spec.MaxIter: CG converges in tens of
// iterations (t ~ log n in the FALKON paper), so a larger count is a typo.
const MaxSpecIterations = 100000

// Spec describes a Nyström kernel ridge model by names and numbers, as a
// command line, a configuration file or another front end gives it; Model
// builds the regressor. Every field must be set (there are no zero-value
// defaults except M and Precision); DefaultSpec holds the defaults. The
// flag tags are gssl falkon's flags.
type Spec struct {
	// Solver is "falkon" (preconditioned conjugate gradient, Falkon) or
	// "nystrom" (the direct solve of the same system, Nystrom).
	Solver string `json:"solver" flag:"solver"`
	// Kernel is a name of kernel.Named and Sigma its width (σ, or the
	// length scale ℓ of a Matérn kernel).
	Kernel string  `json:"kernel" flag:"kernel"`
	Sigma  float64 `json:"sigma" flag:"sigma"`
	// Lambda is the ridge parameter λ > 0.
	Lambda float64 `json:"lambda" flag:"ridge"`
	// M is the number of centres, ≥ 0 (0 means min(n, DefaultM)).
	M int `json:"-" flag:"-"`
	// MaxIter is FALKON's number of CG iterations, in [1,
	// MaxSpecIterations] (DefaultIterations is usual).
	MaxIter int `json:"max_iter" flag:"max-iter"`
	// Centres is "uniform", "leverage" (approximate ridge leverage scores)
	// or, with CentreIndices, the name of where those come from.
	Centres       string `json:"centres" flag:"centres"`
	CentreIndices []int  `json:"-"`
	// Seed seeds the choice of centres.
	Seed uint64 `json:"seed" flag:"seed"`
	// Precision of the kernel inner products: "float32" or "float64"; ""
	// is DefaultPrecision.
	Precision string `json:"precision" flag:"precision"`
}

var precisions = map[string]kernel.Precision{"float64": kernel.Float64, "float32": kernel.Float32, "": precisionOf(DefaultPrecision)}

// precisionOf is the kernel.Precision of the name p.
func precisionOf(p string) kernel.Precision {
	if p == "float64" {
		return kernel.Float64
	}
	return kernel.Float32
}

// Validate reports the first field outside its valid range as a
// *estimator.FieldError (a bad Sigma as the kernel's own error).
func (s Spec) Validate() error {
	_, err := kernel.Named(s.Kernel, s.Sigma)
	if errors.Is(err, kernel.ErrUnknownName) {
		return &estimator.FieldError{Package: "krr", Field: "Kernel", Value: s.Kernel, Reason: kernel.ErrUnknownName.Error()}
	}
	_, prec := precisions[s.Precision]
	switch {
	case err != nil:
		return err
	case !prec:
		return &estimator.FieldError{Package: "krr", Field: "Precision", Value: s.Precision, Reason: "it must be float32 or float64"}
	case s.Solver != "falkon" && s.Solver != "nystrom":
		return &estimator.FieldError{Package: "krr", Field: "Solver", Value: s.Solver, Reason: "it must be falkon or nystrom"}
	case s.M < 0:
		return &estimator.FieldError{Package: "krr", Field: "M", Value: s.M, Reason: fmt.Sprintf("it must be ≥ 1, or 0 for min(n, %d)", DefaultM)}
	case !(s.Lambda > 0) || math.IsInf(s.Lambda, 0):
		return &estimator.FieldError{Package: "krr", Field: "Lambda", Value: s.Lambda, Reason: "it must be finite and > 0"}
	case s.MaxIter < 1 || s.MaxIter > MaxSpecIterations:
		return &estimator.FieldError{Package: "krr", Field: "MaxIter", Value: s.MaxIter, Reason: fmt.Sprintf("it must be in [1, %d] (conjugate-gradient iterations; 10 to 20 are usual)", MaxSpecIterations)}
	case s.CentreIndices == nil && s.Centres != "uniform" && s.Centres != "leverage":
		return &estimator.FieldError{Package: "krr", Field: "Centres", Value: s.Centres, Reason: "it must be uniform or leverage, or come with CentreIndices"}
	}
	return nil
}

// Model returns the regressor s describes: a *Falkon or a *Nystrom. With
// CentreIndices the centres are those rows (Fixed) and M is their number.
func (s Spec) Model() (MultiOutput, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	k, _ := kernel.Named(s.Kernel, s.Sigma)
	prec := precisions[s.Precision]
	cs := Centres{M: s.M, Seed: s.Seed, Sampler: Uniform{}}
	switch {
	case s.CentreIndices != nil:
		cs.M, cs.Sampler = len(s.CentreIndices), Fixed(s.CentreIndices)
	case s.Centres == "leverage":
		cs.Sampler = Leverage{Precision: prec}
	}
	if s.Solver == "falkon" {
		return &Falkon{Kernel: k, Lambda: s.Lambda, Centres: cs, Iterations: s.MaxIter, Precision: prec}, nil
	}
	return &Nystrom{Kernel: k, Lambda: s.Lambda, Centres: cs, Precision: prec}, nil
}
