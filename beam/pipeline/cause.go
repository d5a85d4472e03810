package pipeline

import "strings"

// causePrefixes start the messages of this package's and the core's errors
// inside a runner's job failure.
var causePrefixes = []string{"loaders: ", "pipeline: ", "labelprop: ", "--out "}

// causeError is the message of a pipeline's own error, cut from the
// runner's report of the failed job around it.
type causeError struct {
	msg string
	err error
}

func (e *causeError) Error() string { return e.msg }
func (e *causeError) Unwrap() error { return e.err }

// Cause returns the error a DoFn of this package failed the job with (a
// *loaders.ParseError's text, a missing label, …) when err is a runner's
// job failure that reports one — runners wrap it in the plan of the failed
// bundle — and err itself otherwise. The result unwraps to err.
func Cause(err error) error {
	if err == nil {
		return nil
	}
	s := err.Error()
	at := -1
	for _, p := range causePrefixes {
		if k := strings.LastIndex(s, "\n"+p); k > at {
			at = k
		}
	}
	if at < 0 {
		return err
	}
	msg := strings.TrimSpace(s[at+1:])
	if k := strings.IndexByte(msg, '\n'); k >= 0 {
		msg = msg[:k]
	}
	return &causeError{msg: msg, err: err}
}
