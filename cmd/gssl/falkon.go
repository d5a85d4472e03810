package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
)

type falkonOptions struct {
	Images      string // image folder: images_u8.bin.gz, labels.txt, origin.txt
	Points      pointInput
	Targets     string // regression targets instead of --labels
	TestTargets string
	M           int     // Nyström centres
	Sweep       []int   // --m with several values: one fit per M
	Kernel      string  // gaussian, laplacian, matern12, matern32, matern52
	Sigma       float64 // kernel width (σ or ℓ)
	Lambda      float64 // ridge λ
	Iter        int     // CG iterations
	Centres     string  // uniform, leverage or a file of indices into the train part
	Seed        uint64  // seed of the centre choice
	Precision   string  // float64 or float32
	Solver      string  // falkon or nystrom (direct)
	Train       int     // use only the first Train training images (0: all)
	Test        int     // use only the first Test test images (0: all)
	Out         string
	Save        string // model file (--save)
	JSON        bool
	Plots       plotFlags // --plot, --report (the picture needs a sweep of M)
}

func newFalkonCommand(g *globals) *cobra.Command {
	opts := falkonOptions{}
	var ms []int
	cmd := &cobra.Command{
		Use:   "falkon",
		Short: "Kernel ridge regression at scale (FALKON) on your points or an image set: predictions, error, time",
		Long: `falkon fits FALKON (Nyström kernel ridge regression by preconditioned conjugate
gradient) and predicts new points. Data, one of:

  --features FILE --labels FILE    your points (CSV/TSV/whitespace, optional header),
                                   one class per row (one-hot targets, argmax
                                   prediction); rows with a blank label are predicted,
                                   and so is every row of --test-features
                                   (--test-labels scores them); --ids names an id column
  --features FILE --targets FILE   the same for regression (one number per row)
  --images DIR                     an image folder (pixels/255) with images_u8.bin.gz,
                                   labels.txt and origin.txt ("train j" / "test j" per
                                   image), as shared/data/mnist and fashion_mnist

--centres takes uniform, leverage (approximate ridge leverage scores) or a file of
indices into the training part (one per line, '#' comments), such as
shared/bench/splits/mnist/nystrom_centres_M1000_seed0.txt. Centres that repeat a
point already chosen are left out (dropped_centres); when K_MM is numerically
singular for λ the jitter ε in K_MM + εMI is raised tenfold until the fit succeeds
(jitter, jitter_raises).

--out FILE writes one row per predicted point: id, prediction, the score of every
class (score_<class>, the ridge outputs whose argmax is the prediction) or the
regression value, and the true value when known.

"seconds" is fit + prediction of the test points from the data in memory (as
shared/bench/peers/krr.py times its methods), "cpu_seconds" the process CPU time in
that block; train_error comes from a second prediction, outside it.

--m with several values (--m 250,500,1000) fits once per M with the same seed and
centre sampler (uniform centres are then nested: the first M of one permutation)
and reports "sweep", one {m, test_error or test_rmse, fit_seconds, ...} per M
(protocol.SweepCentres); --plot draws test error and fit time against M. A sweep writes
no --out or --save and takes no file of --centres.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			opts.M, opts.Sweep = 0, nil
			switch len(ms) {
			case 0:
				return fmt.Errorf("falkon: --m is empty: give a number of centres, or several (--m 250,500,1000)")
			case 1:
				opts.M = ms[0]
			default:
				opts.Sweep = ms
			}
			return runFalkon(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.Points.addFlags(f, "labels")
	f.StringVar(&opts.Targets, "targets", "", "regression targets, one number per row of --features (instead of --labels)")
	f.StringVar(&opts.TestTargets, "test-targets", "", "the true targets of --test-features, to score the predictions")
	f.StringVar(&opts.Images, "images", "", "image folder (images_u8.bin.gz, labels.txt, origin.txt), e.g. shared/data/mnist")
	f.IntSliceVar(&ms, "m", []int{0}, fmt.Sprintf("number of Nyström centres (0: min(n, %d)); several (250,500,1000) fit once per M and report the sweep", krr.DefaultM))
	f.StringVar(&opts.Kernel, "kernel", "gaussian", "kernel: gaussian, laplacian, matern12, matern32, matern52")
	f.Float64Var(&opts.Sigma, "sigma", 15, "kernel width σ (length scale ℓ for Matérn)")
	f.Float64Var(&opts.Lambda, "ridge", 1e-8, "ridge parameter λ > 0")
	f.IntVar(&opts.Iter, "max-iter", krr.DefaultIterations, "conjugate-gradient iterations")
	f.StringVar(&opts.Centres, "centres", "uniform", "uniform, leverage, or a file of centre indices into the training part")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the centre choice")
	f.StringVar(&opts.Precision, "precision", "float32", "inner products of the kernel blocks: float32 or float64")
	f.StringVar(&opts.Solver, "solver", "falkon", "falkon (preconditioned CG) or nystrom (direct solve of the same system)")
	f.IntVar(&opts.Train, "train", 0, "use only the first N training images (0: all; --images)")
	f.IntVar(&opts.Test, "test", 0, "use only the first N test images (0: all; --images)")
	f.StringVar(&opts.Out, "out", "", "write the predictions, one row per predicted point (CSV, or JSON Lines for .jsonl/.ndjson)")
	f.StringVar(&opts.Save, "save", "", "save the fitted model for gssl predict --features and gssl serve")
	opts.Plots.addFlags(f, "test error and fit time against M (a sweep: several values of --m)")
	renamedFlag(cmd, "data", "images")
	renamedFlag(cmd, "iter", "max-iter")
	renamedFlag(cmd, "lambda", "ridge")
	return cmd
}

// falkonResult is the JSON object of gssl falkon.
type falkonResult struct {
	Data           string  `json:"data"`
	Solver         string  `json:"solver"`
	Train          int     `json:"n_train"`
	Test           int     `json:"n_test"`
	Dim            int     `json:"d"`
	M              int     `json:"m"`
	Kernel         string  `json:"kernel"`
	Sigma          float64 `json:"sigma"`
	Lambda         float64 `json:"lambda"`
	Iterations     int     `json:"iterations"`
	Centres        string  `json:"centres"`
	Precision      string  `json:"precision"`
	Products       string  `json:"products,omitempty"`
	Residual       any     `json:"residual,omitempty"`
	Jitter         float64 `json:"jitter"`
	JitterRaises   int     `json:"jitter_raises"`
	DroppedCentres int     `json:"dropped_centres"`
	Task           string  `json:"task"`
	Classes        int     `json:"classes,omitempty"`
	Predicted      int     `json:"n_predicted"`
	TestError      any     `json:"test_error"`
	TestRMSE       any     `json:"test_rmse,omitempty"`
	TestReason     string  `json:"test_error_reason,omitempty"`
	TrainError     any     `json:"train_error"`
	TrainRMSE      any     `json:"train_rmse,omitempty"`
	Out            string  `json:"out,omitempty"`
	Saved          string  `json:"saved,omitempty"`
	Seconds        float64 `json:"seconds"`
	CPUSeconds     float64 `json:"cpu_seconds"`
	FitSeconds     float64 `json:"fit_seconds"`
	PredictSeconds float64 `json:"predict_seconds"`
	LoadSeconds    float64 `json:"load_seconds"`
	PeakRSSMB      float64 `json:"peak_rss_mb"`
}

func parseKernel(name string, sigma float64) (kernel.Kernel, error) {
	var k kernel.Kernel
	switch strings.ToLower(name) {
	case "gaussian":
		k = kernel.Gaussian{Sigma: sigma}
	case "laplacian":
		k = kernel.Laplacian{Sigma: sigma}
	case "matern12":
		k = kernel.Matern{Nu: 0.5, Length: sigma}
	case "matern32":
		k = kernel.Matern{Nu: 1.5, Length: sigma}
	case "matern52":
		k = kernel.Matern{Nu: 2.5, Length: sigma}
	default:
		return nil, fmt.Errorf("--kernel %q is invalid: it must be gaussian, laplacian, matern12, matern32 or matern52", name)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("--sigma: %w", err)
	}
	return k, nil
}

// falkonData is a fit-and-predict problem: the training rows x with their
// classes (or regression targets) and the rows xt to predict, with their
// true values where known.
type falkonData struct {
	name       string
	x, xt      *mat.Dense
	classNames []string  // nil for regression
	y          []int     // training classes
	yr         []float64 // training targets (regression)
	truth      []int     // class of every xt row, −1 unknown
	truthR     []float64 // target of every xt row, NaN unknown
	ids, sets  []string  // of the xt rows
}

// loadFalkonData reads --images or the user's points.
func loadFalkonData(opts falkonOptions) (*falkonData, error) {
	if opts.Train < 0 || opts.Test < 0 {
		return nil, fmt.Errorf("--train %d / --test %d is invalid: each must be ≥ 0 (0: all)", opts.Train, opts.Test)
	}
	user := opts.Points.given() || opts.Targets != "" || opts.TestTargets != ""
	switch {
	case user && opts.Images != "":
		return nil, fmt.Errorf("give either --images or --features with --labels/--targets")
	case !user && opts.Images == "":
		return nil, fmt.Errorf("no data: give --features FILE with --labels FILE (classes) or --targets FILE (regression), or --images DIR (an image folder with origin.txt)")
	case opts.Images != "":
		return falkonImages(opts)
	}
	if opts.Train != 0 || opts.Test != 0 {
		return nil, fmt.Errorf("--train and --test apply to --images")
	}
	in := opts.Points
	what := "labels"
	if opts.Targets != "" || opts.TestTargets != "" {
		if in.Targets != "" || in.TestTargets != "" {
			return nil, fmt.Errorf("give --labels (classification) or --targets (regression), not both")
		}
		in.Targets, in.TestTargets, what = opts.Targets, opts.TestTargets, "targets"
	}
	p, err := in.load(what)
	if err != nil {
		return nil, err
	}
	d := &falkonData{name: p.Name}
	var known, unknown []int
	for i, v := range p.Values {
		if v == "" {
			unknown = append(unknown, i)
		} else {
			known = append(known, i)
		}
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("--%s %s: no point has a value", what, in.Targets)
	}
	d.x = subRows(p.X, known)
	xt := []*mat.Dense{subRows(p.X, unknown)}
	for _, i := range unknown {
		d.ids, d.sets = append(d.ids, p.IDs[i]), append(d.sets, "features")
	}
	m := 0
	if p.XTest != nil {
		xt = append(xt, p.XTest)
		m, _ = p.XTest.Dims()
		for i := 0; i < m; i++ {
			d.ids, d.sets = append(d.ids, p.TestIDs[i]), append(d.sets, "test-features")
		}
	}
	d.xt = stackRows(xt)
	testVals := make([]string, len(unknown)+m)
	if p.TestVals != nil {
		copy(testVals[len(unknown):], p.TestVals)
	}
	if what == "targets" {
		return d, d.setTargets(in, p.Values, known, testVals)
	}
	d.setClasses(p.Values, known, testVals)
	return d, nil
}

// setTargets fills the regression targets of the known points and the
// test points' true targets.
func (d *falkonData) setTargets(in pointInput, values []string, known []int, testVals []string) error {
	all, err := floatValues("targets", in.Targets, values)
	if err != nil {
		return err
	}
	for _, i := range known {
		d.yr = append(d.yr, all[i])
	}
	d.truthR, err = floatValues("test-targets", in.TestTargets, testVals)
	return err
}

// setClasses numbers the classes of the known points and the test
// points' true classes (−1 unknown, −2 a class no training point has).
func (d *falkonData) setClasses(values []string, known []int, testVals []string) {
	train := make([]string, len(known))
	for p2, i := range known {
		train[p2] = values[i]
	}
	col := loaders.ValueColumn{Values: train}
	d.y, d.classNames = col.Classes()
	index := map[string]int{}
	for c, name := range d.classNames {
		index[name] = c
	}
	d.truth = make([]int, len(testVals))
	for i, v := range testVals {
		d.truth[i] = -1
		if v != "" {
			c, ok := index[canonicalClass(v)]
			if !ok {
				c = -2 // a class no training point has: never predicted
			}
			d.truth[i] = c
		}
	}
}

// canonicalClass spells an integer class as ValueColumn.Classes names it.
func canonicalClass(s string) string {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(v, 10)
	}
	return s
}

// falkonImages reads an image folder with origin.txt.
func falkonImages(opts falkonOptions) (*falkonData, error) {
	set, err := loaders.ReadImageSet(opts.Images, 0)
	if err != nil {
		return nil, fmt.Errorf("--images: %w", err)
	}
	if set.Train == nil {
		return nil, fmt.Errorf("--images %s: no origin.txt (\"train j\" / \"test j\" per image) to split train and test", opts.Images)
	}
	train, test := set.Train, set.Test
	if len(train) == 0 || len(test) == 0 {
		return nil, fmt.Errorf("--images %s: origin.txt has %d train and %d test images; both parts are needed", opts.Images, len(train), len(test))
	}
	if opts.Train > 0 && opts.Train < len(train) {
		train = train[:opts.Train]
	}
	if opts.Test > 0 && opts.Test < len(test) {
		test = test[:opts.Test]
	}
	// Classes are the distinct labels, numbered in ascending order.
	vals := make([]string, len(set.Labels))
	for i, l := range set.Labels {
		vals[i] = strconv.Itoa(l)
	}
	col := loaders.ValueColumn{Values: vals}
	cls, names := col.Classes()
	d := &falkonData{name: opts.Images, x: set.Images.Dense(train), xt: set.Images.Dense(test), classNames: names}
	for _, i := range train {
		d.y = append(d.y, cls[i])
	}
	for _, i := range test {
		d.truth = append(d.truth, cls[i])
		d.ids, d.sets = append(d.ids, strconv.Itoa(i)), append(d.sets, "test")
	}
	return d, nil
}

// stackRows stacks matrices with the same columns.
func stackRows(ms []*mat.Dense) *mat.Dense {
	rows, d := 0, 0
	for _, m := range ms {
		r, c := m.Dims()
		rows, d = rows+r, c
	}
	out := mat.NewDense(max(rows, 1), d, nil)
	at := 0
	for _, m := range ms {
		r, _ := m.Dims()
		for i := 0; i < r; i++ {
			copy(out.RawRowView(at), m.RawRowView(i))
			at++
		}
	}
	if rows == 0 {
		return nil
	}
	return out
}

func runFalkon(ctx context.Context, opts falkonOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if len(opts.Sweep) > 0 {
		return runFalkonSweep(ctx, opts, stdout, stderr)
	}
	if opts.Plots.Plot != "" {
		return fmt.Errorf("falkon: --plot %s draws test error and time against M: give several values to --m (e.g. --m 250,500,1000)", opts.Plots.Plot)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	model, fk, err := falkonModel(opts, stderr)
	if err != nil {
		return err
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return err
	}
	if err := checkOutPath("save", opts.Save); err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	start := time.Now()
	data, err := loadFalkonData(opts)
	if err != nil {
		return err
	}
	loadSeconds := seconds(start)
	n, d := data.x.Dims()
	y, err := falkonTargets(data)
	if err != nil {
		return err
	}
	res := falkonResult{Data: data.name, Solver: opts.Solver, Train: n, Dim: d, Kernel: opts.Kernel, Sigma: opts.Sigma,
		Lambda: opts.Lambda, Centres: opts.Centres, Precision: opts.Precision, LoadSeconds: loadSeconds, Task: "classification", Classes: len(data.classNames)}
	if data.classNames == nil {
		res.Task = "regression"
	}
	res.Test = rowsOf(data.xt)
	res.Predicted = res.Test
	logf(stderr, "falkon: %s: %d train, %d to predict, d=%d, loaded in %.2fs", data.name, n, res.Test, d, loadSeconds)
	pTrain, pTest, err := fitFalkon(ctx, opts, model, fk, data, y, &res, stderr)
	if err != nil {
		return err
	}
	falkonScores(data, pTrain, pTest, &res)
	falkonInfo(opts, model, fk, &res, stderr)
	if err := writeFalkonOutputs(opts, model, data, pTest, &res, stderr); err != nil {
		return err
	}
	res.PeakRSSMB = peakRSSMB()
	if err := opts.Plots.write(stderr, "falkon", res, func() (picture, error) {
		return picture{notes: []string{"no figure: one M was fitted (give several values to --m to draw error and time against M)"}}, nil
	}); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s on %s: %d train / %d predicted, d=%d, M=%d, %s σ=%g, λ=%g, %d iterations, %s\n",
			opts.Solver, data.name, n, res.Test, d, res.M, opts.Kernel, opts.Sigma, opts.Lambda, res.Iterations, opts.Precision)
		if res.Task == "regression" {
			fmt.Fprintf(w, "test RMSE %s (train %s)\n", fmtAny(res.TestRMSE), fmtAny(res.TrainRMSE))
		} else {
			fmt.Fprintf(w, "test error %s (train %s)\n", fmtPercent(res.TestError), fmtPercent(res.TrainError))
		}
		fmt.Fprintf(w, "fit %.2fs + predict %.2fs = %.2fs (%.2f CPU-s; load %.2fs), peak RSS %.0f MB\n",
			res.FitSeconds, res.PredictSeconds, res.Seconds, res.CPUSeconds, res.LoadSeconds, res.PeakRSSMB)
	})
}

// fitFalkon fits the model on the training points (all targets at once)
// and predicts the points to predict and the training points, timing the
// fit and the prediction.
func fitFalkon(ctx context.Context, opts falkonOptions, model krr.MultiOutput, fk *krr.Falkon, data *falkonData, y *mat.Dense,
	res *falkonResult, stderr io.Writer) (pTrain, pTest *mat.Dense, err error) {
	bar := newProgress(stderr, opts.Iter, "CG")
	if fk != nil {
		fk.Progress = func(int, float64) { bar.Add(1) }
	}
	t0, cpu0 := time.Now(), cpuSeconds()
	err = model.FitTargets(ctx, data.x, y)
	bar.Finish()
	if err != nil {
		return nil, nil, err
	}
	res.FitSeconds = seconds(t0)
	t1 := time.Now()
	if data.xt != nil {
		if pTest, err = model.PredictTargets(ctx, data.xt); err != nil {
			return nil, nil, err
		}
	}
	res.PredictSeconds = seconds(t1)
	res.Seconds = seconds(t0)
	res.CPUSeconds = cpuSeconds() - cpu0
	pTrain, err = model.PredictTargets(ctx, data.x)
	return pTrain, pTest, err
}

// writeFalkonOutputs writes --out and --save.
func writeFalkonOutputs(opts falkonOptions, model krr.MultiOutput, data *falkonData, pTest *mat.Dense, res *falkonResult, stderr io.Writer) error {
	if opts.Out != "" && pTest != nil {
		if err := writeFalkonRows(opts.Out, data, pTest); err != nil {
			return err
		}
		res.Out = opts.Out
	} else if opts.Out != "" {
		logf(stderr, "falkon: nothing to predict (every point has a value and there is no --test-features); %s not written", opts.Out)
	}
	if opts.Save != "" {
		sm, ok := model.(savedmodel.Model)
		if !ok {
			return fmt.Errorf("falkon: --save: a %T cannot be saved", model)
		}
		if err := savedmodel.Save(opts.Save, sm, savedmodel.Context{Data: data.name, ClassNames: data.classNames}); err != nil {
			return fmt.Errorf("falkon: --save %w", err)
		}
		res.Saved = opts.Save
	}
	return nil
}

func fmtPercent(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.2f%%", 100*f)
	}
	return "n/a"
}

// falkonModel checks the model flags and returns the regressor (and the
// FALKON solver, to read its diagnostics, when that is the one).
func falkonModel(opts falkonOptions, stderr io.Writer) (krr.MultiOutput, *krr.Falkon, error) {
	k, err := parseKernel(opts.Kernel, opts.Sigma)
	if err != nil {
		return nil, nil, err
	}
	var prec kernel.Precision
	switch opts.Precision {
	case "float64":
		prec = kernel.Float64
	case "float32":
		prec = kernel.Float32
	default:
		return nil, nil, fmt.Errorf("--precision %q is invalid: it must be float32 or float64", opts.Precision)
	}
	if opts.Solver != "falkon" && opts.Solver != "nystrom" {
		return nil, nil, fmt.Errorf("--solver %q is invalid: it must be falkon or nystrom", opts.Solver)
	}
	if err := checkBounded("max-iter", opts.Iter, 1, maxIterations, " (conjugate-gradient iterations; 10 to 20 are usual)"); err != nil {
		return nil, nil, err
	}
	if opts.M < 0 {
		return nil, nil, fmt.Errorf("--m %d is invalid: it must be ≥ 1, or 0 for min(n, %d)", opts.M, krr.DefaultM)
	}
	if !(opts.Lambda > 0) || math.IsInf(opts.Lambda, 0) {
		return nil, nil, fmt.Errorf("--ridge %v is invalid: it must be finite and > 0", opts.Lambda)
	}
	cs := krr.Centres{M: opts.M, Seed: opts.Seed}
	switch opts.Centres {
	case "uniform":
		cs.Sampler = krr.Uniform{}
	case "leverage":
		cs.Sampler = krr.Leverage{Precision: prec}
	default:
		idx, err := loaders.ReadInts(opts.Centres)
		if err != nil {
			return nil, nil, fmt.Errorf("--centres: %w", err)
		}
		cs.Sampler = krr.Fixed(idx)
		if opts.M != 0 && len(idx) != opts.M {
			logf(stderr, "falkon: %s holds %d centres; using M=%d", opts.Centres, len(idx), len(idx))
			cs.M = len(idx)
		}
	}
	if opts.Solver == "falkon" {
		fk := &krr.Falkon{Kernel: k, Lambda: opts.Lambda, Centres: cs, Iterations: opts.Iter, Precision: prec}
		return fk, fk, nil
	}
	return &krr.Nystrom{Kernel: k, Lambda: opts.Lambda, Centres: cs, Precision: prec}, nil, nil
}

// falkonTargets is the n × C one-hot matrix of the classes, or the n × 1
// column of regression targets.
func falkonTargets(data *falkonData) (*mat.Dense, error) {
	if data.classNames == nil {
		return mat.NewDense(len(data.yr), 1, append([]float64(nil), data.yr...)), nil
	}
	return krr.OneHot(data.y, len(data.classNames))
}

// falkonScores fills the train and test error (or RMSE): the test one over
// the predicted rows whose true value is known, null with a reason when
// there are none.
func falkonScores(data *falkonData, pTrain, pTest *mat.Dense, res *falkonResult) {
	if data.classNames == nil {
		res.TrainRMSE = finite(rmseColumn(pTrain, data.yr))
	} else {
		res.TrainError = finite(errorRate(estimator.Argmax(pTrain), data.y))
	}
	res.TestError, res.TestRMSE, res.TestReason = falkonTestScore(data, pTest)
}

// falkonTestScore is the error rate (classification) or the RMSE
// (regression) of the predictions of the xt rows whose true value is known,
// or a reason why there is none.
func falkonTestScore(data *falkonData, pTest *mat.Dense) (testError, testRMSE any, reason string) {
	if data.classNames == nil {
		var pred, truth []float64
		for i, t := range data.truthR {
			if !math.IsNaN(t) {
				pred, truth = append(pred, pTest.At(i, 0)), append(truth, t)
			}
		}
		if len(truth) == 0 {
			return nil, nil, "no predicted point has a known target (--test-targets)"
		}
		r, _ := eval.RMSE(pred, truth)
		return nil, finite(r), ""
	}
	if pTest == nil {
		return nil, nil, "nothing to predict"
	}
	pred := estimator.Argmax(pTest)
	var p, t []int
	for i, c := range data.truth {
		if c != -1 {
			p, t = append(p, pred[i]), append(t, c)
		}
	}
	if len(t) == 0 {
		return nil, nil, "no predicted point has a known label (--test-labels)"
	}
	return finite(errorRate(p, t)), nil, ""
}

func rmseColumn(p *mat.Dense, y []float64) float64 {
	col := make([]float64, len(y))
	for i := range col {
		col[i] = p.At(i, 0)
	}
	r, _ := eval.RMSE(col, y)
	return r
}

// falkonInfo fills the solver's diagnostics and reports centres and jitter.
func falkonInfo(opts falkonOptions, model krr.MultiOutput, fk *krr.Falkon, res *falkonResult, stderr io.Writer) {
	res.M = opts.M
	if fk != nil {
		info := fk.Details()
		res.M = len(info.Centres)
		res.Iterations = info.Iterations
		res.Products = info.Products.String()
		res.Residual = finite(info.Residual)
		res.Jitter, res.JitterRaises, res.DroppedCentres = info.Jitter, info.JitterRaises, len(info.DroppedCentres)
	} else if s, ok := model.(*krr.Nystrom); ok {
		res.M = len(s.CentreIndices())
		res.Jitter, res.JitterRaises, res.DroppedCentres = s.JitterUsed(), s.JitterRaises(), len(s.DroppedCentres())
	}
	if res.DroppedCentres > 0 {
		logf(stderr, "falkon: %d centres repeat a point already chosen and were left out: M=%d", res.DroppedCentres, res.M)
	}
	if res.JitterRaises > 0 {
		logf(stderr, "falkon: K_MM is numerically singular for λ=%g: jitter ε raised %d times to %g", opts.Lambda, res.JitterRaises, res.Jitter)
	}
}

// writeFalkonRows writes --out: one row per predicted point.
func writeFalkonRows(path string, data *falkonData, p *mat.Dense) error {
	names := []string{"id", "set", "prediction"}
	if data.classNames == nil {
		names = append(names, "target")
	} else {
		for _, c := range data.classNames {
			names = append(names, "score_"+c)
		}
		names = append(names, "label")
	}
	var pred []int
	if data.classNames != nil {
		pred = estimator.Argmax(p)
	}
	return writeTable(path, names, len(data.ids), func(r int, rec []any) {
		rec[0], rec[1] = data.ids[r], data.sets[r]
		if data.classNames == nil {
			rec[2] = p.At(r, 0)
			rec[3] = data.truthR[r]
			return
		}
		rec[2] = data.classNames[pred[r]]
		for c := range data.classNames {
			rec[3+c] = p.At(r, c)
		}
		switch t := data.truth[r]; {
		case t >= 0:
			rec[len(rec)-1] = data.classNames[t]
		default:
			rec[len(rec)-1] = nil
		}
	})
}

func errorRate(pred, truth []int) float64 {
	wrong := 0
	for i, p := range pred {
		if p != truth[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(truth))
}

// peakRSSMB returns the process's peak resident memory (VmHWM) in MiB, or 0
// where /proc is not available.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, err := strconv.ParseFloat(f[1], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}
