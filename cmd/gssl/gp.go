package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// gpOptions are the flags of gssl gp.
type gpOptions struct {
	Images     string
	Synthetic  int
	Points     pointInput
	Labelled   float64
	Subset     string
	Seed       uint64
	Covariance string // matern52 or squared-exponential
	Fixed      bool   // keep the initial hyperparameters
	MaxIter    int    // L-BFGS iterations
	Out        string
	Save       string // model file (--save)
	MaxMemory  string
	JSON       bool
	Plots      plotFlags // --plot, --report
}

func newGPCommand(g *globals) *cobra.Command {
	opts := gpOptions{}
	cmd := &cobra.Command{
		Use:   "gp",
		Short: "Exact Gaussian-process regression in R^d (Matérn 5/2 or squared exponential) on your points",
		Long: `gp fits an exact Gaussian-process regressor (package gp: hyperparameters by
maximum marginal likelihood, as scikit-learn's GaussianProcessRegressor) on the
points with a target and predicts the others: the rows of --features whose target
is blank, and every row of --test-features. --test-targets scores the test
predictions (RMSE and mean Gaussian NLL, in the targets' units). --images and
--synthetic take the benchmark data of gssl imgp instead.

The fit is dense: memory 3·8·n² bytes for n labelled points, refused above
--max-memory. --out FILE writes one row per predicted point: id, prediction,
variance of f and of a new observation, the true target when known (CSV, or JSON
Lines for .jsonl/.ndjson).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Points.given() && cmd.Flags().Changed("labelled") {
				return fmt.Errorf("gp: --labelled applies to --images and --synthetic; with --targets the labelled points are those with a target")
			}
			return runGP(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.Points.addFlags(f, "targets")
	f.StringVar(&opts.Images, "images", "", "srmnist-style folder of train/test images and angles (instead of --features)")
	f.IntVar(&opts.Synthetic, "synthetic", 0, "the synthetic closed curve of gssl imgp with this many points (instead of --features)")
	f.Float64Var(&opts.Labelled, "labelled", 0.1, "fraction of the training points labelled, in (0, 1] (--images, --synthetic)")
	f.StringVar(&opts.Subset, "subset", "", "file of labelled training indices (--images, --synthetic)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the labelled subset and of the synthetic curve")
	f.StringVar(&opts.Covariance, "covariance", gp.Matern52.String(), "matern52 or squared-exponential")
	f.BoolVar(&opts.Fixed, "fixed", false, "keep the initial hyperparameters (amplitude 1, length scale 1, noise 1e-2)")
	f.IntVar(&opts.MaxIter, "max-iter", gp.DefaultMaxIterations, "L-BFGS iterations of the hyperparameter fit")
	f.StringVar(&opts.Out, "out", "", "write the predictions, one row per predicted point (CSV, or JSON Lines for .jsonl/.ndjson)")
	f.StringVar(&opts.Save, "save", "", "save the fitted model (with the targets' standardisation) for gssl predict --features and gssl serve")
	opts.Plots.addFlags(f, "the test predictions against their targets with ±2σ bands")
	f.StringVar(&opts.MaxMemory, "max-memory", defaultMaxMemory(), "refuse a fit whose dense matrices pass this size")
	return cmd
}

// gpResult is the JSON object of gssl gp. RMSE and NLL are in the targets'
// units; null (with a reason) without test targets.
type gpResult struct {
	Data          string  `json:"data"`
	Points        int     `json:"points"`
	Dims          int     `json:"dims"`
	Labelled      int     `json:"n_labelled"`
	Predicted     int     `json:"n_predicted"`
	Covariance    string  `json:"covariance"`
	Amplitude     float64 `json:"amplitude"`
	LengthScale   float64 `json:"length_scale"`
	Noise         float64 `json:"noise"`
	LML           any     `json:"log_marginal_likelihood"`
	Evaluations   int     `json:"evaluations"`
	RMSE          any     `json:"rmse"`
	NLL           any     `json:"nll"`
	MetricsReason string  `json:"rmse_reason,omitempty"`
	Out           string  `json:"out,omitempty"`
	Saved         string  `json:"saved,omitempty"`
	Seconds       float64 `json:"seconds"`
}

// gpModel checks the output and model flags and returns the regressor
// they describe.
func gpModel(opts gpOptions) (*gp.Regressor, error) {
	if err := checkOutPaths("gp", opts.Out, opts.Save); err != nil {
		return nil, err
	}
	if err := opts.Plots.check(); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	m := &gp.Regressor{Fixed: opts.Fixed, MaxIterations: opts.MaxIter}
	switch opts.Covariance {
	case "matern52":
	case "squared-exponential", "rbf", "gaussian":
		m.Covariance = gp.SquaredExponential
	default:
		return nil, fmt.Errorf("gp: --covariance %q is invalid: use matern52 or squared-exponential", opts.Covariance)
	}
	if opts.MaxIter < 1 {
		return nil, fmt.Errorf("gp: --max-iter %d is invalid: it must be ≥ 1", opts.MaxIter)
	}
	return m, nil
}

func runGP(ctx context.Context, opts gpOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	m, err := gpModel(opts)
	if err != nil {
		return err
	}
	data, err := loadRegression("gp", opts.Images, opts.Synthetic, &opts.Points, opts.Seed)
	if err == nil {
		err = labelRegression("gp", data, opts.Subset, opts.Labelled, opts.Seed)
	}
	if err != nil {
		return err
	}
	if err := checkGPMemory("gp", opts.MaxMemory, len(data.Labelled)); err != nil {
		return err
	}
	n, d := data.X.Dims()
	logf(stderr, "gp: %s: %d points in R^%d, %d labelled; fitting", data.Name, n, d, len(data.Labelled))
	run, err := protocol.RunGP(ctx, m, data)
	if err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	h := m.Hyperparameters()
	res := gpResult{Data: data.Name, Points: n, Dims: d, Labelled: len(data.Labelled), Covariance: m.Covariance.String(),
		Amplitude: h.Amplitude, LengthScale: h.LengthScale, Noise: h.Noise, LML: finite(m.LogMarginalLikelihood()), Evaluations: m.Evaluations(),
		Predicted: len(run.Predictions), RMSE: finite(run.RMSE), NLL: finite(run.NLL), MetricsReason: run.Reason}
	if err := writeRegressionOutputs("gp", opts.Out, opts.Save, m, data, run.Predictions, false); err != nil {
		return err
	}
	res.Out, res.Saved, res.Seconds = opts.Out, opts.Save, seconds(start)
	if err := opts.Plots.write(stderr, "gp", res, func() (picture, error) { return gpPicture(run, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printGP(w, res) })
}

func printGP(w io.Writer, res gpResult) {
	fmt.Fprintf(w, "GP (%s) on %s: %d points in R^%d, %d labelled, %d predicted\n", res.Covariance, res.Data, res.Points, res.Dims, res.Labelled, res.Predicted)
	fmt.Fprintf(w, "  amplitude %.4g, length scale %.4g, noise %.4g; log marginal likelihood %s (%d evaluations)\n", res.Amplitude, res.LengthScale, res.Noise, fmtAny(res.LML), res.Evaluations)
	if res.MetricsReason == "" {
		fmt.Fprintf(w, "  test RMSE %s, NLL %s\n", fmtAny(res.RMSE), fmtAny(res.NLL))
	}
	if res.Out != "" {
		fmt.Fprintf(w, "  wrote %s\n", res.Out)
	}
	if res.Saved != "" {
		fmt.Fprintf(w, "  model saved to %s (gssl predict --model %s --features FILE)\n", res.Saved, res.Saved)
	}
}

// writeRegressionOutputs writes --out (the predictions in the targets'
// units; gamma says whether imgp's γ column is written) and --save (gp
// with the targets' standardisation; imgp standardises itself).
func writeRegressionOutputs(cmd, out, save string, m savedmodel.Model, data *protocol.RegressionTask, preds []protocol.Prediction, gamma bool) error {
	if out != "" {
		cols := []string{"id", "set", "prediction", "variance", "observation_variance", "gamma", "target"}
		if !gamma {
			cols = append(cols[:5], "target")
		}
		err := writeTable(out, cols, len(preds), func(k int, rec []any) {
			p := preds[k]
			rec[0], rec[1], rec[2], rec[3], rec[4], rec[len(rec)-1] = p.ID, p.Set, p.Mean, p.Variance, p.Observation, p.Target
			if gamma {
				rec[5] = p.Gamma
			}
		})
		if err != nil {
			return err
		}
	}
	if save == "" {
		return nil
	}
	c := savedmodel.Context{Data: data.Name}
	if !gamma {
		c.TargetMean, c.TargetScale = data.Scaling.Mean, data.Scaling.Scale
	}
	if err := savedmodel.Save(save, m, c); err != nil {
		return fmt.Errorf("%s: --save %w", cmd, err)
	}
	return nil
}
