package protocol

import "github.com/gssl/gssl/svm"

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

// SVMTable is the table of the predictions pred of t's rows to predict
// by model: id, set, the predicted class, the decision value of every
// one-vs-one machine ("decision_a_vs_b": positive means a) and the true
// class.
func SVMTable(t *PointTask, model *svm.PointSVC, pred []int) (PredictionTable, error) {
	dec, err := model.Decision(t.XTest)
	if err != nil {
		return PredictionTable{}, err
	}
	cols, cls := []string{"id", "set", "prediction"}, model.Classes()
	for a := 0; a < len(cls); a++ {
		for b := a + 1; b < len(cls); b++ {
			cols = append(cols, "decision_"+t.ClassNames[cls[a]]+"_vs_"+t.ClassNames[cls[b]])
		}
	}
	_, pairs := dec.Dims()
	return PredictionTable{Columns: append(cols, "label"), Rows: len(pred), Row: func(r int, rec []any) {
		rec[0], rec[1], rec[2] = t.IDs[r], t.Sets[r], t.ClassNames[pred[r]]
		for p := 0; p < pairs; p++ {
			rec[3+p] = dec.At(r, p)
		}
		rec[len(rec)-1] = t.className(t.Truth[r])
	}}, nil
}
