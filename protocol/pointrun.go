package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/krr"
)

// PointScore is the score of predictions of a PointTask's test points:
// the error rate (classification) or the RMSE (regression) over the points
// whose true value is known; NaN, with Reason, when none is.
type PointScore struct {
	ErrorRate, RMSE float64
	Reason          string
}

// TargetMatrix is the n × C one-hot matrix of t's classes, or the n × 1
// column of its regression targets: what a krr.MultiOutput fits.
func (t *PointTask) TargetMatrix() (*mat.Dense, error) {
	if t.Regression() {
		if len(t.Targets) == 0 {
			return nil, errors.New("protocol: no regression targets")
		}
		return mat.NewDense(len(t.Targets), 1, append([]float64(nil), t.Targets...)), nil
	}
	return krr.OneHot(t.Y, len(t.ClassNames))
}

// TestScore scores pred, the predictions of XTest (a TargetMatrix-shaped
// row per point: class scores whose argmax is the class, or the target).
func (t *PointTask) TestScore(pred *mat.Dense) PointScore {
	s := PointScore{ErrorRate: math.NaN(), RMSE: math.NaN()}
	if t.Regression() {
		var p, truth []float64
		for i, v := range t.TruthTargets {
			if !math.IsNaN(v) {
				p, truth = append(p, pred.At(i, 0)), append(truth, v)
			}
		}
		if len(truth) == 0 {
			s.Reason = "no predicted point has a known target (--test-targets)"
			return s
		}
		s.RMSE, _ = eval.RMSE(p, truth)
		return s
	}
	if pred == nil {
		s.Reason = "nothing to predict"
		return s
	}
	classes := estimator.Argmax(pred)
	var p, truth []int
	for i, c := range t.Truth {
		if c != -1 {
			p, truth = append(p, classes[i]), append(truth, c)
		}
	}
	if len(truth) == 0 {
		s.Reason = "no predicted point has a known label (--test-labels)"
		return s
	}
	s.ErrorRate = errorRate(p, truth)
	return s
}

// trainScore is the error rate or RMSE of pred, the predictions of X.
func (t *PointTask) trainScore(pred *mat.Dense) float64 {
	if t.Regression() {
		col := make([]float64, len(t.Targets))
		for i := range col {
			col[i] = pred.At(i, 0)
		}
		r, _ := eval.RMSE(col, t.Targets)
		return r
	}
	return errorRate(estimator.Argmax(pred), t.Y)
}

// errorRate is the fraction of pred that differs from truth.
func errorRate(pred, truth []int) float64 {
	wrong := 0
	for i, p := range pred {
		if p != truth[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(truth))
}

// PointRun is the outcome of FitPredict.
type PointRun struct {
	// Train and Test are the predictions of X and XTest (Test nil without
	// test points).
	Train, Test *mat.Dense
	// Fit and Predict time the fit and the prediction of XTest; Seconds is
	// their sum as one wall-clock span and CPUSeconds the CPU time the
	// process spent in it (0 without a CPU clock).
	Fit, Predict        time.Duration
	Seconds, CPUSeconds float64
	// TrainScore is the error rate (or RMSE) on X, Score that on XTest.
	TrainScore float64
	Score      PointScore
}

// FitPredict fits model on t's training points (one-hot classes or the
// target column, TargetMatrix) and predicts XTest, timing the two as
// kernel ridge benchmarks time their methods (fit + prediction of the test
// points from data in memory); the training points are predicted after,
// outside the timed span. cpu, if not nil, reads the process's CPU
// seconds around that span.
func FitPredict(ctx context.Context, model krr.MultiOutput, t *PointTask, cpu func() float64) (*PointRun, error) {
	if model == nil || t == nil || t.X == nil {
		return nil, errors.New("protocol: FitPredict needs a model and a task with training points")
	}
	y, err := t.TargetMatrix()
	if err != nil {
		return nil, err
	}
	if cpu == nil {
		cpu = func() float64 { return 0 }
	}
	run := &PointRun{}
	t0, cpu0 := time.Now(), cpu()
	if err := model.FitTargets(ctx, t.X, y); err != nil {
		return nil, err
	}
	run.Fit = time.Since(t0)
	t1 := time.Now()
	if t.XTest != nil {
		if run.Test, err = model.PredictTargets(ctx, t.XTest); err != nil {
			return nil, err
		}
	}
	run.Predict = time.Since(t1)
	run.Seconds = time.Since(t0).Seconds()
	run.CPUSeconds = cpu() - cpu0
	if run.Train, err = model.PredictTargets(ctx, t.X); err != nil {
		return nil, err
	}
	run.TrainScore, run.Score = t.trainScore(run.Train), t.TestScore(run.Test)
	return run, nil
}

// ClassifierRun is the outcome of FitClassify.
type ClassifierRun struct {
	// Fit is the duration of the fit.
	Fit time.Duration
	// Classes is the predicted class of every row of XTest: the argmax of
	// the model's Predict.
	Classes []int
	// TrainAccuracy is the accuracy on X; Accuracy that on the rows of
	// XTest with a known class (a class no training point has is wrong),
	// NaN with Reason when there are none.
	TrainAccuracy, Accuracy float64
	Reason                  string
}

// FitClassify fits a point classifier on t's training points, timed, and
// predicts X and XTest with it.
func FitClassify(ctx context.Context, model estimator.PointClassifier, t *PointTask) (*ClassifierRun, error) {
	if model == nil || t == nil || t.X == nil || t.XTest == nil {
		return nil, errors.New("protocol: FitClassify needs a model and a task with training and test points")
	}
	if t.Regression() {
		return nil, fmt.Errorf("protocol: %s has regression targets, not classes", t.Name)
	}
	start := time.Now()
	if err := model.Fit(ctx, t.X, t.Y); err != nil {
		return nil, err
	}
	run := &ClassifierRun{Fit: time.Since(start), Accuracy: math.NaN()}
	train, err := model.Predict(ctx, t.X)
	if err != nil {
		return nil, err
	}
	run.TrainAccuracy = 1 - errorRate(estimator.Argmax(train), t.Y)
	test, err := model.Predict(ctx, t.XTest)
	if err != nil {
		return nil, err
	}
	run.Classes = estimator.Argmax(test)
	right, known := 0, 0
	for i, c := range t.Truth {
		if c != -1 {
			known++
			if run.Classes[i] == c {
				right++
			}
		}
	}
	if known == 0 {
		run.Reason = "no predicted point has a known class (--test-labels)"
	} else {
		run.Accuracy = float64(right) / float64(known)
	}
	return run, nil
}
