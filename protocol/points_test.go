package protocol

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/svm"
)

// TestNewPointTask: the rows with a value train, the others and the test
// points are predicted in that order; integer classes are one class
// however written, and a test class no training point has is −2.
func TestNewPointTask(t *testing.T) {
	x := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	s := &loaders.PointSet{Name: "p", X: x, Values: []string{"7", "", "07", "3", ""}, IDs: []string{"a", "b", "c", "d", "e"},
		XTest: mat.NewDense(2, 1, []float64{10, 11}), TestValues: []string{"9", "3"}, TestIDs: []string{"t", "u"}}
	task, err := NewPointTask(s, true)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 2, 3}, task.X.RawMatrix().Data)
	assert.Equal(t, []float64{1, 4, 10, 11}, task.XTest.RawMatrix().Data)
	assert.Equal(t, []string{"3", "7"}, task.ClassNames)
	assert.Equal(t, []int{1, 1, 0}, task.Y)
	assert.Equal(t, []int{-1, -1, -2, 0}, task.Truth)
	assert.Equal(t, []string{"b", "e", "t", "u"}, task.IDs)
	assert.Equal(t, []string{"features", "features", "test-features", "test-features"}, task.Sets)

	s.Targets, s.TestTargets = []float64{7, math.NaN(), 7, 3, math.NaN()}, []float64{9, 3}
	reg, err := NewPointTask(s, false)
	require.NoError(t, err)
	assert.Equal(t, []float64{7, 7, 3}, reg.Targets)
	assert.True(t, math.IsNaN(reg.TruthTargets[0]) && math.IsNaN(reg.TruthTargets[1]))
	assert.Equal(t, []float64{9, 3}, reg.TruthTargets[2:])

	s.Values = []string{"", "", "", "", ""}
	_, err = NewPointTask(s, true)
	assert.ErrorContains(t, err, "no point has a value")
}

// TestFitPredict: the predictions are those of the same model fitted by
// hand, and the error rates and RMSE are counted here from them.
func TestFitPredict(t *testing.T) {
	x, y2 := krrProblem(3, 120, 2)
	xt, yt2 := krrProblem(4, 30, 2)
	cls := func(y *mat.Dense) []int {
		out := make([]int, y.RawMatrix().Rows)
		for i := range out {
			if y.At(i, 0) > 0 {
				out[i] = 1
			}
		}
		return out
	}
	task := &PointTask{Name: "c", X: x, XTest: xt, ClassNames: []string{"neg", "pos"}, Y: cls(y2), Truth: cls(yt2)}
	task.Truth[0] = -1
	newModel := func() *krr.Exact { return &krr.Exact{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3} }
	run, err := FitPredict(context.Background(), newModel(), task, nil)
	require.NoError(t, err)
	ref := newModel()
	oh, err := krr.OneHot(task.Y, 2)
	require.NoError(t, err)
	require.NoError(t, ref.FitTargets(context.Background(), x, oh))
	pt, err := ref.PredictTargets(context.Background(), xt)
	require.NoError(t, err)
	assert.True(t, mat.Equal(pt, run.Test))
	wrong, known := 0, 0
	pred := estimator.Argmax(pt)
	for i, c := range task.Truth {
		if c >= 0 {
			known++
			if pred[i] != c {
				wrong++
			}
		}
	}
	assert.Equal(t, float64(wrong)/float64(known), run.Score.ErrorRate)
	assert.True(t, math.IsNaN(run.Score.RMSE))

	// Regression on the first output column.
	col := func(y *mat.Dense) []float64 { return mat.Col(nil, 0, y) }
	reg := &PointTask{Name: "r", X: x, XTest: xt, Targets: col(y2), TruthTargets: col(yt2)}
	run, err = FitPredict(context.Background(), newModel(), reg, nil)
	require.NoError(t, err)
	ss := 0.0
	for i, v := range reg.TruthTargets {
		d := run.Test.At(i, 0) - v
		ss += d * d
	}
	assert.InDelta(t, math.Sqrt(ss/float64(len(reg.TruthTargets))), run.Score.RMSE, 1e-12)
	assert.Less(t, run.Score.RMSE, 0.5, "a smooth target is learnt")

	reg.TruthTargets = []float64{math.NaN()}
	reg.XTest = mat.NewDense(1, 2, nil)
	run, err = FitPredict(context.Background(), newModel(), reg, nil)
	require.NoError(t, err)
	assert.Contains(t, run.Score.Reason, "no predicted point has a known target")
}

// TestFitClassify: two moons split in halves; the accuracies are counted
// here from the model's own predictions, a class no training point has
// counting as wrong.
func TestFitClassify(t *testing.T) {
	x, labels, err := svm.TwoMoons(200, 0.1, 1)
	require.NoError(t, err)
	task, err := FirstRowsTask("moons", x, labels, 100)
	require.NoError(t, err)
	task.Truth[0] = -2
	model := &svm.PointSVC{Kernel: kernel.Gaussian{Sigma: 0.5}, C: 1}
	run, err := FitClassify(context.Background(), model, task)
	require.NoError(t, err)
	votes, err := model.Predict(context.Background(), task.XTest)
	require.NoError(t, err)
	pred := estimator.Argmax(votes)
	assert.Equal(t, pred, run.Classes)
	right := 0
	for i, c := range task.Truth {
		if pred[i] == c {
			right++
		}
	}
	assert.Equal(t, float64(right)/float64(len(task.Truth)), run.Accuracy)
	assert.Greater(t, run.Accuracy, 0.9)
	_, err = FirstRowsTask("moons", x, labels, 200)
	assert.ErrorContains(t, err, "train=200 is invalid")
}

// TestRunGP: the predictions are a GP fitted by hand on the standardised
// targets and mapped back; RMSE and NLL are computed here from them.
func TestRunGP(t *testing.T) {
	x, y2 := krrProblem(5, 60, 2)
	xt, yt2 := krrProblem(6, 20, 2)
	y, yt := mat.Col(nil, 0, y2), mat.Col(nil, 0, yt2)
	for i := range y {
		y[i] = 10 + 3*y[i]
	}
	for i := range yt {
		yt[i] = 10 + 3*yt[i]
	}
	y[4], y[9] = math.NaN(), math.NaN()
	s := &loaders.PointSet{Name: "g", X: x, Targets: y, XTest: xt, TestTargets: yt, IDs: loaders.RowNumbers(60), TestIDs: loaders.RowNumbers(20)}
	task, err := NewRegressionTask(s)
	require.NoError(t, err)
	require.Len(t, task.Labelled, 58)
	run, err := RunGP(context.Background(), &gp.Regressor{Fixed: true}, task)
	require.NoError(t, err)
	require.Len(t, run.Predictions, 22)

	var known []float64
	for _, v := range y {
		if !math.IsNaN(v) {
			known = append(known, v)
		}
	}
	mean, sd := 0.0, 0.0
	for _, v := range known {
		mean += v / float64(len(known))
	}
	for _, v := range known {
		sd += (v - mean) * (v - mean) / float64(len(known))
	}
	sd = math.Sqrt(sd)
	std := make([]float64, len(task.Labelled))
	for p, i := range task.Labelled {
		std[p] = (y[i] - mean) / sd
	}
	ref := &gp.Regressor{Fixed: true}
	require.NoError(t, ref.Fit(context.Background(), Rows(x, task.Labelled), std))
	pr, err := ref.Predict(context.Background(), xt)
	require.NoError(t, err)
	noise := ref.Hyperparameters().Noise
	ss, nll := 0.0, 0.0
	for i := range yt {
		p := run.Predictions[2+i]
		m, v := mean+sd*pr.Mean[i], sd*sd*(pr.Variance[i]+noise)
		assert.InDelta(t, m, p.Mean, 1e-9)
		assert.InDelta(t, v, p.Observation, 1e-9)
		assert.Equal(t, "test-features", p.Set)
		ss += (m - yt[i]) * (m - yt[i])
		nll += 0.5*math.Log(2*math.Pi*v) + (m-yt[i])*(m-yt[i])/(2*v)
	}
	assert.InDelta(t, math.Sqrt(ss/20), run.RMSE, 1e-9)
	assert.InDelta(t, nll/20, run.NLL, 1e-9)
	assert.Equal(t, "4", run.Predictions[0].ID)
	assert.True(t, math.IsNaN(run.Predictions[0].Target))

	assert.Error(t, task.Label("", 0.5, 1), "the user's points are labelled by their targets")
	bench := &RegressionTask{X: x, Y: y}
	assert.ErrorContains(t, bench.Label("", 1.5, 0), "fraction 1.5 is invalid")
	require.NoError(t, bench.Label("", 0.5, 3))
	assert.Len(t, bench.Labelled, 30)
}

// TestReadLabelled: indices outside the rows are refused with their line.
func TestReadLabelled(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/s.txt"
	require.NoError(t, writeText(path, "3\n99\n"))
	_, err := ReadLabelled(path, 10)
	assert.ErrorContains(t, err, "line 2: index 99 is not a training point in [0, 10)")
	require.NoError(t, writeText(path, "3\n0\n"))
	idx, err := ReadLabelled(path, 10)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 0}, idx)
}

func writeText(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

// TestSubsetFiles: fraction f and seed s name train_subset<100f>_seed<s>.txt
// as scripts/imgp_subsets.py writes them.
func TestSubsetFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writeText(dir+"/train_subset10_seed0.txt", "1\n2\n"))
	require.NoError(t, writeText(dir+"/train_subset0.5_seed3.txt", "4\n"))
	sub := SubsetFiles(dir, 5)
	idx, err := sub(0.1, 0)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, idx)
	idx, err = sub(0.005, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{4}, idx)
	_, err = sub(0.2, 0)
	assert.ErrorContains(t, err, "train_subset20_seed0.txt")
}
