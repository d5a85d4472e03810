package estimator

import "fmt"

// Output says what the rows of a classifier's Predict hold.
type Output int

const (
	// Probabilities: each row is a distribution over the classes (finite,
	// ≥ 0, summing to 1).
	Probabilities Output = iota + 1
	// DecisionValues: scores, votes or regression outputs whose row's
	// first maximum is the predicted class, and nothing more; they are not
	// probabilities and may be negative or sum to anything.
	DecisionValues
)

// String returns the name front ends show: "probabilities" or
// "decision_values" (the C ABI's and Python's spelling).
func (o Output) String() string {
	switch o {
	case Probabilities:
		return "probabilities"
	case DecisionValues:
		return "decision_values"
	}
	return fmt.Sprintf("Output(%d)", int(o))
}

// OutputDeclarer is implemented by every classifier: Output declares what
// its Predict returns with its current hyperparameters (it may depend on
// them, so it is a method, not a property of the kind). A front end asks it
// instead of guessing: Python's predict_proba exists only for
// Probabilities, scikit-learn's convention.
type OutputDeclarer interface {
	Output() Output
}

// OutputOf returns the Output m declares, and false when m declares none
// (m is not a classifier).
func OutputOf(m any) (Output, bool) {
	d, ok := m.(OutputDeclarer)
	if !ok {
		return 0, false
	}
	return d.Output(), true
}
