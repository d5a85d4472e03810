package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
)

// heightAccuracy is the nested cross-validated accuracy of the WL kernel
// with its height fixed.
type heightAccuracy struct {
	H        int   `json:"h"`
	Mean     any   `json:"accuracy_mean"`
	Std      any   `json:"accuracy_std"`
	ByRepeat []any `json:"accuracy_by_repeat"`
}

// heightSweep runs ev (the command's protocol: grid, folds, seeds) once
// per height of --heights with that height's Gram matrix alone
// (protocol.GramEvaluation.SweepKernels), reusing the matrices the run
// already computed (grams at heights).
func heightSweep(ctx context.Context, opts graphKernelOptions, ev protocol.GramEvaluation, graphs []graphkernels.Graph, labels []int,
	grams []*mat.SymDense, heights []int, stderr io.Writer) ([]heightAccuracy, error) {
	have := map[int]*mat.SymDense{}
	for i, h := range heights {
		have[h] = grams[i]
	}
	kernels := make([]graphkernels.Kernel, len(opts.Heights))
	known := make([]*mat.SymDense, len(opts.Heights))
	for i, h := range opts.Heights {
		kernels[i], known[i] = opts.newGraphKernel(h, nil), have[h]
	}
	ers, err := ev.SweepKernels(ctx, labels, graphs, kernels, known)
	if err != nil {
		return nil, fmt.Errorf("graphkernel: --heights: %w", err)
	}
	out := make([]heightAccuracy, len(ers))
	for i, er := range ers {
		h := opts.Heights[i]
		mean, std := eval.MeanStd(er.Accuracy)
		out[i] = heightAccuracy{H: h, Mean: finite(mean), Std: finite(std), ByRepeat: finites(er.Accuracy)}
		logf(stderr, "graphkernel: WL height %d fixed: accuracy %.4f ± %.4f", h, mean, std)
	}
	return out, nil
}

// heightPanel draws accuracy against WL height (mean ± std over seeds),
// with the accuracy of the run itself (the height chosen by --select-h, or
// --h) as a flat reference line.
func heightPanel(res graphKernelResult) (*plot.Plot, htmlreport.Table, error) {
	t := htmlreport.Table{Caption: "accuracy against WL height (height fixed, nested CV)", Header: []string{"h", "accuracy mean", "accuracy std"}}
	s := figures.Series{Name: "height fixed (mean ± std over seeds)"}
	for _, h := range res.Heights {
		mean, ok := h.Mean.(float64)
		if !ok {
			continue
		}
		std, _ := h.Std.(float64)
		s.X, s.Y, s.Err = append(s.X, float64(h.H)), append(s.Y, mean), append(s.Err, std)
		t.Rows = append(t.Rows, []string{strconv.Itoa(h.H), strconv.FormatFloat(mean, 'f', 4, 64), strconv.FormatFloat(std, 'f', 4, 64)})
	}
	series := []figures.Series{s}
	if run, ok := res.AccuracyMean.(float64); ok && len(s.X) > 0 {
		name := fmt.Sprintf("h = %d fixed (this run)", res.H)
		if res.HChosen != nil {
			name = fmt.Sprintf("h chosen in 1..%d by the inner CV (this run)", res.H)
		}
		lo, hi := s.X[0], s.X[len(s.X)-1]
		for _, x := range s.X {
			lo, hi = min(lo, x), max(hi, x)
		}
		series = append(series, figures.Series{Name: name, X: []float64{lo, hi}, Y: []float64{run, run}})
	}
	seeds := "seeds"
	if res.Repeats == 1 {
		seeds = "seed"
	}
	p, err := figures.Curves(fmt.Sprintf("accuracy against WL height (%s, %d %s)", res.Classifier, res.Repeats, seeds), "WL height h", "accuracy (nested CV)", false, false, series...)
	if err != nil {
		return nil, t, err
	}
	p.Legend.Top, p.Legend.Left = false, false
	var ticks plot.ConstantTicks
	for _, x := range s.X {
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.Itoa(int(x))})
	}
	p.X.Tick.Marker = ticks
	return p, t, nil
}
