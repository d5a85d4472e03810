package main

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
)

type sweepOptions struct {
	imgpOptions
	Fractions []float64
	Seeds     int
	Subsets   string // folder of train_subset<100f>_seed<s>.txt files; empty: seeded Go subsets
}

func newIMGPSweepCommand(g *globals) *cobra.Command {
	opts := sweepOptions{}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "IMGP against the Euclidean GP over labelled fractions and seeds (one shared graph)",
		Long: `sweep runs imgp for every labelled fraction and seed on one KNN graph of the
training images, and reports RMSE and NLL of IMGP and of the Euclidean GP per run
and as mean ± std over seeds per fraction. With --subsets DIR the labelled points of
fraction f and seed s are read from DIR/train_subset<100f>_seed<s>.txt (written by
scripts/imgp_subsets.py with numpy, so scikit-learn sees the same points); without
it they are seeded Go draws. --plot draws RMSE against the labelled fraction.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = sharedData("srmnist")
			}
			return runIMGPSweep(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addIMGPModelFlags(f, &opts.imgpOptions)
	f.Float64SliceVar(&opts.Fractions, "fractions", []float64{0.005, 0.01, 0.02, 0.05, 0.1}, "labelled fractions")
	f.IntVar(&opts.Seeds, "seeds", 5, "seeds 0 … seeds−1 per fraction")
	f.StringVar(&opts.Subsets, "subsets", "", "folder of subset files train_subset<100f>_seed<s>.txt")
	f.StringVar(&opts.Plot, "plot", "", "write a PNG of RMSE against the labelled fraction")
	return cmd
}

// sweepRun is one (fraction, seed) fit.
type sweepRun struct {
	Fraction      float64 `json:"fraction"`
	Seed          int     `json:"seed"`
	NLabelled     int     `json:"n_labelled"`
	RMSE          float64 `json:"rmse"`
	NLL           any     `json:"nll"`
	EuclideanRMSE float64 `json:"euclidean_rmse"`
	EuclideanNLL  any     `json:"euclidean_nll"`
	RefinedRMSE   float64 `json:"refined_rmse"`
	RefinedNLL    any     `json:"refined_nll"`
	Alpha         float64 `json:"alpha"`
	Kappa         float64 `json:"kappa"`
	Noise         float64 `json:"noise"`
	Seconds       float64 `json:"seconds"`
}

// sweepSummary is mean ± std over the seeds of one fraction.
type sweepSummary struct {
	Fraction         float64 `json:"fraction"`
	RMSEMean         float64 `json:"rmse_mean"`
	RMSEStd          float64 `json:"rmse_std"`
	NLLMean          float64 `json:"nll_mean"`
	NLLStd           float64 `json:"nll_std"`
	EuclideanRMSE    float64 `json:"euclidean_rmse_mean"`
	EuclideanRMSEStd float64 `json:"euclidean_rmse_std"`
	EuclideanNLL     float64 `json:"euclidean_nll_mean"`
	EuclideanNLLStd  float64 `json:"euclidean_nll_std"`
	Ratio            float64 `json:"euclidean_over_imgp_rmse"`
	RefinedRMSE      float64 `json:"refined_rmse_mean"`
	RefinedRMSEStd   float64 `json:"refined_rmse_std"`
	RefinedNLL       float64 `json:"refined_nll_mean"`
	RefinedNLLStd    float64 `json:"refined_nll_std"`
	RefinedRatio     float64 `json:"euclidean_over_refined_rmse"`
}

type sweepResult struct {
	Data         string         `json:"data"`
	Nodes        int            `json:"nodes"`
	Test         int            `json:"test"`
	K            int            `json:"k"`
	Nu           int            `json:"nu"`
	Eigenpairs   int            `json:"eigenpairs"`
	Iterations   int            `json:"iterations"`
	Runs         []sweepRun     `json:"runs"`
	Summary      []sweepSummary `json:"summary"`
	SecondsGraph float64        `json:"seconds_graph"`
	Seconds      float64        `json:"seconds"`
}

func subsetFile(dir string, frac float64, seed int) string {
	pct := strconv.FormatFloat(frac*100, 'g', -1, 64)
	return filepath.Join(dir, fmt.Sprintf("train_subset%s_seed%d.txt", pct, seed))
}

func runIMGPSweep(ctx context.Context, opts sweepOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if opts.Seeds < 1 {
		return fmt.Errorf("imgp sweep: --seeds %d is invalid: it must be ≥ 1", opts.Seeds)
	}
	if len(opts.Fractions) == 0 {
		return fmt.Errorf("imgp sweep: no --fractions")
	}
	if opts.Nu < 1 {
		return fmt.Errorf("imgp sweep: --nu %d is invalid: the sparse precision needs a positive integer ν", opts.Nu)
	}
	var data *regressionData
	var err error
	if opts.Synthetic > 0 {
		data = syntheticCurve(opts.Synthetic, 0)
	} else if data, err = loadAngles(opts.Data); err != nil {
		return err
	}
	distance := imgp.NearestNode
	if opts.Distance == "mean" {
		distance = imgp.MeanNeighbour
	} else if opts.Distance != "nearest" && opts.Distance != "" {
		return fmt.Errorf("imgp sweep: --distance %q is invalid: use nearest or mean", opts.Distance)
	}
	n, _ := data.x.Dims()
	if opts.K >= n || opts.K < 1 {
		return fmt.Errorf("imgp sweep: --k %d is invalid for %d points: it must be in [1, %d]", opts.K, n, n-1)
	}
	gstart := timeNow()
	geo, err := imgp.BuildGraph(ctx, data.x, opts.K, nil)
	if err != nil {
		return err
	}
	res := sweepResult{Data: data.name, Nodes: n, Test: len(data.yt), K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs,
		Iterations: opts.Iterations, SecondsGraph: seconds(gstart)}
	prog := newProgress(stderr, len(opts.Fractions)*opts.Seeds, "imgp sweep")
	defer prog.Finish()
	for _, frac := range opts.Fractions {
		for seed := 0; seed < opts.Seeds; seed++ {
			one := opts.imgpOptions
			one.Labelled, one.Seed, one.Subset = frac, uint64(seed), ""
			if opts.Subsets != "" {
				one.Subset = subsetFile(opts.Subsets, frac, seed)
				if _, err := os.Stat(one.Subset); err != nil {
					return fmt.Errorf("imgp sweep: %w", err)
				}
			}
			lab, err := chooseLabelled(one, n)
			if err != nil {
				return err
			}
			y := make([]float64, len(lab))
			for p, i := range lab {
				y[p] = data.y[i]
			}
			rstart := timeNow()
			r := &imgp.Regressor{Graph: geo, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs, Iterations: opts.Iterations,
				LearningRate: opts.LearningRate, Probes: opts.Probes, Seed: uint64(seed), Distance: distance, Euclidean: &gp.Regressor{}}
			if err := r.Fit(ctx, data.x, lab, y); err != nil {
				return fmt.Errorf("imgp sweep: fraction %v seed %d: %w", frac, seed, err)
			}
			p, err := r.Predict(ctx, data.xt)
			if err != nil {
				return err
			}
			run := sweepRun{Fraction: frac, Seed: seed, NLabelled: len(lab), Seconds: seconds(rstart)}
			sc, err := scoreIMGP(ctx, r, p, data)
			if err != nil {
				return err
			}
			run.RMSE, run.NLL, run.RefinedRMSE, run.RefinedNLL = sc.RMSE, sc.NLL, sc.RefinedRMSE, sc.RefinedNLL
			run.EuclideanRMSE, run.EuclideanNLL = sc.EuclideanRMSE, sc.EuclideanNLL
			h := r.Hyperparameters()
			run.Alpha, run.Kappa, run.Noise = h.Alpha, h.Kappa, h.Noise
			res.Runs = append(res.Runs, run)
			logf(stderr, "imgp sweep: fraction %g seed %d (%d labelled): IMGP RMSE %.4f NLL %s, refined %.4f %s, Euclidean RMSE %.4f NLL %s (%.1fs)",
				frac, seed, len(lab), run.RMSE, fmtAny(run.NLL), run.RefinedRMSE, fmtAny(run.RefinedNLL), run.EuclideanRMSE, fmtAny(run.EuclideanNLL), run.Seconds)
			prog.Add(1)
		}
	}
	for _, frac := range opts.Fractions {
		var rm, nl, erm, enl, frm, fnl []float64
		for _, run := range res.Runs {
			if run.Fraction != frac {
				continue
			}
			rm, erm, frm = append(rm, run.RMSE), append(erm, run.EuclideanRMSE), append(frm, run.RefinedRMSE)
			if v, ok := run.RefinedNLL.(float64); ok {
				fnl = append(fnl, v)
			}
			if v, ok := run.NLL.(float64); ok {
				nl = append(nl, v)
			}
			if v, ok := run.EuclideanNLL.(float64); ok {
				enl = append(enl, v)
			}
		}
		s := sweepSummary{Fraction: frac}
		s.RMSEMean, s.RMSEStd = eval.MeanStd(rm)
		s.NLLMean, s.NLLStd = eval.MeanStd(nl)
		s.EuclideanRMSE, s.EuclideanRMSEStd = eval.MeanStd(erm)
		s.EuclideanNLL, s.EuclideanNLLStd = eval.MeanStd(enl)
		s.Ratio = s.EuclideanRMSE / s.RMSEMean
		s.RefinedRMSE, s.RefinedRMSEStd = eval.MeanStd(frm)
		s.RefinedNLL, s.RefinedNLLStd = eval.MeanStd(fnl)
		s.RefinedRatio = s.EuclideanRMSE / s.RefinedRMSE
		res.Summary = append(res.Summary, s)
	}
	if opts.Plot != "" {
		if err := plotSweep(opts.Plot, res); err != nil {
			return err
		}
		logf(stderr, "imgp sweep: wrote %s", opts.Plot)
	}
	res.Seconds = seconds(start)
	return report(stdout, opts.JSON, res, func(w io.Writer) { printSweep(w, res) })
}

func printSweep(w io.Writer, r sweepResult) {
	fmt.Fprintf(w, "IMGP vs Euclidean GP on %s: %d nodes, %d test points, K %d, ν %d, L %d, %d Adam steps\n",
		r.Data, r.Nodes, r.Test, r.K, r.Nu, r.Eigenpairs, r.Iterations)
	fmt.Fprintf(w, "  %-9s %-19s %-19s %-19s %-19s %-19s %-19s %s\n", "labelled", "IMGP RMSE", "IMGP NLL", "refined RMSE", "refined NLL", "Euclid RMSE", "Euclid NLL", "ratios")
	for _, s := range r.Summary {
		fmt.Fprintf(w, "  %-9s %.4f ± %-10.4f %.3f ± %-10.3f %.4f ± %-10.4f %.3f ± %-10.3f %.4f ± %-10.4f %.3f ± %-10.3f %.2f %.2f\n",
			strconv.FormatFloat(100*s.Fraction, 'g', -1, 64)+"%", s.RMSEMean, s.RMSEStd, s.NLLMean, s.NLLStd,
			s.RefinedRMSE, s.RefinedRMSEStd, s.RefinedNLL, s.RefinedNLLStd,
			s.EuclideanRMSE, s.EuclideanRMSEStd, s.EuclideanNLL, s.EuclideanNLLStd, s.Ratio, s.RefinedRatio)
	}
	fmt.Fprintf(w, "  (mean ± std over seeds; ratios = Euclidean RMSE / IMGP RMSE, / refined RMSE; graph %.1fs, total %.1fs)\n", r.SecondsGraph, r.Seconds)
}

func plotSweep(path string, r sweepResult) error {
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("RMSE against labelled fraction (%s)", filepath.Base(r.Data))
	pl.X.Label.Text = "labelled fraction"
	pl.Y.Label.Text = "test RMSE (standardised), mean ± std over seeds"
	pl.X.Scale = plot.LogScale{}
	pl.Y.Scale = plot.LogScale{}
	pl.X.Tick.Marker = plot.LogTicks{}
	pl.Y.Tick.Marker = plot.LogTicks{}
	add := func(name string, c color.RGBA, mean, std func(s sweepSummary) float64) error {
		xy := make(plotter.XYs, len(r.Summary))
		errs := make(plotter.YErrors, len(r.Summary))
		for i, s := range r.Summary {
			xy[i].X, xy[i].Y = s.Fraction, mean(s)
			lo := math.Min(std(s), 0.9*mean(s))
			errs[i].Low, errs[i].High = lo, std(s)
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		l.Color, pts.Color = c, c
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return err
		}
		bars.Color = c
		pl.Add(l, pts, bars)
		pl.Legend.Add(name, l, pts)
		return nil
	}
	if err := add("IMGP", color.RGBA{R: 30, G: 90, B: 200, A: 255}, func(s sweepSummary) float64 { return s.RMSEMean }, func(s sweepSummary) float64 { return s.RMSEStd }); err != nil {
		return err
	}
	if err := add("IMGP, rank-L refit", color.RGBA{R: 40, G: 160, B: 60, A: 255}, func(s sweepSummary) float64 { return s.RefinedRMSE }, func(s sweepSummary) float64 { return s.RefinedRMSEStd }); err != nil {
		return err
	}
	if err := add("Euclidean GP (Matérn 5/2)", color.RGBA{R: 200, G: 80, B: 30, A: 255}, func(s sweepSummary) float64 { return s.EuclideanRMSE }, func(s sweepSummary) float64 { return s.EuclideanRMSEStd }); err != nil {
		return err
	}
	pl.Legend.Top = true
	pl.Add(plotter.NewGrid())
	if err := pl.Save(6*vg.Inch, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("imgp sweep: writing the plot: %w", err)
	}
	return nil
}
