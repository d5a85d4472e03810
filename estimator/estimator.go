package estimator

import (
	"errors"
	"fmt"
)

// ErrNotFitted is the error (or the cause of the error, for errors.Is) that
// every model's prediction returns before a successful Fit.
var ErrNotFitted = errors.New("the model has not been fitted: call Fit first")

// NotFitted returns an error naming the model and method that wraps
// ErrNotFitted, e.g. NotFitted("labelprop.Spreading.PredictNodes").
func NotFitted(where string) error { return fmt.Errorf("%s: %w", where, ErrNotFitted) }

// NotConvergedError reports that a solver stopped at its iteration cap
// before reaching its tolerance. The model then holds the best iterate it
// found, which is usable.
type NotConvergedError struct {
	// Model is the package or model, e.g. "labelprop".
	Model string
	// Method is the solver, e.g. "chebyshev" or "block CG".
	Method string
	// Iterations is the number of iterations taken.
	Iterations int
	// Residual is the final value of the stopping rule's quantity.
	Residual float64
	// Tol is the tolerance it was compared with.
	Tol float64
	// Hint says which setting to change (e.g. "raise MaxIter or Tol").
	Hint string
	// Err is the solver's own error, when it has one.
	Err error
}

func (e *NotConvergedError) Error() string {
	s := fmt.Sprintf("%s: %s did not converge: relative residual %.3g > tolerance %.3g after %d iterations", e.Model, e.Method, e.Residual, e.Tol, e.Iterations)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *NotConvergedError) Unwrap() error { return e.Err }

// Info holds the counters every model's Info reports under these names.
type Info struct {
	Iterations int
	Residual   float64
	Products   int
}

// NewNodes are nodes that were not in the graph at fit time, given by their
// edges to fitted nodes in CSR form: new node i has the edges to fitted
// nodes Nodes[Offsets[i]:Offsets[i+1]] with weights Weights[…] (nil Weights
// means 1 each). Offsets has one entry more than there are new nodes and
// starts at 0.
type NewNodes struct {
	Offsets []int
	Nodes   []int32
	Weights []float64
}

// Len returns the number of new nodes.
func (n NewNodes) Len() int { return max(len(n.Offsets)-1, 0) }

// Row returns the edges of new node i.
func (n NewNodes) Row(i int) (nodes []int32, weights []float64) {
	lo, hi := n.Offsets[i], n.Offsets[i+1]
	if n.Weights != nil {
		weights = n.Weights[lo:hi]
	}
	return n.Nodes[lo:hi], weights
}

// Check validates the structure against a graph of fitted nodes: offsets
// from 0, non-decreasing and ending at len(Nodes), weights as many as
// nodes, every node in [0, fitted), every weight finite and ≥ 0. Errors
// name the new node and edge.
func (n NewNodes) Check(fitted int) error {
	if len(n.Offsets) == 0 {
		return errors.New("NewNodes: Offsets is empty: it needs one entry more than there are new nodes")
	}
	if n.Offsets[0] != 0 || n.Offsets[len(n.Offsets)-1] != len(n.Nodes) {
		return fmt.Errorf("NewNodes: Offsets must start at 0 and end at len(Nodes) = %d", len(n.Nodes))
	}
	if n.Weights != nil && len(n.Weights) != len(n.Nodes) {
		return fmt.Errorf("NewNodes: %d weights for %d edges", len(n.Weights), len(n.Nodes))
	}
	for i := 0; i+1 < len(n.Offsets); i++ {
		lo, hi := n.Offsets[i], n.Offsets[i+1]
		if hi < lo {
			return fmt.Errorf("NewNodes: Offsets[%d] = %d < Offsets[%d] = %d", i+1, hi, i, lo)
		}
		for k := lo; k < hi; k++ {
			if v := n.Nodes[k]; v < 0 || int(v) >= fitted {
				return fmt.Errorf("NewNodes: new node %d, edge %d: fitted node %d is out of range [0, %d)", i, k-lo, v, fitted)
			}
			if n.Weights != nil {
				if w := n.Weights[k]; !(w >= 0) || w > maxFloat {
					return fmt.Errorf("NewNodes: new node %d, edge %d: weight %v must be finite and ≥ 0", i, k-lo, w)
				}
			}
		}
	}
	return nil
}

const maxFloat = 1.7976931348623157e308

// ErrJSON is returned by the MarshalJSON and UnmarshalJSON of fitted
// models: their state is not JSON; MarshalBinary writes it.
var ErrJSON = errors.New("a gssl model does not encode as JSON: use MarshalBinary/UnmarshalBinary (a .gssl model file)")

// MaxMagnitude bounds the weights, degrees, features, coordinates and
// targets gssl accepts, from files, requests and model files alike. Finite
// values beyond it overflow in the arithmetic that follows: a square
// (distances, norms: √MaxFloat64 ≈ 1.3e154), a sum of many (degrees, row
// normalisations) or a product of two (kernels), and the answer would
// become NaN, zero or the class prior without a word.
const MaxMagnitude = 1e150
