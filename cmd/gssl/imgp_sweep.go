package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/protocol"
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
			return runIMGPSweep(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addIMGPModelFlags(cmd, &opts.imgpOptions)
	f.Float64SliceVar(&opts.Fractions, "fractions", []float64{0.005, 0.01, 0.02, 0.05, 0.1}, "labelled fractions")
	f.IntVar(&opts.Seeds, "seeds", 5, "seeds 0 … seeds−1 per fraction")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the synthetic curve")
	f.StringVar(&opts.Subsets, "subsets", "", "folder of subset files train_subset<100f>_seed<s>.txt")
	f.StringVar(&opts.Plot, "plot", "", "write a figure of RMSE against the labelled fraction (.png, .svg, .pdf)")
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
	RMSEMean         any     `json:"rmse_mean"`
	RMSEStd          any     `json:"rmse_std"`
	NLLMean          any     `json:"nll_mean"`
	NLLStd           any     `json:"nll_std"`
	EuclideanRMSE    any     `json:"euclidean_rmse_mean"`
	EuclideanRMSEStd any     `json:"euclidean_rmse_std"`
	EuclideanNLL     any     `json:"euclidean_nll_mean"`
	EuclideanNLLStd  any     `json:"euclidean_nll_std"`
	Ratio            any     `json:"euclidean_over_imgp_rmse"`
	RefinedRMSE      any     `json:"refined_rmse_mean"`
	RefinedRMSEStd   any     `json:"refined_rmse_std"`
	RefinedNLL       any     `json:"refined_nll_mean"`
	RefinedNLLStd    any     `json:"refined_nll_std"`
	RefinedRatio     any     `json:"euclidean_over_refined_rmse"`
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

func runIMGPSweep(ctx context.Context, opts sweepOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if err := checkSeedCount(opts.Seeds, 1); err != nil {
		return fmt.Errorf("imgp sweep: %w", err)
	}
	if len(opts.Fractions) == 0 {
		return fmt.Errorf("imgp sweep: no --fractions")
	}
	for i, f := range opts.Fractions {
		if !(f > 0 && f <= 1) {
			return fmt.Errorf("imgp sweep: --fractions value %d (%v) is invalid: every labelled fraction must be in (0, 1]", i+1, f)
		}
	}
	if _, err := plotFormat(opts.Plot); err != nil {
		return fmt.Errorf("imgp sweep: %w", err)
	}
	model, err := imgpModel("imgp sweep", opts.imgpOptions)
	if err != nil {
		return err
	}
	data, err := loadRegression("imgp sweep", opts.Images, opts.Synthetic, &opts.Points, opts.Seed)
	if err != nil {
		return err
	}
	if data.User || data.YTest == nil {
		return fmt.Errorf("imgp sweep: needs every training target and scored test points: use --images or --synthetic")
	}
	n := rowsOf(data.X)
	if err := checkGPMemory("imgp sweep", opts.MaxMemory, n); err != nil {
		return err
	}
	prog := newProgress(stderr, len(opts.Fractions)*opts.Seeds, "imgp sweep")
	defer prog.Finish()
	model.Scaling = &data.Scaling
	sw := protocol.IMGPSweep{Model: model, Fractions: opts.Fractions, Seeds: opts.Seeds,
		Progress: func(run protocol.IMGPSweepRun) {
			sc := run.Scores
			logf(stderr, "imgp sweep: fraction %g seed %d (%d labelled): IMGP RMSE %.4f NLL %.4g, refined %.4f %.4g, Euclidean RMSE %.4f NLL %.4g (%.1fs)",
				run.Fraction, run.Seed, run.Labelled, sc.RMSE, sc.NLL, sc.RefinedRMSE, sc.RefinedNLL, sc.EuclideanRMSE, sc.EuclideanNLL, run.Duration.Seconds())
			prog.Add(1)
		}}
	if opts.Subsets != "" {
		subset := protocol.SubsetFiles(opts.Subsets, n)
		sw.Subset = func(frac float64, seed int) ([]int, error) {
			idx, err := subset(frac, seed)
			return idx, withFlag("subsets", err)
		}
	}
	sr, err := sw.Run(ctx, data.X, data.Y, data.XTest, data.YTest)
	if err != nil {
		return err
	}
	res := sweepResult{Data: data.Name, Nodes: n, Test: rowsOf(data.XTest), K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs,
		Iterations: opts.MaxIter, SecondsGraph: sr.GraphTime.Seconds()}
	for _, run := range sr.Runs {
		sc := run.Scores
		res.Runs = append(res.Runs, sweepRun{Fraction: run.Fraction, Seed: run.Seed, NLabelled: run.Labelled,
			RMSE: sc.RMSE, NLL: finite(sc.NLL), EuclideanRMSE: sc.EuclideanRMSE, EuclideanNLL: finite(sc.EuclideanNLL),
			RefinedRMSE: sc.RefinedRMSE, RefinedNLL: finite(sc.RefinedNLL), Alpha: run.Fitted.Alpha, Kappa: run.Fitted.Kappa,
			Noise: run.Fitted.Noise, Seconds: run.Duration.Seconds()})
	}
	for _, m := range sr.Summary {
		res.Summary = append(res.Summary, sweepSummary{Fraction: m.Fraction, RMSEMean: finite(m.RMSEMean), RMSEStd: finite(m.RMSEStd),
			NLLMean: finite(m.NLLMean), NLLStd: finite(m.NLLStd), EuclideanRMSE: finite(m.EuclideanRMSEMean), EuclideanRMSEStd: finite(m.EuclideanRMSEStd),
			EuclideanNLL: finite(m.EuclideanNLLMean), EuclideanNLLStd: finite(m.EuclideanNLLStd), Ratio: finite(m.EuclideanOverIMGP),
			RefinedRMSE: finite(m.RefinedRMSEMean), RefinedRMSEStd: finite(m.RefinedRMSEStd), RefinedNLL: finite(m.RefinedNLLMean),
			RefinedNLLStd: finite(m.RefinedNLLStd), RefinedRatio: finite(m.EuclideanOverRefined)})
	}
	if opts.Plot != "" {
		if err := plotSweep(opts.Plot, sr); err != nil {
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
	pm := func(m, s any, prec int) string {
		return fmt.Sprintf("%-19s", fmtPrec(m, prec)+" ± "+fmtPrec(s, prec))
	}
	for _, s := range r.Summary {
		fmt.Fprintf(w, "  %-9s %s %s %s %s %s %s %s %s\n",
			strconv.FormatFloat(100*s.Fraction, 'g', -1, 64)+"%", pm(s.RMSEMean, s.RMSEStd, 4), pm(s.NLLMean, s.NLLStd, 3),
			pm(s.RefinedRMSE, s.RefinedRMSEStd, 4), pm(s.RefinedNLL, s.RefinedNLLStd, 3),
			pm(s.EuclideanRMSE, s.EuclideanRMSEStd, 4), pm(s.EuclideanNLL, s.EuclideanNLLStd, 3), fmtPrec(s.Ratio, 2), fmtPrec(s.RefinedRatio, 2))
	}
	fmt.Fprintf(w, "  (mean ± std over seeds; ratios = Euclidean RMSE / IMGP RMSE, / refined RMSE; graph %.1fs, total %.1fs)\n", r.SecondsGraph, r.Seconds)
}

// fmtPrec prints a number that may be null (undefined) with prec decimals.
func fmtPrec(v any, prec int) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', prec, 64)
	}
	return "n/a"
}

// plotSweep draws test RMSE against the labelled fraction, mean ± std over
// seeds, for IMGP, its refit and the Euclidean GP, on log axes.
func plotSweep(path string, r *protocol.IMGPSweepResult) error {
	series := func(name string, mean, std func(s protocol.IMGPSweepSummary) float64) figures.Series {
		out := figures.Series{Name: name}
		for _, s := range r.Summary {
			out.X, out.Y, out.Err = append(out.X, s.Fraction), append(out.Y, mean(s)), append(out.Err, std(s))
		}
		return out
	}
	pl, err := figures.Curves("RMSE against labelled fraction", "labelled fraction", "test RMSE (standardised), mean ± std over seeds", true, true,
		series("IMGP", func(s protocol.IMGPSweepSummary) float64 { return s.RMSEMean }, func(s protocol.IMGPSweepSummary) float64 { return s.RMSEStd }),
		series("IMGP, rank-L refit", func(s protocol.IMGPSweepSummary) float64 { return s.RefinedRMSEMean }, func(s protocol.IMGPSweepSummary) float64 { return s.RefinedRMSEStd }),
		series("Euclidean GP (Matérn 5/2)", func(s protocol.IMGPSweepSummary) float64 { return s.EuclideanRMSEMean }, func(s protocol.IMGPSweepSummary) float64 { return s.EuclideanRMSEStd }))
	if err != nil {
		return fmt.Errorf("imgp sweep: drawing the plot: %w", err)
	}
	fig := &figures.Figure{Panels: []*figures.Plot{pl}, PanelWidth: 6 * vg.Inch, PanelHeight: 4.5 * vg.Inch}
	if err := fig.Save(path); err != nil {
		return fmt.Errorf("imgp sweep: writing the plot: %w", err)
	}
	return nil
}
