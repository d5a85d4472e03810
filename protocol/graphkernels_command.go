package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graphkernels"
)

// graphKernelFlags are a GraphKernelStudy's fields as Validate names them,
// and the flags of gssl graphkernel that set them.
var graphKernelFlags = strings.NewReplacer("protocol: ", "graphkernel: ", "Kernel.Name=", "--kernel ", "Kernel.Name ", "--kernel ", "Kernel.H=", "--h ",
	"SelectH", "--select-h", "GramRuns=", "--gram-runs ", "Heights", "--heights", "Evaluation.Seeds=", "--seeds ", "Evaluation.Seeds", "--seeds",
	"Evaluation.Grid", "--grid", "Evaluation.OuterFolds=", "--folds ", "Evaluation.InnerFolds=", "--inner-folds ")

// ParseMachine reads the classifier of a graph-kernel study: svm or ridge.
func ParseMachine(name string) (graphkernels.Machine, error) {
	switch name {
	case "svm":
		return graphkernels.SVM, nil
	case "ridge":
		return graphkernels.Ridge, nil
	}
	return graphkernels.SVM, fmt.Errorf("graphkernel: --classifier %q is invalid: want svm or ridge", name)
}

// CheckCommand validates s as gssl graphkernel sets it, naming the flags:
// what can be saved (Refit), then Validate.
func (s GraphKernelStudy) CheckCommand() error {
	switch {
	case s.Refit && s.Kernel.Name != KernelWL && s.Kernel.Name != KernelVH:
		return fmt.Errorf("graphkernel: --save with --kernel %s: only the wl and vh kernels can be saved (as graphkernels.WLClassifier; vh is WL of height 0), not sp or rw", s.Kernel.Name)
	case s.Refit && s.Evaluation.Machine != graphkernels.SVM:
		return errors.New("graphkernel: --save with --classifier ridge: only --classifier svm can be saved (graphkernels.WLClassifier is a C-SVM)")
	}
	if err := s.Validate(); err != nil {
		return &renamedError{graphKernelFlags.Replace(err.Error()), err}
	}
	return nil
}

// renamedError is an error retold with other names for its fields.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// PredictionTable is the table of the outer folds' predictions of r's
// evaluation (nil: no table): per graph its label, fold and prediction by
// class name (labels are the graphs' classes, names their names).
func (r *GraphKernelStudyResult) PredictionTable(labels []int, names []string) (cols []string, rows int, row func(i int, rec []any)) {
	er := r.Evaluation
	if er == nil {
		return nil, 0, nil
	}
	name := func(c int) any {
		if c < 0 || c >= len(names) {
			return nil
		}
		return names[c]
	}
	return []string{"graph", "label", "fold", "prediction"}, len(labels), func(i int, rec []any) {
		rec[0], rec[1], rec[2], rec[3] = i+1, name(labels[i]), er.Fold[i], name(er.Prediction[i])
	}
}

// FoldCount is a number of outer folds as a command-line value (a
// pflag.Value): a file of fold assignments, which the flag once took, is
// refused with a pointer to --fold-file.
type FoldCount int

func (f *FoldCount) String() string { return strconv.Itoa(int(*f)) }
func (f *FoldCount) Type() string   { return "int" }
func (f *FoldCount) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a number of folds (a file of fold assignments is --fold-file FILE)", s)
	}
	*f = FoldCount(v)
	return nil
}
