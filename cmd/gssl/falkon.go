package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// falkonOptions are the flags of gssl falkon (help/falkon.md).
type falkonOptions struct {
	protocol.KRRData
	protocol.KRRModels
	Out   string `flag:"out"`
	Save  string `flag:"save"`
	Plots plotFlags
	JSON  bool
}

func newFalkonCommand(g *globals) *cobra.Command {
	opts := falkonOptions{KRRModels: protocol.KRRModels{M: []int{0}, Spec: krr.DefaultSpec()}}
	return newCommand("falkon", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runFalkon(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// falkonResult is the JSON object of gssl falkon with one --m.
type falkonResult struct {
	protocol.KRRReport
	Out         string  `json:"out,omitempty"`
	Saved       string  `json:"saved,omitempty"`
	LoadSeconds float64 `json:"load_seconds"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
}

// falkonSweepResult is the JSON object of gssl falkon with several --m.
type falkonSweepResult struct {
	protocol.KRRSweepReport
	LoadSeconds float64 `json:"load_seconds"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
}

// runFalkon fits the model of the flags (krr.Spec) once, or once per M of
// a sweep (protocol.SweepKRR), and prints, writes and plots the report.
func runFalkon(ctx context.Context, opts falkonOptions, stdout, stderr io.Writer) error {
	spec, note, err := opts.Resolve()
	if err = firstError(err, opts.check()); err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	if note != "" {
		logf(stderr, "falkon: %s", note)
	}
	model, err := spec.Model()
	if err != nil {
		return fmt.Errorf("falkon: %w", fieldFlagError(err, &opts))
	}
	start := timeNow()
	opts.Points.Record = recordTo(ctx, stderr)
	data, err := opts.KRRData.Load()
	if err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	load := seconds(start)
	n, d := data.X.Dims()
	logf(stderr, "falkon: %s: %d train, %d to predict, d=%d, loaded in %.2fs", data.Name, n, rowsOf(data.XTest), d, load)
	bar := newProgress(stderr, opts.MaxIter*len(opts.M), "CG")
	if fk, ok := model.(*krr.Falkon); ok {
		fk.Progress = func(int, float64) { bar.Add(1) }
	}
	if len(opts.M) > 1 {
		rep, err := protocol.SweepKRR(ctx, spec, model, data, opts.M)
		bar.Finish()
		if err != nil {
			return fmt.Errorf("falkon: %w", fieldFlagError(err, &opts))
		}
		res := falkonSweepResult{KRRSweepReport: *rep, LoadSeconds: load, PeakRSSMB: peakRSSMB()}
		if err := opts.Plots.write(stderr, "falkon", res, func() (picture, error) { return falkonSweepPicture(res) }); err != nil {
			return err
		}
		return reportSummary(stdout, opts.JSON, "falkon-sweep", res)
	}
	run, err := protocol.FitPredict(ctx, model, data, cpuSeconds)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	res := falkonResult{KRRReport: protocol.NewKRRReport(spec, model, data, run), LoadSeconds: load}
	for _, w := range res.Warnings() {
		logf(stderr, "falkon: %s", w)
	}
	if err := opts.write(model, data, run.Test, &res, stderr); err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	res.PeakRSSMB = peakRSSMB()
	if err := opts.Plots.write(stderr, "falkon", res, func() (picture, error) {
		return picture{Notes: []string{"no figure: one M was fitted (give several values to --m to draw error and time against M)"}}, nil
	}); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "falkon", res)
}

// check refuses outputs that need one M, and bad output paths.
func (o falkonOptions) check() error {
	switch {
	case o.Sweep() && o.Out != "":
		return fmt.Errorf("--out needs one --m (a sweep fits %d models)", len(o.M))
	case o.Sweep() && o.Save != "":
		return fmt.Errorf("--save needs one --m (a sweep fits %d models)", len(o.M))
	case !o.Sweep() && o.Plots.Plot != "":
		return fmt.Errorf("--plot %s draws test error and time against M: give several values to --m (e.g. --m 250,500,1000)", o.Plots.Plot)
	}
	return firstError(checkOutPaths(o.Out, o.Save), o.Plots.check())
}

// write writes --out (protocol.PointTask.KRRTable) and --save.
func (o falkonOptions) write(model krr.MultiOutput, data *protocol.PointTask, p *mat.Dense, res *falkonResult, stderr io.Writer) error {
	if o.Out != "" && p == nil {
		logf(stderr, "falkon: nothing to predict (every point has a value and there is no --test-features); %s not written", o.Out)
	} else if o.Out != "" {
		if err := writePredictions(o.Out, data.KRRTable(p)); err != nil {
			return err
		}
		res.Out = o.Out
	}
	sm, _ := model.(savedmodel.Model)
	res.Saved = o.Save
	return savePointModel(o.Save, sm, savedmodel.Context{Data: data.Name, ClassNames: data.ClassNames})
}

// rowsOf is the number of rows of x, 0 for nil.
func rowsOf(x *mat.Dense) int {
	if x == nil {
		return 0
	}
	n, _ := x.Dims()
	return n
}
