package eval

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Metric is how a node classifier's predictions are scored, in selection
// and in reports.
type Metric int

const (
	// MetricAccuracy is the fraction of items whose first maximal score is
	// their class.
	MetricAccuracy Metric = iota
	// MetricROCAUC is the area under the ROC curve: of class 1's scores for
	// two classes, the mean one-vs-rest area over classes otherwise
	// (MacroROCAUC). It scores the ranking, not the decision, so a model
	// that always answers the majority class of an imbalanced task gets
	// 0.5, not the majority's share.
	MetricROCAUC
)

// ParseMetric reads "accuracy" or "auc".
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "accuracy":
		return MetricAccuracy, nil
	case "auc":
		return MetricROCAUC, nil
	}
	return 0, fmt.Errorf("metric %q is not one of accuracy, auc", s)
}

// MetricFor is ParseMetric that also reads "auto" (or ""): the
// ConventionalMetric of a task of this many classes.
func MetricFor(s string, classes int) (Metric, error) {
	if s == "auto" || s == "" {
		return ConventionalMetric(classes), nil
	}
	if m, err := ParseMetric(s); err == nil {
		return m, nil
	}
	return 0, fmt.Errorf("metric %q is not one of accuracy, auc, auto", s)
}

// ConventionalMetric is the metric node-classification benchmarks report
// for a task of this many classes: ROC AUC for binary tasks (whose classes
// are usually imbalanced; Platonov et al., ICLR 2023), accuracy otherwise.
func ConventionalMetric(classes int) Metric {
	if classes == 2 {
		return MetricROCAUC
	}
	return MetricAccuracy
}

func (m Metric) String() string {
	if m == MetricROCAUC {
		return "auc"
	}
	return "accuracy"
}

// Score scores the rows of p in idx (nil = all) with a known label.
func (m Metric) Score(p mat.Matrix, labels []int, idx []int) (float64, error) {
	if m == MetricROCAUC {
		return MacroROCAUC(p, labels, idx)
	}
	return Accuracy(estimator.Argmax(p), labels, idx)
}
