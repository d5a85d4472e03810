package estimator

import "fmt"

// FieldError is an invalid hyperparameter or setting: the exported field
// that holds it (its Go name, such as "MaxIter"), its value and the valid
// range. Front ends that name settings their own way (a command-line flag,
// a keyword argument) map Field to their name. Package, when set, starts
// the message, as every library error starts with its package's name.
type FieldError struct {
	Package string
	Field   string
	Value   any
	Reason  string // the valid range: "it must be ≥ 1 (0 means 100)"
}

func (e *FieldError) Error() string {
	head := ""
	if e.Package != "" {
		head = e.Package + ": "
	}
	v := e.Value
	if s, ok := v.(string); ok {
		v = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%s%s = %v is invalid: %s", head, e.Field, v, e.Reason)
}
