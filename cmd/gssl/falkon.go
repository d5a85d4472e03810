package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
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

// falkonTask reads --images or the user's points (--labels: classes,
// --targets: regression).
func falkonTask(opts falkonOptions) (*protocol.PointTask, error) {
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
		t, err := protocol.ReadImageTask(opts.Images, opts.Train, opts.Test)
		if err != nil {
			return nil, fmt.Errorf("--images: %w", err)
		}
		return t, nil
	case opts.Train != 0 || opts.Test != 0:
		return nil, fmt.Errorf("--train and --test apply to --images")
	}
	in, what := opts.Points, "labels"
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
	return protocol.NewPointTask(p, what == "labels")
}

func runFalkon(ctx context.Context, opts falkonOptions, stdout, stderr io.Writer) error {
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
	if err := checkOutPaths("falkon", opts.Out, opts.Save); err != nil {
		return err
	}
	start := timeNow()
	data, err := falkonTask(opts)
	if err != nil {
		return err
	}
	res := newFalkonResult(opts, data, seconds(start))
	logf(stderr, "falkon: %s: %d train, %d to predict, d=%d, loaded in %.2fs", data.Name, res.Train, res.Test, res.Dim, res.LoadSeconds)
	bar := newProgress(stderr, opts.Iter, "CG")
	if fk != nil {
		fk.Progress = func(int, float64) { bar.Add(1) }
	}
	run, err := protocol.FitPredict(orBackground(ctx), model, data, cpuSeconds)
	bar.Finish()
	if err != nil {
		return err
	}
	res.setRun(run)
	falkonInfo(opts, model, &res, stderr)
	if err := writeFalkonOutputs(opts, model, data, run.Test, &res, stderr); err != nil {
		return err
	}
	res.PeakRSSMB = peakRSSMB()
	if err := opts.Plots.write(stderr, "falkon", res, func() (picture, error) {
		return picture{notes: []string{"no figure: one M was fitted (give several values to --m to draw error and time against M)"}}, nil
	}); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printFalkon(w, opts, res) })
}

func printFalkon(w io.Writer, opts falkonOptions, res falkonResult) {
	fmt.Fprintf(w, "%s on %s: %d train / %d predicted, d=%d, M=%d, %s σ=%g, λ=%g, %d iterations, %s\n",
		opts.Solver, res.Data, res.Train, res.Test, res.Dim, res.M, opts.Kernel, opts.Sigma, opts.Lambda, res.Iterations, opts.Precision)
	if res.Task == "regression" {
		fmt.Fprintf(w, "test RMSE %s (train %s)\n", fmtAny(res.TestRMSE), fmtAny(res.TrainRMSE))
	} else {
		fmt.Fprintf(w, "test error %s (train %s)\n", fmtPercent(res.TestError), fmtPercent(res.TrainError))
	}
	fmt.Fprintf(w, "fit %.2fs + predict %.2fs = %.2fs (%.2f CPU-s; load %.2fs), peak RSS %.0f MB\n",
		res.FitSeconds, res.PredictSeconds, res.Seconds, res.CPUSeconds, res.LoadSeconds, res.PeakRSSMB)
}

// newFalkonResult is the JSON object's description of the settings and data.
func newFalkonResult(opts falkonOptions, data *protocol.PointTask, loadSeconds float64) falkonResult {
	n, d := data.X.Dims()
	res := falkonResult{Data: data.Name, Solver: opts.Solver, Train: n, Dim: d, Kernel: opts.Kernel, Sigma: opts.Sigma,
		Lambda: opts.Lambda, Centres: opts.Centres, Precision: opts.Precision, LoadSeconds: loadSeconds, Task: "classification",
		Classes: len(data.ClassNames), Test: rowsOf(data.XTest), Predicted: rowsOf(data.XTest)}
	if data.Regression() {
		res.Task = "regression"
	}
	return res
}

// setRun fills the scores and times of a run.
func (res *falkonResult) setRun(run *protocol.PointRun) {
	if res.Task == "regression" {
		res.TrainRMSE = finite(run.TrainScore)
	} else {
		res.TrainError = finite(run.TrainScore)
	}
	res.TestError, res.TestRMSE, res.TestReason = finite(run.Score.ErrorRate), finite(run.Score.RMSE), run.Score.Reason
	res.FitSeconds, res.PredictSeconds = run.Fit.Seconds(), run.Predict.Seconds()
	res.Seconds, res.CPUSeconds = run.Seconds, run.CPUSeconds
}

// orBackground is ctx, or context.Background() when ctx is nil.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// checkOutPaths checks --out and --save before any work.
func checkOutPaths(cmd, out, save string) error {
	if err := checkOutPath("out", out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	if err := checkOutPath("save", save); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// writeFalkonOutputs writes --out and --save.
func writeFalkonOutputs(opts falkonOptions, model krr.MultiOutput, data *protocol.PointTask, pTest *mat.Dense, res *falkonResult, stderr io.Writer) error {
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
		if err := savedmodel.Save(opts.Save, sm, savedmodel.Context{Data: data.Name, ClassNames: data.ClassNames}); err != nil {
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
	k, err := kernel.Named(opts.Kernel, opts.Sigma)
	if errors.Is(err, kernel.ErrUnknownName) {
		return nil, nil, fmt.Errorf("--kernel %q is invalid: %w", opts.Kernel, kernel.ErrUnknownName)
	} else if err != nil {
		return nil, nil, fmt.Errorf("--sigma: %w", err)
	}
	prec, ok := map[string]kernel.Precision{"float64": kernel.Float64, "float32": kernel.Float32}[opts.Precision]
	switch {
	case !ok:
		return nil, nil, fmt.Errorf("--precision %q is invalid: it must be float32 or float64", opts.Precision)
	case opts.Solver != "falkon" && opts.Solver != "nystrom":
		return nil, nil, fmt.Errorf("--solver %q is invalid: it must be falkon or nystrom", opts.Solver)
	case opts.M < 0:
		return nil, nil, fmt.Errorf("--m %d is invalid: it must be ≥ 1, or 0 for min(n, %d)", opts.M, krr.DefaultM)
	case !(opts.Lambda > 0) || math.IsInf(opts.Lambda, 0):
		return nil, nil, fmt.Errorf("--ridge %v is invalid: it must be finite and > 0", opts.Lambda)
	}
	if err := checkBounded("max-iter", opts.Iter, 1, maxIterations, " (conjugate-gradient iterations; 10 to 20 are usual)"); err != nil {
		return nil, nil, err
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

// falkonInfo fills the solver's diagnostics and reports centres and jitter.
func falkonInfo(opts falkonOptions, model krr.MultiOutput, res *falkonResult, stderr io.Writer) {
	res.M = opts.M
	switch m := model.(type) {
	case *krr.Falkon:
		info := m.Details()
		res.M, res.Iterations, res.Products, res.Residual = len(info.Centres), info.Iterations, info.Products.String(), finite(info.Residual)
		res.Jitter, res.JitterRaises, res.DroppedCentres = info.Jitter, info.JitterRaises, len(info.DroppedCentres)
	case *krr.Nystrom:
		res.M = len(m.CentreIndices())
		res.Jitter, res.JitterRaises, res.DroppedCentres = m.JitterUsed(), m.JitterRaises(), len(m.DroppedCentres())
	}
	if res.DroppedCentres > 0 {
		logf(stderr, "falkon: %d centres repeat a point already chosen and were left out: M=%d", res.DroppedCentres, res.M)
	}
	if res.JitterRaises > 0 {
		logf(stderr, "falkon: K_MM is numerically singular for λ=%g: jitter ε raised %d times to %g", opts.Lambda, res.JitterRaises, res.Jitter)
	}
}

// writeFalkonRows writes --out: one row per predicted point, with the
// score of every class or the regression value.
func writeFalkonRows(path string, data *protocol.PointTask, p *mat.Dense) error {
	names := []string{"id", "set", "prediction", "target"}
	var pred []int
	if !data.Regression() {
		names = names[:3]
		for _, c := range data.ClassNames {
			names = append(names, "score_"+c)
		}
		names, pred = append(names, "label"), estimator.Argmax(p)
	}
	return writeTable(path, names, len(data.IDs), func(r int, rec []any) {
		rec[0], rec[1] = data.IDs[r], data.Sets[r]
		if data.Regression() {
			rec[2], rec[3] = p.At(r, 0), data.TruthTargets[r]
			return
		}
		rec[2], rec[len(rec)-1] = data.ClassNames[pred[r]], nil
		for c := range data.ClassNames {
			rec[3+c] = p.At(r, c)
		}
		if t := data.Truth[r]; t >= 0 {
			rec[len(rec)-1] = data.ClassNames[t]
		}
	})
}

// peakRSSMB returns the process's peak resident memory (VmHWM) in MiB, or 0
// where /proc is not available.
func peakRSSMB() float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}
