package estimator

import "fmt"

// FieldError is an invalid hyperparameter or setting: the exported field
// that holds it (its Go name, such as "MaxIter"), its value and the valid
// range. Front ends that name settings their own way (a command-line flag,
// a keyword argument) map Field to their name.
type FieldError struct {
	Field  string
	Value  any
	Reason string // the valid range: "it must be ≥ 1 (0 means 100)"
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s = %v is invalid: %s", e.Field, e.Value, e.Reason)
}
