package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/spectral"
)

type imgpOptions struct {
	Images       string // srmnist-style folder (train/test images and angles)
	Synthetic    int    // > 0: the noisy closed curve in R^10 with this many nodes
	Points       pointInput
	Labelled     float64 // fraction of the training points that are labelled (benchmark data)
	Subset       string  // file of labelled indices (overrides Labelled)
	K            int
	Nu           int
	Eigenpairs   int
	MaxIter      int // Adam steps; 0 keeps the initial hyperparameters
	LearningRate float64
	Probes       int
	Seed         uint64
	Distance     string // nearest or mean
	Procedure    string // refit or paper (imgp.ParseProcedure)
	Approximate  bool   // NN-descent KNN graph
	EuclFixed    bool   // keep the Euclidean GP's initial hyperparameters (timing runs)
	LikProbes    int    // SLQ probes of the log marginal likelihood; < 0 skips it
	LikSteps     int    // Lanczos steps per probe
	LikExact     int    // at most this many labels: the exact determinant lemma
	Plot         string
	Report       string // folder of an HTML report of the run
	Out          string
	Save         string // model file (--save)
	MaxMemory    string
	JSON         bool
}

func newIMGPCommand(g *globals) *cobra.Command {
	opts := imgpOptions{}
	cmd := &cobra.Command{
		Use:   "imgp",
		Short: "Implicit-manifold GP regression against a Euclidean GP, on your points or a benchmark",
		Long: `imgp fits implicit-manifold Gaussian-process regression (IMGP) and the Euclidean
Matérn 5/2 GP it is blended with, on the same labelled points, and reports the
test RMSE and mean Gaussian NLL of both (targets standardised).

Data, one of:
  --features FILE --targets FILE   your points, one per row (CSV/TSV/whitespace,
                                   optional header); every row is a graph node, the
                                   rows with a target are labelled and the rows with a
                                   blank target are predicted; --test-features adds
                                   points predicted off the graph (--test-targets
                                   scores them); --ids names an id column
  --images DIR                     a folder with train_images_u8.bin.gz,
                                   train_angles.txt, test_images_u8.bin.gz and
                                   test_angles.txt (e.g. shared/data/srmnist): all
                                   training images are nodes, a fraction of them
                                   labelled (--labelled, --seed, or --subset FILE)
  --synthetic N                    a noisy closed curve in R^10 with N nodes and a
                                   target that depends on arc length

--out FILE writes one row per predicted point (id, prediction, variance of f and
of a new observation, γ, the true target when known) as CSV, or JSON Lines when
the name ends in .jsonl or .ndjson.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Points.given() && cmd.Flags().Changed("labelled") {
				return fmt.Errorf("imgp: --labelled applies to --images and --synthetic; with --targets the labelled points are those with a target")
			}
			return runIMGP(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addIMGPModelFlags(cmd, &opts)
	f.Float64Var(&opts.Labelled, "labelled", 0.1, "fraction of training points labelled, in (0, 1] (--images, --synthetic)")
	f.StringVar(&opts.Subset, "subset", "", "file of labelled training indices (overrides --labelled)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the labelled subset and the probes")
	f.BoolVar(&opts.EuclFixed, "euclidean-fixed", false, "do not fit the Euclidean GP's hyperparameters (keeps 1, 1, 1e-2; for timing the graph model)")
	f.StringVar(&opts.Plot, "plot", "", "write a figure of predicted against true targets with ±2σ bands (.png, .svg, .pdf)")
	f.StringVar(&opts.Report, "report", "", "write a self-contained HTML report of the run (command line, versions, seeds, timings, the result and the --plot figure) to DIR/index.html")
	f.StringVar(&opts.Out, "out", "", "write the predictions, one row per predicted point (CSV, or JSON Lines for .jsonl/.ndjson)")
	f.StringVar(&opts.Save, "save", "", "save the fitted model (with the targets' standardisation) for gssl predict --features and gssl serve")
	f.IntVar(&opts.LikProbes, "likelihood-probes", spectral.DefaultProbes, "SLQ probes of the reported log marginal likelihood (used above --likelihood-exact-labels labels; -1 skips it)")
	f.IntVar(&opts.LikSteps, "likelihood-steps", spectral.DefaultSteps, "Lanczos steps per SLQ probe of the log marginal likelihood")
	f.IntVar(&opts.LikExact, "likelihood-exact-labels", imgp.DefaultExactLabels, "compute the likelihood exactly (determinant lemma, n·ν CG solves) up to this many labels; -1: always SLQ")
	cmd.AddCommand(newIMGPSweepCommand(g))
	return cmd
}

// addIMGPModelFlags registers the data and model flags shared by imgp and
// imgp sweep, with the old names as hidden aliases.
func addIMGPModelFlags(cmd *cobra.Command, opts *imgpOptions) {
	f := cmd.Flags()
	f.StringVar(&opts.Images, "images", "", "srmnist-style folder of train/test images and angles")
	f.IntVar(&opts.Synthetic, "synthetic", 0, fmt.Sprintf("use the synthetic closed curve in R^10 with this many nodes (2..%d)", imgp.MaxCurvePoints))
	opts.Points.addFlags(f, "targets")
	f.IntVar(&opts.K, "neighbors", imgp.DefaultK, "nearest neighbours of the graph")
	f.IntVar(&opts.Nu, "nu", imgp.DefaultNu, "integer smoothness ν ≥ 1 of the graph Matérn prior")
	f.IntVar(&opts.Eigenpairs, "eigenpairs", 0, fmt.Sprintf("eigenpairs L for prediction (0: min(N, %d))", imgp.DefaultEigenpairs))
	f.IntVar(&opts.MaxIter, "max-iter", imgp.DefaultIterations, "Adam steps on the marginal likelihood (0 keeps the initial hyperparameters)")
	f.Float64Var(&opts.LearningRate, "learning-rate", imgp.DefaultLearningRate, "Adam learning rate")
	f.IntVar(&opts.Probes, "probes", imgp.DefaultProbes, "Hutchinson probe vectors per gradient")
	f.StringVar(&opts.Distance, "distance", "nearest", "dist(x, M) in the blend: nearest (node) or mean (of K neighbours)")
	f.StringVar(&opts.Procedure, "procedure", imgp.ProcedureRefit.String(), "refit (κ, s, σ² re-maximised on the rank-L likelihood predictions use) or paper (the full-rank GMRF fit only)")
	f.BoolVar(&opts.Approximate, "approximate", false, "approximate KNN graph by NN-descent (for large N)")
	f.StringVar(&opts.MaxMemory, "max-memory", defaultMaxMemory(), "refuse a dense Euclidean GP (n² labelled points) above this size")
	renamedFlag(cmd, "data", "images")
	renamedFlag(cmd, "k", "neighbors")
	renamedFlag(cmd, "iterations", "max-iter")
}

// imgpResult is the JSON object of one run. RMSE and NLL are in standardised
// target units; nll is the mean Gaussian negative log-likelihood of the test
// targets under the predictive mean and variance of a new observation.
type imgpResult struct {
	Data            string  `json:"data"`
	Nodes           int     `json:"nodes"`
	Test            int     `json:"test"`
	Labelled        float64 `json:"labelled"`
	NLabelled       int     `json:"n_labelled"`
	Seed            uint64  `json:"seed"`
	K               int     `json:"k"`
	Nu              int     `json:"nu"`
	Eigenpairs      int     `json:"eigenpairs"`
	RMSE            any     `json:"rmse"`
	NLL             any     `json:"nll"`
	MetricsReason   string  `json:"rmse_reason,omitempty"`
	ManifoldRMSE    any     `json:"manifold_rmse"`
	RefinedRMSE     any     `json:"refined_rmse"`
	RefinedNLL      any     `json:"refined_nll"`
	RefinedKappa    float64 `json:"refined_kappa"`
	RefinedNoise    float64 `json:"refined_noise"`
	EuclideanRMSE   any     `json:"euclidean_rmse"`
	EuclideanNLL    any     `json:"euclidean_nll"`
	NodeRMSE        any     `json:"node_rmse"`
	NodeRMSEFull    any     `json:"node_rmse_full_rank"`
	GammaMean       float64 `json:"gamma_mean"`
	Alpha           float64 `json:"alpha"`
	Kappa           float64 `json:"kappa"`
	Amplitude       float64 `json:"amplitude"`
	Variance        any     `json:"variance"`
	Noise           float64 `json:"noise"`
	EuclideanAmp    float64 `json:"euclidean_amplitude"`
	EuclideanLength float64 `json:"euclidean_length_scale"`
	EuclideanNoise  float64 `json:"euclidean_noise"`
	EuclideanLML    any     `json:"euclidean_log_marginal_likelihood"`
	// LML is the GMRF log marginal likelihood at the fitted hyperparameters
	// (imgp.Regressor.LogMarginalLikelihood), LMLStdErr its standard error
	// over the SLQ probes (0 when exact); null when skipped.
	LML             any     `json:"log_marginal_likelihood"`
	LMLStdErr       any     `json:"log_marginal_likelihood_stderr"`
	LMLExact        bool    `json:"log_marginal_likelihood_exact"`
	SecondsLML      float64 `json:"seconds_likelihood"`
	AdamSteps       int     `json:"adam_steps"`
	CGIterations    int     `json:"cg_iterations"`
	Components      int     `json:"components"`
	SecondsGraph    float64 `json:"seconds_graph"`
	SecondsTrain    float64 `json:"seconds_train"`
	SecondsEigen    float64 `json:"seconds_eigen"`
	SecondsEucl     float64 `json:"seconds_euclidean"`
	SecondsEuclPred float64 `json:"seconds_euclidean_predict"`
	SecondsPredict  float64 `json:"seconds_predict"`
	SecondsFit      float64 `json:"seconds_fit"`
	Seconds         float64 `json:"seconds"`
	Saved           string  `json:"saved,omitempty"`
}

// loadRegression reads the one data source the flags name.
func loadRegression(cmd string, images string, synthetic int, in *pointInput, seed uint64) (*protocol.RegressionTask, error) {
	sources := 0
	for _, given := range []bool{images != "", synthetic != 0, in.given()} {
		if given {
			sources++
		}
	}
	switch {
	case sources == 0:
		return nil, fmt.Errorf("%s: no data: give --features FILE --targets FILE (your points), --images DIR (a train/test image folder) or --synthetic N", cmd)
	case sources > 1:
		return nil, fmt.Errorf("%s: give one of --features/--targets, --images and --synthetic", cmd)
	case synthetic != 0:
		t, err := protocol.SyntheticRegression(synthetic, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: --synthetic %d is invalid: it must be in [2, %d]", cmd, synthetic, imgp.MaxCurvePoints)
		}
		return t, nil
	case images != "":
		t, err := protocol.ReadImageRegression(images)
		if err != nil {
			return nil, fmt.Errorf("%s: --images: %w", cmd, err)
		}
		return t, nil
	}
	p, err := in.load("targets")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	t, err := protocol.NewRegressionTask(p)
	if err != nil {
		return nil, fmt.Errorf("%s: --targets: %w", cmd, err)
	}
	return t, nil
}

// labelRegression chooses the labelled points of benchmark data: --subset
// or a seeded --labelled fraction (the user's points are labelled by their
// targets).
func labelRegression(cmd string, data *protocol.RegressionTask, subset string, labelled float64, seed uint64) error {
	switch {
	case data.User && subset != "":
		return fmt.Errorf("%s: --subset applies to --images and --synthetic; with --targets the labelled points are those with a target", cmd)
	case data.User:
		return nil
	case subset == "" && !(labelled > 0 && labelled <= 1):
		return fmt.Errorf("%s: --labelled %v is invalid: it must be a fraction in (0, 1]", cmd, labelled)
	}
	if err := data.Label(subset, labelled, seed); err != nil && subset == "" {
		return fmt.Errorf("%s: --labelled: %w", cmd, err)
	} else if err != nil {
		return err
	}
	return nil
}

// imgpModel checks the model flags and returns the regressor they describe
// (without Progress, Seed and Euclidean).
func imgpModel(cmd string, opts imgpOptions) (*imgp.Regressor, error) {
	var distance imgp.DistanceRule
	switch opts.Distance {
	case "nearest", "":
		distance = imgp.NearestNode
	case "mean":
		distance = imgp.MeanNeighbour
	default:
		return nil, fmt.Errorf("%s: --distance %q is invalid: use nearest or mean", cmd, opts.Distance)
	}
	procedure := imgp.ProcedureRefit
	if opts.Procedure != "" {
		p, err := imgp.ParseProcedure(opts.Procedure)
		if err != nil {
			return nil, fmt.Errorf("%s: --procedure %q is invalid: use refit or paper", cmd, opts.Procedure)
		}
		procedure = p
	}
	switch {
	case opts.Nu < 1:
		return nil, fmt.Errorf("%s: --nu %d is invalid: the sparse precision needs a positive integer ν", cmd, opts.Nu)
	case opts.MaxIter < 0 || opts.MaxIter > maxIterations:
		return nil, fmt.Errorf("%s: --max-iter %d is invalid: it must be ≥ 0 (0 keeps the initial hyperparameters) and at most %d Adam steps", cmd, opts.MaxIter, maxIterations)
	case opts.K < 1:
		return nil, fmt.Errorf("%s: --neighbors %d is invalid: it must be ≥ 1", cmd, opts.K)
	case opts.Eigenpairs < 0:
		return nil, fmt.Errorf("%s: --eigenpairs %d is invalid: it must be ≥ 1, or 0 for min(N, %d)", cmd, opts.Eigenpairs, imgp.DefaultEigenpairs)
	case opts.Probes < 1:
		return nil, fmt.Errorf("%s: --probes %d is invalid: it must be ≥ 1", cmd, opts.Probes)
	case !(opts.LearningRate > 0) || math.IsInf(opts.LearningRate, 0):
		return nil, fmt.Errorf("%s: --learning-rate %v is invalid: it must be finite and > 0", cmd, opts.LearningRate)
	}
	iters := opts.MaxIter
	if iters == 0 {
		iters = -1 // the library's "no Adam steps"
	}
	r := &imgp.Regressor{K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs, Iterations: iters,
		LearningRate: opts.LearningRate, Probes: opts.Probes, Distance: distance, Procedure: procedure}
	if opts.Approximate {
		r.Approximate = &knngraph.Descent{Seed: opts.Seed}
	}
	return r, nil
}

// checkGPMemory refuses an exact GP on n points whose dense matrices (K,
// its factor and the distances: 3·8n² bytes) pass --max-memory.
func checkGPMemory(cmd, maxMemory string, n int) error {
	limit, err := parseBytes("max-memory", maxMemory)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	need := 3 * 8 * int64(n) * int64(n)
	if err := checkMemory(need, limit, fmt.Sprintf("the exact GP's 3 dense %d×%d matrices (one row per labelled point)", n, n), "label fewer points, or use gssl falkon (Nyström, memory n·M)"); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

func runIMGP(ctx context.Context, opts imgpOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if err := checkIMGPOutputs(opts); err != nil {
		return err
	}
	r, err := imgpModel("imgp", opts)
	if err != nil {
		return err
	}
	data, err := loadRegression("imgp", opts.Images, opts.Synthetic, &opts.Points, opts.Seed)
	if err == nil {
		err = labelRegression("imgp", data, opts.Subset, opts.Labelled, opts.Seed)
	}
	if err != nil {
		return err
	}
	if err := checkGPMemory("imgp", opts.MaxMemory, len(data.Labelled)); err != nil {
		return err
	}
	prog := newProgress(stderr, max(opts.MaxIter, 1), "imgp: Adam")
	r.Seed, r.Euclidean, r.Scaling = opts.Seed, &gp.Regressor{Fixed: opts.EuclFixed}, &data.Scaling
	r.Progress = func(int, imgp.Hyperparameters, [4]float64) { prog.Add(1) }
	logf(stderr, "imgp: %d nodes, %d labelled, %d points off the graph; fitting", rowsOf(data.X), len(data.Labelled), rowsOf(data.XTest))
	run, err := protocol.RunIMGP(ctx, r, protocol.IMGPTask{X: data.X, Y: data.Y, Labelled: data.Labelled, XTest: data.XTest, YTest: data.YTest,
		Likelihood: imgpLikelihood(opts, prog, stderr)})
	prog.Finish()
	if err != nil {
		return err
	}
	res := newIMGPResult(opts, data, r, run)
	if err := writeIMGPOutputs(ctx, opts, data, r, run, &res, stderr); err != nil {
		return err
	}
	res.Seconds = seconds(start)
	rp := plotFlags{Report: opts.Report, start: start}
	if err := rp.write(stderr, "imgp", res, func() (picture, error) {
		if run.Scores == nil {
			return picture{notes: []string{"no figure: it needs the true targets of the points off the graph (--test-targets)"}}, nil
		}
		pl, err := imgpPanel(data.Name, data.Standardised(), run.Test, run.Scores.RefinedPrediction, r.EuclideanModel().Hyperparameters().Noise, data.Scaling.Scale)
		return picture{panels: []*figures.Plot{pl}, caption: "IMGP and the Euclidean GP: " + res.Data}, err
	}); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printIMGP(w, res) })
}

// checkIMGPOutputs checks the output flags before any work.
func checkIMGPOutputs(opts imgpOptions) error {
	if _, err := plotFormat(opts.Plot); err != nil {
		return fmt.Errorf("imgp: %w", err)
	}
	if err := (&plotFlags{Report: opts.Report}).check(); err != nil {
		return fmt.Errorf("imgp: %w", err)
	}
	return checkOutPaths("imgp", opts.Out, opts.Save)
}

// imgpLikelihood is the likelihood settings of the flags (nil:
// --likelihood-probes < 0 skips it); its progress bar follows the fit's.
func imgpLikelihood(opts imgpOptions, fit *progress, stderr io.Writer) *imgp.LikelihoodSettings {
	if opts.LikProbes < 0 {
		return nil
	}
	var bar *progress
	return &imgp.LikelihoodSettings{ExactLabels: opts.LikExact, TraceSettings: spectral.TraceSettings{
		Probes: opts.LikProbes, Steps: opts.LikSteps, Seed: opts.Seed,
		Progress: func(done, total int) {
			if bar == nil {
				fit.Finish()
				bar = newProgress(stderr, total, "imgp: likelihood")
			}
			bar.Add(1)
			if done == total {
				bar.Finish()
			}
		}}}
}

// newIMGPResult is the JSON object of a run.
func newIMGPResult(opts imgpOptions, data *protocol.RegressionTask, r *imgp.Regressor, run *protocol.IMGPRun) imgpResult {
	n, lab := rowsOf(data.X), len(data.Labelled)
	res := imgpResult{Data: data.Name, Nodes: n, Test: rowsOf(data.XTest), NLabelled: lab, Seed: opts.Seed,
		K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs, SecondsFit: run.Fit.Seconds(), Labelled: float64(lab) / float64(n)}
	if res.Eigenpairs == 0 {
		res.Eigenpairs = min(n, imgp.DefaultEigenpairs) // what Fit used
	}
	switch {
	case data.XTest == nil:
		res.MetricsReason = "no points off the graph (--test-features)"
	case data.YTest == nil:
		res.MetricsReason = "no true targets for the points off the graph (--test-targets)"
	}
	if sc := run.Scores; sc != nil {
		res.RMSE, res.NLL, res.RefinedRMSE, res.RefinedNLL = finite(sc.RMSE), finite(sc.NLL), finite(sc.RefinedRMSE), finite(sc.RefinedNLL)
		res.EuclideanRMSE, res.EuclideanNLL = finite(sc.EuclideanRMSE), finite(sc.EuclideanNLL)
		rh := sc.Refined.Hyperparameters()
		res.RefinedKappa, res.RefinedNoise = rh.Kappa, rh.Noise
	}
	res.ManifoldRMSE, res.GammaMean = finite(run.ManifoldRMSE), run.GammaMean
	res.NodeRMSE, res.NodeRMSEFull = finite(run.NodeRMSE), finite(run.NodeRMSEFull)
	res.SecondsPredict, res.SecondsEuclPred = run.Predict.Seconds(), run.EuclideanPredict.Seconds()
	e := r.EuclideanModel()
	eh, h := e.Hyperparameters(), r.Hyperparameters()
	res.Alpha, res.Kappa, res.Amplitude, res.Noise, res.Variance = h.Alpha, h.Kappa, h.Amplitude, h.Noise, finite(r.Variance())
	res.EuclideanAmp, res.EuclideanLength, res.EuclideanNoise, res.EuclideanLML = eh.Amplitude, eh.LengthScale, eh.Noise, finite(e.LogMarginalLikelihood())
	res.AdamSteps, res.CGIterations = r.Steps()
	_, res.Components = r.FittedGraph().Dist2.Components()
	t := r.Timings()
	res.SecondsGraph, res.SecondsTrain, res.SecondsEigen, res.SecondsEucl = t.Graph.Seconds(), t.Train.Seconds(), t.Eigen.Seconds(), t.Euclidean.Seconds()
	if ll := run.Likelihood; ll != nil {
		res.LML, res.LMLStdErr, res.LMLExact, res.SecondsLML = finite(ll.Value), finite(ll.StdErr), ll.Exact, run.LikelihoodTime.Seconds()
	}
	return res
}

// writeIMGPOutputs writes --plot, --out and --save.
func writeIMGPOutputs(ctx context.Context, opts imgpOptions, data *protocol.RegressionTask, r *imgp.Regressor, run *protocol.IMGPRun, res *imgpResult, stderr io.Writer) error {
	if opts.Plot != "" && run.Scores != nil {
		if err := plotIMGP(opts.Plot, data.Name, data.Standardised(), run.Test, run.Scores.RefinedPrediction, r.EuclideanModel().Hyperparameters().Noise, data.Scaling.Scale); err != nil {
			return err
		}
		logf(stderr, "imgp: wrote %s", opts.Plot)
	} else if opts.Plot != "" {
		logf(stderr, "imgp: no --plot: it needs the true targets of the points off the graph (--test-targets)")
	}
	var preds []protocol.Prediction
	if opts.Out != "" {
		var err error
		if preds, err = protocol.IMGPPredictions(orBackground(ctx), r, data, run.Test); err != nil {
			return err
		}
	}
	if err := writeRegressionOutputs("imgp", opts.Out, opts.Save, r, data, preds, true); err != nil {
		return err
	}
	if opts.Out != "" {
		logf(stderr, "imgp: wrote %s", opts.Out)
	}
	res.Saved = opts.Save
	return nil
}

func rowsOf(x *mat.Dense) int {
	if x == nil {
		return 0
	}
	n, _ := x.Dims()
	return n
}

func printIMGP(w io.Writer, r imgpResult) {
	fmt.Fprintf(w, "IMGP on %s: %d nodes (%d components), %d labelled (%.3g%%), %d test points\n", r.Data, r.Nodes, r.Components, r.NLabelled, 100*r.Labelled, r.Test)
	fmt.Fprintf(w, "  K %d, ν %d, L %d, seed %d\n", r.K, r.Nu, r.Eigenpairs, r.Seed)
	fmt.Fprintf(w, "  %-14s %10s %10s\n", "model", "RMSE", "NLL")
	fmt.Fprintf(w, "  %-14s %10s %10s\n", "IMGP", fmtAny(r.RMSE), fmtAny(r.NLL))
	fmt.Fprintf(w, "  %-14s %10s %10s   (κ, s, σ_ε² refitted on the rank-L model: κ %.4g, σ_ε² %.4g)\n", "IMGP refined", fmtAny(r.RefinedRMSE), fmtAny(r.RefinedNLL), r.RefinedKappa, r.RefinedNoise)
	fmt.Fprintf(w, "  %-14s %10s %10s\n", "Euclidean GP", fmtAny(r.EuclideanRMSE), fmtAny(r.EuclideanNLL))
	fmt.Fprintf(w, "  unlabelled-node RMSE %s (rank-L), %s (full-rank GMRF mean); mean γ %.3f on the test points\n", fmtAny(r.NodeRMSE), fmtAny(r.NodeRMSEFull), r.GammaMean)
	fmt.Fprintf(w, "  fitted α %.4g, κ %.4g, σ² %s, σ_ε² %.4g (%d Adam steps, %d CG iterations)\n", r.Alpha, r.Kappa, fmtAny(r.Variance), r.Noise, r.AdamSteps, r.CGIterations)
	if v, ok := r.LML.(float64); ok {
		how := "exact determinant lemma"
		if !r.LMLExact {
			how = fmt.Sprintf("± %.3g, stochastic Lanczos quadrature", fmtStdErr(r.LMLStdErr))
		}
		fmt.Fprintf(w, "  log marginal likelihood at the fitted hyperparameters %.4f (%s; %.2fs)\n", v, how, r.SecondsLML)
	}
	fmt.Fprintf(w, "  Euclidean GP: amplitude %.4g, length scale %.4g, noise %.4g\n", r.EuclideanAmp, r.EuclideanLength, r.EuclideanNoise)
	fmt.Fprintf(w, "  time: graph %.2fs, training %.2fs, eigenpairs %.2fs, Euclidean GP %.2fs, prediction %.2fs; total %.2fs\n",
		r.SecondsGraph, r.SecondsTrain, r.SecondsEigen, r.SecondsEucl, r.SecondsPredict, r.Seconds)
	if r.Saved != "" {
		fmt.Fprintf(w, "  model saved to %s (gssl predict --model %s --features FILE)\n", r.Saved, r.Saved)
	}
}

func fmtStdErr(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

func fmtAny(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.4f", f)
	}
	return "n/a"
}
