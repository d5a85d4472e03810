package labelprop

import (
	"fmt"
	"strconv"

	"github.com/gssl/gssl/estimator"
)

// MaxAlpha is the largest a a Spec accepts: the solvers need about
// 1/√(1−a) iterations, so at 1 − 10⁻⁶ Chebyshev already needs about 10⁴
// at the default tolerance, and a value closer to 1 would not end.
const MaxAlpha = 1 - 1e-6

// Spec describes a label propagation model by names and numbers, as a
// command line, a configuration file or another front end gives it;
// Model builds it. The zero Spec is label spreading with a chosen from
// AlphaGrid by the caller's protocol.
type Spec struct {
	Method            string  `json:"method" flag:"method"`                           // "spreading" (or "") or "harmonic"
	Alpha             string  `json:"alpha" flag:"alpha"`                             // spreading's a in (0, MaxAlpha], or "auto" (or "") for AlphaGrid
	Tol               float64 `json:"tol" flag:"tol"`                                 // in (0, 1), or 0 for the default
	Solver            string  `json:"solver" flag:"solver"`                           // ParseSolver's names, or "" for auto; the harmonic function takes auto or cg
	Stop              string  `json:"stop" flag:"stop"`                               // ParseStopRule's names, or "" for residual; spreading only
	Float32           bool    `json:"float32" flag:"float32"`                         // spreading only, with the Chebyshev or auto solver
	CMN               bool    `json:"cmn" flag:"cmn"`                                 // class mass normalization
	KeepIsolatedSeeds bool    `json:"keep_isolated_seeds" flag:"keep-isolated-seeds"` // IsolatedSeedKeep instead of IsolatedSeedError
}

func specError(field string, v any, reason string) error {
	return &estimator.FieldError{Package: "labelprop", Field: field, Value: v, Reason: reason}
}

// Validate reports the first field outside its valid range as a
// *estimator.FieldError.
func (s Spec) Validate() error {
	_, _, err := s.Model()
	return err
}

// Model returns the model s describes and the values of a to choose from
// (one value for a given Alpha, AlphaGrid for auto, nil for the harmonic
// function), or the first invalid field as an *estimator.FieldError. Set
// the model's Classes (and MaxMemory) from the data before fitting.
func (s Spec) Model() (Classifier, []float64, error) {
	iso := IsolatedSeedError
	if s.KeepIsolatedSeeds {
		iso = IsolatedSeedKeep
	}
	if s.Tol != 0 && !(s.Tol > 0 && s.Tol < 1) {
		return nil, nil, specError("Tol", s.Tol, "it must be inside (0, 1), or 0 for the default")
	}
	switch s.Method {
	case "spreading", "":
		grid, err := s.alphaGrid()
		if err != nil {
			return nil, nil, err
		}
		m := &Spreading{Tol: s.Tol, ClassMassNormalization: s.CMN, IsolatedSeeds: iso, Float32: s.Float32, Solver: Auto, Stop: StopResidual}
		if s.Solver != "" {
			if m.Solver, err = ParseSolver(s.Solver); err != nil {
				return nil, nil, specError("Solver", s.Solver, "want auto, chebyshev, cg or fixed-point")
			}
		}
		if s.Stop != "" {
			if m.Stop, err = ParseStopRule(s.Stop); err != nil {
				return nil, nil, specError("Stop", s.Stop, "want residual or labels")
			}
		}
		if (m.Stop == StopLabels || m.Float32) && m.Solver != Chebyshev && m.Solver != Auto {
			return nil, nil, specError("Solver", s.Solver, "the labels stopping rule and float32 need the chebyshev or auto solver")
		}
		return m, grid, nil
	case "harmonic":
		switch {
		case s.Alpha != "auto" && s.Alpha != "":
			return nil, nil, specError("Alpha", s.Alpha, "it applies to the spreading method only; the harmonic function has no a")
		case s.Stop != "" && s.Stop != StopResidual.String():
			return nil, nil, specError("Stop", s.Stop, "it applies to the spreading method only")
		case s.Float32:
			return nil, nil, specError("Float32", s.Float32, "it applies to the spreading method only")
		case s.Solver != "auto" && s.Solver != "cg" && s.Solver != "": // the default and what it runs pass
			return nil, nil, specError("Solver", s.Solver, "it applies to the spreading method only; the harmonic function is solved by CG")
		}
		return &Harmonic{Tol: s.Tol, ClassMassNormalization: s.CMN, IsolatedSeeds: iso}, nil, nil
	}
	return nil, nil, specError("Method", s.Method, "want spreading or harmonic")
}

// alphaGrid returns the values of a to search: AlphaGrid for "auto", one
// value otherwise.
func (s Spec) alphaGrid() ([]float64, error) {
	if s.Alpha == "auto" || s.Alpha == "" {
		return AlphaGrid(), nil
	}
	a, err := strconv.ParseFloat(s.Alpha, 64)
	if err != nil || !(a > 0 && a < 1) {
		return nil, specError("Alpha", s.Alpha, "it must be a number inside the open interval (0, 1), or auto")
	}
	if a > MaxAlpha {
		return nil, specError("Alpha", s.Alpha, fmt.Sprintf("it must be at most %g (the solvers need about 1/√(1−a) iterations)", MaxAlpha))
	}
	return []float64{a}, nil
}
