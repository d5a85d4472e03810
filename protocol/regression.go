package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/loaders"
)

// RegressionTask is the transductive regression setting of gp and imgp:
// every row of X is a point (a graph node for imgp) with its target in Y,
// NaN where unknown; the rows Labelled are fitted on and the others
// predicted; XTest are further points to predict, YTest their targets (nil
// when unknown). Targets are in their own units; Scaling is the
// standardisation the models are fitted in (raw = Mean + Scale·standardised).
type RegressionTask struct {
	Name         string
	X, XTest     *mat.Dense
	Y, YTest     []float64
	IDs, TestIDs []string
	Labelled     []int
	Scaling      imgp.Scaling
	// User says the labelled rows are the rows with a target (the user's
	// points) rather than a subset of a benchmark's known targets.
	User bool
}

// SyntheticRegression is imgp.SyntheticCurve with n nodes (and 500 test
// points): targets in their own units (Scaling is the identity), every
// target known; choose the labelled nodes with Label.
func SyntheticRegression(n int, seed uint64) (*RegressionTask, error) {
	x, y, xt, yt, err := imgp.SyntheticCurve(n, 500, seed)
	if err != nil {
		return nil, err
	}
	t := &RegressionTask{Name: fmt.Sprintf("synthetic-curve-N%d", n), X: x, Y: y, XTest: xt, YTest: yt, Scaling: imgp.Scaling{Scale: 1}}
	return t.withIDs(), nil
}

// ReadImageRegression reads an image regression folder
// (loaders.ReadImageRegression): every training target known, standardised
// by the mean and population standard deviation (ddof 0, as gp.py) of all
// of them; choose the labelled images with Label.
func ReadImageRegression(dir string) (*RegressionTask, error) {
	r, err := loaders.ReadImageRegression(dir)
	if err != nil {
		return nil, err
	}
	t := &RegressionTask{Name: dir, X: r.X, Y: r.Y, XTest: r.XTest, YTest: r.YTest}
	t.Scaling.Mean, t.Scaling.Scale = eval.MeanStd(r.Y)
	if !(t.Scaling.Scale > 0) {
		return nil, fmt.Errorf("protocol: %s: the training targets are all equal; nothing to regress", dir)
	}
	return t.withIDs(), nil
}

// NewRegressionTask is the user's points s (read with numeric values): the
// rows with a target are labelled, the others predicted; the targets are
// standardised by the known ones' mean and population standard deviation
// (scale 1 when they are all equal).
func NewRegressionTask(s *loaders.PointSet) (*RegressionTask, error) {
	if s == nil || s.X == nil {
		return nil, errors.New("protocol: no points")
	}
	if n, _ := s.X.Dims(); len(s.Targets) != n {
		return nil, fmt.Errorf("protocol: %s: %d targets for %d points", s.Name, len(s.Targets), n)
	}
	t := &RegressionTask{Name: s.Name, X: s.X, Y: s.Targets, XTest: s.XTest, YTest: s.TestTargets, IDs: s.IDs, TestIDs: s.TestIDs, User: true}
	var known []float64
	for i, v := range s.Targets {
		if !math.IsNaN(v) {
			known, t.Labelled = append(known, v), append(t.Labelled, i)
		}
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("protocol: %s: no point has a target", s.Name)
	}
	t.Scaling.Mean, t.Scaling.Scale = eval.MeanStd(known)
	if !(t.Scaling.Scale > 0) {
		t.Scaling.Scale = 1 // constant targets: nothing to scale
	}
	return t.withIDs(), nil
}

func (t *RegressionTask) withIDs() *RegressionTask {
	if t.IDs == nil {
		n, _ := t.X.Dims()
		t.IDs = loaders.RowNumbers(n)
	}
	if t.XTest != nil && t.TestIDs == nil {
		m, _ := t.XTest.Dims()
		t.TestIDs = loaders.RowNumbers(m)
	}
	return t
}

// Label chooses the labelled rows of a benchmark task: the indices in the
// file subset (ReadLabelled) when it is not empty, else a seeded fraction
// in (0, 1] of the rows (eval.RandomLabelled). The user's points are
// labelled by their targets and refuse it.
func (t *RegressionTask) Label(subset string, fraction float64, seed uint64) error {
	n, _ := t.X.Dims()
	switch {
	case t.User:
		return errors.New("protocol: the user's points are labelled by their targets")
	case subset != "":
		idx, err := ReadLabelled(subset, n)
		t.Labelled = idx
		return err
	case !(fraction > 0 && fraction <= 1):
		return fmt.Errorf("protocol: labelled fraction %v is invalid: it must be in (0, 1]", fraction)
	}
	lab, err := eval.RandomLabelled(n, fraction, seed)
	t.Labelled = lab
	return err
}

// ReadLabelled reads a file of labelled row indices (loaders.ReadInts) and
// checks each is a row in [0, n).
func ReadLabelled(path string, n int) ([]int, error) {
	idx, err := loaders.ReadInts(path)
	if err != nil {
		return nil, err
	}
	for p, i := range idx {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("protocol: %s line %d: index %d is not a training point in [0, %d)", path, p+1, i, n)
		}
	}
	return idx, nil
}

// standardised maps targets in their own units to the fitted ones.
func (t *RegressionTask) standardised(v []float64) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = (x - t.Scaling.Mean) / t.Scaling.Scale
	}
	return out
}

// Standardised returns the test targets in the fitted units, nil when
// unknown.
func (t *RegressionTask) Standardised() []float64 { return t.standardised(t.YTest) }

// Prediction is one predicted point of a regression run, in the targets'
// units: the rows of X without a target (Set "features") and every row of
// XTest (Set "test-features").
type Prediction struct {
	ID, Set string
	// Mean is the predictive mean, Variance that of the latent function
	// and Observation that of a new observation; Gamma is imgp's blend
	// weight of the graph model (1 on a node); Target is the true target,
	// NaN when unknown.
	Mean, Variance, Observation, Gamma, Target float64
}

// predictions turns predictions in the fitted units (mean, latent
// variance and observation variance per row) into Predictions of rows
// (row < n: a row of X, else row n+i of XTest).
func (t *RegressionTask) predictions(rows []int, mean, latent, obs, gamma []float64) []Prediction {
	n, _ := t.X.Dims()
	sc := t.Scaling
	s2 := sc.Scale * sc.Scale
	yt := t.Standardised()
	out := make([]Prediction, len(rows))
	for k, r := range rows {
		p := Prediction{Set: "features", Mean: sc.Mean + sc.Scale*mean[k], Variance: s2 * latent[k],
			Observation: s2 * obs[k], Gamma: 1, Target: math.NaN()}
		if r < n {
			p.ID = t.IDs[r]
		} else {
			p.ID, p.Set = t.TestIDs[r-n], "test-features"
			if yt != nil {
				p.Target = sc.Mean + sc.Scale*yt[r-n]
			}
		}
		if gamma != nil {
			p.Gamma = gamma[k]
		}
		out[k] = p
	}
	return out
}

// unknownRows are the rows of X whose target is unknown.
func (t *RegressionTask) unknownRows() []int {
	var un []int
	for i, v := range t.Y {
		if math.IsNaN(v) {
			un = append(un, i)
		}
	}
	return un
}

// GPRun is the outcome of RunGP.
type GPRun struct {
	// Predictions are the rows of X without a target, then XTest.
	Predictions []Prediction
	// RMSE and NLL (mean Gaussian negative log-likelihood with the
	// variance of a new observation) of the test points, in the targets'
	// units; NaN, with Reason, when undefined.
	RMSE, NLL float64
	Reason    string
}

// RunGP fits m on t's labelled rows, in the standardised units, and
// predicts the rows of X without a target and XTest. m itself is fitted
// (the caller keeps it).
func RunGP(ctx context.Context, m *gp.Regressor, t *RegressionTask) (*GPRun, error) {
	if m == nil || t == nil || t.X == nil {
		return nil, errors.New("protocol: RunGP needs a model and a task")
	}
	n, _ := t.X.Dims()
	if len(t.Y) != n {
		return nil, fmt.Errorf("protocol: %d targets for %d points", len(t.Y), n)
	}
	y, std := make([]float64, len(t.Labelled)), t.standardised(t.Y)
	for p, i := range t.Labelled {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("protocol: labelled index %d is not a point in [0, %d)", i, n)
		}
		y[p] = std[i]
	}
	if err := m.Fit(ctx, Rows(t.X, t.Labelled), y); err != nil {
		return nil, err
	}
	noise := m.Hyperparameters().Noise
	var rows []int
	var mean, latent []float64
	predict := func(x *mat.Dense, idx []int) error {
		r, err := m.Predict(ctx, x)
		if err != nil {
			return err
		}
		rows, mean, latent = append(rows, idx...), append(mean, r.Mean...), append(latent, r.Variance...)
		return nil
	}
	if un := t.unknownRows(); len(un) > 0 {
		if err := predict(Rows(t.X, un), un); err != nil {
			return nil, err
		}
	}
	if t.XTest != nil {
		m, _ := t.XTest.Dims()
		idx := make([]int, m)
		for i := range idx {
			idx[i] = n + i
		}
		if err := predict(t.XTest, idx); err != nil {
			return nil, err
		}
	}
	obs := make([]float64, len(latent))
	for i, v := range latent {
		obs[i] = v + noise
	}
	run := &GPRun{Predictions: t.predictions(rows, mean, latent, obs, nil), RMSE: math.NaN(), NLL: math.NaN()}
	run.score(t.YTest != nil)
	return run, nil
}

// score fills the test RMSE and NLL.
func (run *GPRun) score(known bool) {
	if !known {
		run.Reason = "no test targets (--test-targets)"
		return
	}
	var mean, obs, truth []float64
	for _, p := range run.Predictions {
		if p.Set == "test-features" {
			mean, obs, truth = append(mean, p.Mean), append(obs, p.Observation), append(truth, p.Target)
		}
	}
	var err error
	if run.RMSE, err = eval.RMSE(mean, truth); err != nil {
		run.RMSE, run.Reason = math.NaN(), err.Error()
		return
	}
	if run.NLL, err = eval.GaussianNLL(mean, obs, truth); err != nil {
		run.NLL, run.Reason = math.NaN(), "NLL: "+err.Error()
	}
}

// IMGPPredictions are the predictions of a fitted IMGP run on t: the rows
// of X without a target (the rank-L node posterior, γ = 1) and the points
// off the graph (test, the posterior at XTest, or nil), in the targets'
// units.
func IMGPPredictions(ctx context.Context, r *imgp.Regressor, t *RegressionTask, test *imgp.Prediction) ([]Prediction, error) {
	var rows []int
	var mean, latent, obs, gamma []float64
	if un := t.unknownRows(); len(un) > 0 {
		nodes, err := r.Posterior(ctx, nil)
		if err != nil {
			return nil, err
		}
		noise := r.Hyperparameters().Noise
		for _, i := range un {
			v := nodes.Variance[i]
			rows, mean, latent, obs, gamma = append(rows, i), append(mean, nodes.Mean[i]), append(latent, v), append(obs, v+noise), append(gamma, 1)
		}
	}
	if test != nil {
		n, _ := t.X.Dims()
		for i := range test.Mean {
			rows = append(rows, n+i)
		}
		mean, latent = append(mean, test.Mean...), append(latent, test.Variance...)
		obs, gamma = append(obs, test.Observation...), append(gamma, test.Gamma...)
	}
	return t.predictions(rows, mean, latent, obs, gamma), nil
}

// SubsetFiles returns the Subset of an IMGPSweep that reads the labelled
// rows of fraction f and seed s from dir/train_subset<100f>_seed<s>.txt
// (the files scripts/imgp_subsets.py writes with numpy, so that the peer
// libraries fit the same points), each checked to be a row in [0, n).
func SubsetFiles(dir string, n int) func(f float64, s int) ([]int, error) {
	return func(f float64, s int) ([]int, error) {
		pct := strconv.FormatFloat(f*100, 'g', -1, 64)
		return ReadLabelled(filepath.Join(dir, fmt.Sprintf("train_subset%s_seed%d.txt", pct, s)), n)
	}
}
