package main

import (
	"context"
	"errors"
	"os"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// Status codes of the C functions (gssl.h's GSSL_E… constants, and the
// Python package's exception table).
const (
	codeOK           = 0
	codeInvalid      = 1 // bad argument or data: ValueError
	codeNoMemory     = 2 // an allocation the input asks for is refused: MemoryError
	codeNotFitted    = 3 // predict before fit: NotFittedError
	codeCancelled    = 4 // the call was cancelled: KeyboardInterrupt
	codeNotConverged = 5 // the solver stopped at its cap: a warning with the model kept
	codeIO           = 6 // a file could not be read or written: OSError
	codeHandle       = 7 // a stale or wrong-kind handle: ValueError
	codeInternal     = 8 // a bug (a recovered panic): RuntimeError
	codeFormat       = 9 // a model or graph file is malformed or of another kind: ValueError
)

// errNoMemory marks an allocation capi refuses before making it.
var errNoMemory = errors.New("not enough memory")

func codeOf(err error) int32 {
	var nc *estimator.NotConvergedError
	var mfe *modelfile.Error
	var pe *os.PathError
	switch {
	case err == nil:
		return codeOK
	case errors.Is(err, context.Canceled):
		return codeCancelled
	case errors.Is(err, estimator.ErrNotFitted):
		return codeNotFitted
	case errors.Is(err, errHandle):
		return codeHandle
	case errors.Is(err, errNoMemory):
		return codeNoMemory
	case errors.As(err, &nc):
		return codeNotConverged
	case errors.As(err, &mfe), errors.Is(err, modelfile.ErrKind):
		return codeFormat
	case errors.As(err, &pe):
		return codeIO
	case errors.Is(err, errPanic):
		return codeInternal
	}
	return codeInvalid
}

var errPanic = errors.New("internal error")
