package protocol

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/krr"
)

// KRRReport sums up a FitPredict run of a Nyström kernel ridge model built
// from a krr.Spec, for a reader (gssl falkon prints it, and its JSON is the
// command's): the data, the settings, what the solver did and the scores.
// A score that does not exist is nil (null in JSON).
type KRRReport struct {
	Data string `json:"data"`
	krr.Spec
	Train          int     `json:"n_train"`
	Test           int     `json:"n_test"`
	Dim            int     `json:"d"`
	M              int     `json:"m"` // centres used
	Iterations     int     `json:"iterations"`
	Products       string  `json:"products,omitempty"`
	Residual       any     `json:"residual,omitempty"`
	Jitter         float64 `json:"jitter"`
	JitterRaises   int     `json:"jitter_raises"`
	DroppedCentres int     `json:"dropped_centres"`
	Task           string  `json:"task"` // classification or regression
	Classes        int     `json:"classes,omitempty"`
	Predicted      int     `json:"n_predicted"`
	TestError      any     `json:"test_error"`
	TestRMSE       any     `json:"test_rmse,omitempty"`
	TestReason     string  `json:"test_error_reason,omitempty"`
	TrainError     any     `json:"train_error"`
	TrainRMSE      any     `json:"train_rmse,omitempty"`
	Seconds        float64 `json:"seconds"`
	CPUSeconds     float64 `json:"cpu_seconds"`
	FitSeconds     float64 `json:"fit_seconds"`
	PredictSeconds float64 `json:"predict_seconds"`
}

// task names t's task.
func (t *PointTask) task() string {
	if t.Regression() {
		return "regression"
	}
	return "classification"
}

// NewKRRReport sums up run, the FitPredict of model (built by spec.Model)
// on t: the centres, iterations and jitter the solver used, the train and
// test scores (error rate, or RMSE for regression) and the times.
func NewKRRReport(spec krr.Spec, model krr.MultiOutput, t *PointTask, run *PointRun) KRRReport {
	n, d := t.X.Dims()
	r := KRRReport{Data: t.Name, Spec: spec, Train: n, Dim: d, M: spec.M, Task: t.task(), Classes: len(t.ClassNames),
		Test: rowCount(t.XTest), Predicted: rowCount(t.XTest)}
	if t.Regression() {
		r.TrainRMSE = number(run.TrainScore)
	} else {
		r.TrainError = number(run.TrainScore)
	}
	r.TestError, r.TestRMSE, r.TestReason = number(run.Score.ErrorRate), number(run.Score.RMSE), run.Score.Reason
	r.FitSeconds, r.PredictSeconds, r.Seconds, r.CPUSeconds = run.Fit.Seconds(), run.Predict.Seconds(), run.Seconds, run.CPUSeconds
	switch m := model.(type) {
	case *krr.Falkon:
		info := m.Details()
		r.M, r.Iterations, r.Products, r.Residual = len(info.Centres), info.Iterations, info.Products.String(), number(info.Residual)
		r.Jitter, r.JitterRaises, r.DroppedCentres = info.Jitter, info.JitterRaises, len(info.DroppedCentres)
	case *krr.Nystrom:
		r.M = len(m.CentreIndices())
		r.Jitter, r.JitterRaises, r.DroppedCentres = m.JitterUsed(), m.JitterRaises(), len(m.DroppedCentres())
	}
	return r
}

// rowCount is the number of rows of x, 0 for nil.
func rowCount(x *mat.Dense) int {
	if x == nil {
		return 0
	}
	r, _ := x.Dims()
	return r
}

// KRRSweepReport is the outcome of SweepKRR: the data, the settings and one
// KRRSweepPoint per number of centres.
type KRRSweepReport struct {
	Data string `json:"data"`
	krr.Spec
	Train      int             `json:"n_train"`
	Test       int             `json:"n_test"`
	Dim        int             `json:"d"`
	Task       string          `json:"task"`
	Classes    int             `json:"classes,omitempty"`
	TestReason string          `json:"test_error_reason,omitempty"`
	Sweep      []KRRSweepPoint `json:"sweep"`
}

// KRRSweepPoint is one M of a sweep: the centres used, the test score
// (error rate, or RMSE for regression; nil without one) and the times.
type KRRSweepPoint struct {
	M              int     `json:"m"`
	CentresUsed    int     `json:"centres_used"`
	TestError      any     `json:"test_error,omitempty"`
	TestRMSE       any     `json:"test_rmse,omitempty"`
	FitSeconds     float64 `json:"fit_seconds"`
	PredictSeconds float64 `json:"predict_seconds"`
	Iterations     int     `json:"iterations,omitempty"`
	JitterRaises   int     `json:"jitter_raises,omitempty"`
}

// Score is the point's test score: the error rate, or the RMSE of a
// regression; nil when there is none.
func (p KRRSweepPoint) Score() any {
	if p.TestRMSE != nil {
		return p.TestRMSE
	}
	return p.TestError
}

// SweepKRR fits model (built by spec.Model) once per number of centres in
// ms on t's training points and scores each on t's test points
// (SweepCentres: uniform centres are nested). Every M must be in [1, n].
func SweepKRR(ctx context.Context, spec krr.Spec, model krr.MultiOutput, t *PointTask, ms []int) (*KRRSweepReport, error) {
	n, d := t.X.Dims()
	for i, m := range ms {
		if m < 1 {
			return nil, &estimator.FieldError{Package: "krr", Field: "M", Value: m, Reason: fmt.Sprintf("every M of a sweep must be ≥ 1 (value %d)", i+1)}
		}
		if m > n {
			return nil, &estimator.FieldError{Package: "krr", Field: "M", Value: m, Reason: fmt.Sprintf("there are %d training points (every M must be in [1, %d])", n, n)}
		}
	}
	y, err := t.TargetMatrix()
	if err != nil {
		return nil, err
	}
	pts, err := SweepCentres(ctx, model, ms, t.X, y, t.XTest)
	if err != nil {
		return nil, err
	}
	r := &KRRSweepReport{Data: t.Name, Spec: spec, Train: n, Test: rowCount(t.XTest), Dim: d, Task: t.task(), Classes: len(t.ClassNames)}
	for _, p := range pts {
		sc := t.TestScore(p.Prediction)
		r.TestReason = sc.Reason
		r.Sweep = append(r.Sweep, KRRSweepPoint{M: p.M, CentresUsed: p.Centres, FitSeconds: p.FitSeconds, PredictSeconds: p.PredictSeconds,
			Iterations: p.Info.Iterations, JitterRaises: p.Info.JitterRaises, TestError: number(sc.ErrorRate), TestRMSE: number(sc.RMSE)})
	}
	return r, nil
}

// PredictionTable is a table of predictions, one row per predicted point:
// the column names and Row, which fills rec (one value per column; nil
// for a missing value) for row r.
type PredictionTable struct {
	Columns []string
	Rows    int
	Row     func(r int, rec []any)
}

// KRRTable is the table of p, the predictions of t's rows to predict
// (FitPredict's Test): id, set, then the prediction and the true target of
// a regression, or the predicted class, the score of every class
// (score_<class>, the ridge outputs whose argmax is the prediction) and
// the true class.
func (t *PointTask) KRRTable(p *mat.Dense) PredictionTable {
	if t.Regression() {
		return PredictionTable{Columns: []string{"id", "set", "prediction", "target"}, Rows: len(t.IDs), Row: func(r int, rec []any) {
			rec[0], rec[1], rec[2], rec[3] = t.IDs[r], t.Sets[r], p.At(r, 0), t.TruthTargets[r]
		}}
	}
	cols := []string{"id", "set", "prediction"}
	for _, c := range t.ClassNames {
		cols = append(cols, "score_"+c)
	}
	pred := estimator.Argmax(p)
	return PredictionTable{Columns: append(cols, "label"), Rows: len(t.IDs), Row: func(r int, rec []any) {
		rec[0], rec[1], rec[2] = t.IDs[r], t.Sets[r], t.ClassNames[pred[r]]
		for c := range t.ClassNames {
			rec[3+c] = p.At(r, c)
		}
		rec[len(rec)-1] = t.className(t.Truth[r])
	}}
}

// className is the name of class c, nil for an unknown class (−1).
func (t *PointTask) className(c int) any {
	if c < 0 {
		return nil
	}
	return t.ClassNames[c]
}
