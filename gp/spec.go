package gp

import "github.com/gssl/gssl/estimator"

// Spec describes an exact GP regressor by names, as a command line or
// another front end gives it; Regressor builds it. The tags are gssl gp's
// flags.
type Spec struct {
	Covariance string `json:"covariance" flag:"covariance"` // matern52, or squared-exponential (also rbf, gaussian)
	Fixed      bool   `json:"fixed" flag:"fixed"`           // keep the initial hyperparameters
	MaxIter    int    `json:"max_iter" flag:"max-iter"`     // optimiser iterations, ≥ 1
}

// DefaultSpec is the Matérn 5/2 covariance with DefaultMaxIterations.
func DefaultSpec() Spec { return Spec{Covariance: Matern52.String(), MaxIter: DefaultMaxIterations} }

// Regressor is the regressor s describes; an invalid field is an
// *estimator.FieldError.
func (s Spec) Regressor() (*Regressor, error) {
	m := &Regressor{Fixed: s.Fixed, MaxIterations: s.MaxIter}
	switch s.Covariance {
	case Matern52.String():
	case "squared-exponential", "rbf", "gaussian":
		m.Covariance = SquaredExponential
	default:
		return nil, &estimator.FieldError{Package: "gp", Field: "Covariance", Value: s.Covariance, Reason: "use matern52 or squared-exponential"}
	}
	if s.MaxIter < 1 {
		return nil, &estimator.FieldError{Package: "gp", Field: "MaxIter", Value: s.MaxIter, Reason: "it must be ≥ 1"}
	}
	return m, nil
}
