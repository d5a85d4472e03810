package main

import (
	"fmt"
	"slices"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
)

// maxGramPanel bounds the Gram matrices drawn: a heat map of more cells
// than a screen has pixels shows nothing more.
const maxGramPanel = 2000

// graphKernelPicture: the Gram matrix with the graphs ordered by class
// (cosine-normalised for the picture when the kernel is not, so that large
// graphs do not drown the rest) and its class means, and with --select-h
// how often each WL height was chosen, and with --heights the accuracy
// against height.
func graphKernelPicture(sr *protocol.GraphKernelStudyResult, labels []int, res graphKernelResult) (picture, error) {
	gram := sr.Gram
	pic := picture{caption: fmt.Sprintf("graph kernel %s on %s", res.Kernel, res.Dataset)}
	if n := gram.SymmetricDim(); n > maxGramPanel {
		pic.notes = append(pic.notes, fmt.Sprintf("no Gram matrix panel: %d graphs is more than %d", n, maxGramPanel))
	} else {
		g, err := graphkernels.SortGramByClass(gram, labels, !res.Normalize)
		if err != nil {
			return pic, err
		}
		title := "Gram matrix, graphs ordered by class"
		if !res.Normalize {
			title += " (cosine-normalised)"
		}
		p, err := figures.Matrix(title, n, g.Values, g.Bounds())
		if err != nil {
			return pic, err
		}
		p.X.Label.Text, p.Y.Label.Text = "graph (by class)", "graph (by class)"
		names := make([]string, len(g.Classes))
		for c, l := range g.Classes {
			names[c] = strconv.Itoa(l)
		}
		pic.panels = append(pic.panels, p)
		pic.tables = append(pic.tables, htmlreport.MatrixTable("mean kernel value between classes (as drawn)", "class", names, names, g.Means))
	}
	if len(res.HChosen) > 0 {
		names, vals := make([]string, len(res.HChosen)), make([]float64, len(res.HChosen))
		for h, c := range res.HChosen {
			names[h], vals[h] = fmt.Sprintf("h = %d", h+1), float64(c)
		}
		p, err := figures.Bars("WL height chosen by the inner cross-validation", "outer folds × repeats", names, vals, 0)
		if err != nil {
			return pic, err
		}
		pic.panels = append(pic.panels, p)
	}
	if len(res.Heights) > 0 {
		p, t, err := heightPanel(res)
		if err != nil {
			return pic, err
		}
		pic.panels, pic.tables = append(pic.panels, p), append(pic.tables, t)
	} else if res.Kernel == "wl" {
		pic.notes = append(pic.notes, "no accuracy-against-height panel: give --heights (e.g. 0,1,2,3,4,5) to evaluate each height fixed")
	}
	return pic, nil
}

// heightPanel draws accuracy against WL height (mean ± std over seeds),
// with the accuracy of the run itself (the height chosen by --select-h, or
// --h) as a flat reference line.
func heightPanel(res graphKernelResult) (*plot.Plot, htmlreport.Table, error) {
	t := htmlreport.Table{Caption: "accuracy against WL height (height fixed, nested CV)", Header: []string{"h", "accuracy mean", "accuracy std"}}
	s := figures.Series{Name: "height fixed (mean ± std over seeds)"}
	for _, h := range res.Heights {
		if h.Mean != nil {
			s.X, s.Y, s.Err = append(s.X, float64(h.H)), append(s.Y, *h.Mean), append(s.Err, *h.Std)
			t.Rows = append(t.Rows, []string{strconv.Itoa(h.H), formatFloat("%.4f", h.Mean), formatFloat("%.4f", h.Std)})
		}
	}
	series := []figures.Series{s}
	if run := res.AccuracyMean; run != nil && len(s.X) > 0 {
		name := fmt.Sprintf("h = %d fixed (this run)", res.H)
		if res.HChosen != nil {
			name = fmt.Sprintf("h chosen in 1..%d by the inner CV (this run)", res.H)
		}
		series = append(series, figures.Series{Name: name, X: []float64{slices.Min(s.X), slices.Max(s.X)}, Y: []float64{*run, *run}})
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
	figures.IntegerTicks(&p.X, s.X)
	return p, t, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r graphKernelResult) runFacts() (string, []htmlreport.Timing) {
	return graphKernelSeeds(r), []htmlreport.Timing{
		timing("cv_seconds", r.CVSeconds),
		timing("gram_seconds", r.GramSeconds),
		timing("load_seconds", r.LoadSeconds),
	}
}

// graphKernelSeeds names the seeds of the repetitions.
func graphKernelSeeds(r graphKernelResult) string {
	if r.Repeats == 0 {
		return ""
	}
	return fmt.Sprintf("seeds %d..%d (one per repetition; the inner folds of --save use seed %d)", r.Seed, r.Seed+uint64(r.Repeats)-1, r.Seed)
}
