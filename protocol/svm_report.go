package protocol

// ClassifierReport sums up a FitClassify run for a reader (gssl svm prints
// it, with the machine's own counts): the data and the accuracies, nil
// (with AccuracyReason) where undefined.
type ClassifierReport struct {
	Data           string  `json:"data"`
	Points         int     `json:"points"`
	Dims           int     `json:"dims"`
	Classes        int     `json:"classes"`
	Train          int     `json:"train"`
	Test           int     `json:"test"`
	Accuracy       any     `json:"accuracy"`
	AccuracyReason string  `json:"accuracy_reason,omitempty"`
	TrainAccuracy  any     `json:"train_accuracy"`
	FitSeconds     float64 `json:"fit_seconds"`
}

// NewClassifierReport sums up run, the FitClassify of a classifier on t.
func NewClassifierReport(t *PointTask, run *ClassifierRun) ClassifierReport {
	n, d := t.X.Dims()
	m := rowCount(t.XTest)
	return ClassifierReport{Data: t.Name, Points: n + m, Dims: d, Classes: len(t.ClassNames), Train: n, Test: m,
		Accuracy: number(run.Accuracy), AccuracyReason: run.Reason, TrainAccuracy: number(run.TrainAccuracy), FitSeconds: run.Fit.Seconds()}
}
