package imgp

import (
	"fmt"
	"github.com/gssl/gssl/estimator"
	"math"

	"github.com/gssl/gssl/knngraph"
)

// MaxSpecIterations bounds Spec.MaxIter: Adam converges in tens to
// hundreds of steps, so a larger count is a typo.
const MaxSpecIterations = 100000

// Spec describes a Regressor by names and numbers, as a command line, a
// configuration file or another front end gives it; Regressor builds it.
// Unlike the Regressor's fields, zero is not a default here (except
// Eigenpairs, and MaxIter, where 0 keeps the initial hyperparameters).
type Spec struct {
	K            int     `json:"k" flag:"neighbors"`                 // nearest neighbours of the graph, ≥ 1
	Nu           int     `json:"nu" flag:"nu"`                       // smoothness ν ≥ 1 of the graph Matérn prior
	Eigenpairs   int     `json:"eigenpairs" flag:"eigenpairs"`       // L ≥ 1, or 0 for min(N, DefaultEigenpairs)
	MaxIter      int     `json:"max_iter" flag:"max-iter"`           // Adam steps in [0, MaxSpecIterations]; 0 keeps the initial hyperparameters
	LearningRate float64 `json:"learning_rate" flag:"learning-rate"` // Adam's, finite and > 0
	Probes       int     `json:"probes" flag:"probes"`               // Hutchinson probes per gradient, ≥ 1
	Distance     string  `json:"distance" flag:"distance"`           // "nearest" (node) or "mean" (of the K neighbours); "" is nearest
	Procedure    string  `json:"procedure" flag:"procedure"`         // "refit" or "paper" (ParseProcedure); "" is refit
	Approximate  bool    `json:"approximate" flag:"approximate"`     // build the graph by NN-descent (seeded by the Regressor's Seed)
}

var distances = map[string]DistanceRule{"": NearestNode, "nearest": NearestNode, "mean": MeanNeighbour}

// Validate reports the first field outside its valid range as a
// *estimator.FieldError.
func (s Spec) Validate() error {
	_, known := distances[s.Distance]
	_, err := ParseProcedure(s.Procedure)
	switch {
	case !known:
		return &estimator.FieldError{Package: "imgp", Field: "Distance", Value: s.Distance, Reason: "use nearest or mean"}
	case err != nil && s.Procedure != "":
		return &estimator.FieldError{Package: "imgp", Field: "Procedure", Value: s.Procedure, Reason: "use refit or paper"}
	case s.Nu < 1:
		return &estimator.FieldError{Package: "imgp", Field: "Nu", Value: s.Nu, Reason: "the sparse precision needs a positive integer ν"}
	case s.MaxIter < 0 || s.MaxIter > MaxSpecIterations:
		return &estimator.FieldError{Package: "imgp", Field: "MaxIter", Value: s.MaxIter, Reason: fmt.Sprintf("it must be ≥ 0 (0 keeps the initial hyperparameters) and at most %d Adam steps", MaxSpecIterations)}
	case s.K < 1:
		return &estimator.FieldError{Package: "imgp", Field: "K", Value: s.K, Reason: "it must be ≥ 1"}
	case s.Eigenpairs < 0:
		return &estimator.FieldError{Package: "imgp", Field: "Eigenpairs", Value: s.Eigenpairs, Reason: fmt.Sprintf("it must be ≥ 1, or 0 for min(N, %d)", DefaultEigenpairs)}
	case s.Probes < 1:
		return &estimator.FieldError{Package: "imgp", Field: "Probes", Value: s.Probes, Reason: "it must be ≥ 1"}
	case !(s.LearningRate > 0) || math.IsInf(s.LearningRate, 0):
		return &estimator.FieldError{Package: "imgp", Field: "LearningRate", Value: s.LearningRate, Reason: "it must be finite and > 0"}
	}
	return nil
}

// Regressor returns the regressor s describes with the given seed (of the
// probes, and of NN-descent with Approximate); set its Euclidean GP,
// Scaling and Progress as needed.
func (s Spec) Regressor(seed uint64) (*Regressor, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	procedure := ProcedureRefit
	if s.Procedure != "" {
		procedure, _ = ParseProcedure(s.Procedure)
	}
	iters := s.MaxIter
	if iters == 0 {
		iters = -1 // the Regressor's "no Adam steps"
	}
	r := &Regressor{K: s.K, Nu: s.Nu, Eigenpairs: s.Eigenpairs, Iterations: iters, LearningRate: s.LearningRate,
		Probes: s.Probes, Distance: distances[s.Distance], Procedure: procedure, Seed: seed}
	if s.Approximate {
		r.Approximate = &knngraph.Descent{Seed: seed}
	}
	return r, nil
}
