package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
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
	f.StringVar(&opts.Covariance, "covariance", "matern52", "matern52 or squared-exponential")
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
	if err := checkOutPath("out", opts.Out); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
	}
	if err := checkOutPath("save", opts.Save); err != nil {
		return nil, fmt.Errorf("gp: %w", err)
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
	if err != nil {
		return err
	}
	lab, err := chooseLabelledPoints("gp", opts.Subset, opts.Labelled, opts.Seed, data)
	if err != nil {
		return err
	}
	if err := checkGPMemory("gp", opts.MaxMemory, len(lab)); err != nil {
		return err
	}
	x := subRows(data.x, lab)
	y := make([]float64, len(lab))
	for p, i := range lab {
		y[p] = data.y[i]
	}
	n, d := data.x.Dims()
	logf(stderr, "gp: %s: %d points in R^%d, %d labelled; fitting", data.name, n, d, len(lab))
	if err := m.Fit(ctx, x, y); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	h := m.Hyperparameters()
	res := gpResult{Data: data.name, Points: n, Dims: d, Labelled: len(lab), Covariance: m.Covariance.String(),
		Amplitude: h.Amplitude, LengthScale: h.LengthScale, Noise: h.Noise, LML: finite(m.LogMarginalLikelihood()), Evaluations: m.Evaluations()}
	pred, err := predictGP(ctx, m, data, lab)
	if err != nil {
		return err
	}
	res.Predicted = len(pred.rows)
	res.RMSE, res.NLL, res.MetricsReason = pred.scores(data, h.Noise)
	if opts.Out != "" {
		if err := pred.write(opts.Out, data, h.Noise); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		if err := savePointModel(opts.Save, m, data); err != nil {
			return fmt.Errorf("gp: %w", err)
		}
		res.Saved = opts.Save
	}
	res.Seconds = seconds(start)
	if err := opts.Plots.write(stderr, "gp", res, func() (picture, error) { return gpPicture(pred, data, h.Noise, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "GP (%s) on %s: %d points in R^%d, %d labelled, %d predicted\n", res.Covariance, res.Data, n, d, res.Labelled, res.Predicted)
		fmt.Fprintf(w, "  amplitude %.4g, length scale %.4g, noise %.4g; log marginal likelihood %s (%d evaluations)\n", h.Amplitude, h.LengthScale, h.Noise, fmtAny(res.LML), res.Evaluations)
		if res.MetricsReason == "" {
			fmt.Fprintf(w, "  test RMSE %s, NLL %s\n", fmtAny(res.RMSE), fmtAny(res.NLL))
		}
		if res.Out != "" {
			fmt.Fprintf(w, "  wrote %s\n", res.Out)
		}
		if res.Saved != "" {
			fmt.Fprintf(w, "  model saved to %s (gssl predict --model %s --features FILE)\n", res.Saved, res.Saved)
		}
	})
}

// gpPrediction is the posterior at the predicted points: the rows of x
// without a target (the user's points) and every test point.
type gpPrediction struct {
	rows         []int // index into x (set "features") or, from len(x) on, into xt
	mean, latent []float64
}

func predictGP(ctx context.Context, m *gp.Regressor, data *regressionData, lab []int) (*gpPrediction, error) {
	p := &gpPrediction{}
	n, _ := data.x.Dims()
	if data.user {
		var un []int
		for i, v := range data.y {
			if math.IsNaN(v) {
				un = append(un, i)
			}
		}
		if len(un) > 0 {
			r, err := m.Predict(ctx, subRows(data.x, un))
			if err != nil {
				return nil, fmt.Errorf("gp: %w", err)
			}
			p.rows, p.mean, p.latent = un, r.Mean, r.Variance
		}
	}
	if data.xt != nil {
		r, err := m.Predict(ctx, data.xt)
		if err != nil {
			return nil, fmt.Errorf("gp: %w", err)
		}
		for i := range r.Mean {
			p.rows = append(p.rows, n+i)
		}
		p.mean, p.latent = append(p.mean, r.Mean...), append(p.latent, r.Variance...)
	}
	return p, nil
}

// scores returns the test RMSE and NLL in the targets' units, or nil and
// the reason they are undefined.
func (p *gpPrediction) scores(data *regressionData, noise float64) (rmse, nll any, reason string) {
	if data.yt == nil {
		return nil, nil, "no test targets (--test-targets)"
	}
	n, _ := data.x.Dims()
	var mean, obs, truth []float64
	for k, r := range p.rows {
		if r >= n {
			mean = append(mean, data.mean+data.scale*p.mean[k])
			obs = append(obs, data.scale*data.scale*(p.latent[k]+noise))
			truth = append(truth, data.mean+data.scale*data.yt[r-n])
		}
	}
	a, err := eval.RMSE(mean, truth)
	if err != nil {
		return nil, nil, err.Error()
	}
	b, err := eval.GaussianNLL(mean, obs, truth)
	if err != nil {
		return finite(a), nil, "NLL: " + err.Error()
	}
	return finite(a), finite(b), ""
}

func (p *gpPrediction) write(path string, data *regressionData, noise float64) error {
	n, _ := data.x.Dims()
	s2 := data.scale * data.scale
	return writeTable(path, []string{"id", "set", "prediction", "variance", "observation_variance", "target"}, len(p.rows),
		func(k int, rec []any) {
			r := p.rows[k]
			if r < n {
				rec[0], rec[1], rec[5] = data.ids[r], "features", nil
			} else {
				rec[0], rec[1] = data.testIDs[r-n], "test-features"
				if data.yt != nil {
					rec[5] = data.mean + data.scale*data.yt[r-n]
				}
			}
			rec[2], rec[3], rec[4] = data.mean+data.scale*p.mean[k], s2*p.latent[k], s2*(p.latent[k]+noise)
		})
}
