package pictures

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
)

// MaxGramPanel bounds the Gram matrices drawn: a heat map of more cells
// than a screen has pixels shows nothing more.
const MaxGramPanel = 2000

// GraphKernel draws a graph kernel study sr of the data set data (graph
// classes labels, report rep): the Gram matrix with the graphs ordered by
// class (cosine-normalised for the picture when the kernel is not, so that
// large graphs do not drown the rest) and its class means, how often each
// WL height was chosen (with height selection), and the accuracy against
// the height (with fixed heights evaluated).
func GraphKernel(sr *protocol.GraphKernelStudyResult, labels []int, rep protocol.GraphKernelReport, data string) (Picture, error) {
	pic := Picture{Caption: fmt.Sprintf("graph kernel %s on %s", rep.Kernel, data)}
	if n := sr.Gram.SymmetricDim(); n > MaxGramPanel {
		pic.note(fmt.Sprintf("no Gram matrix panel: %d graphs is more than %d", n, MaxGramPanel))
	} else {
		g, err := graphkernels.SortGramByClass(sr.Gram, labels, !rep.Normalize)
		if err != nil {
			return pic, err
		}
		title := "Gram matrix, graphs ordered by class"
		if !rep.Normalize {
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
		pic.add(p, htmlreport.MatrixTable("mean kernel value between classes (as drawn)", "class", names, names, g.Means))
	}
	if len(rep.HChosen) > 0 {
		names, vals := make([]string, len(rep.HChosen)), make([]float64, len(rep.HChosen))
		for h, c := range rep.HChosen {
			names[h], vals[h] = fmt.Sprintf("h = %d", h+1), float64(c)
		}
		p, err := figures.Bars("WL height chosen by the inner cross-validation", "outer folds × repeats", names, vals, 0)
		if err != nil {
			return pic, err
		}
		pic.Panels = append(pic.Panels, p)
	}
	if len(rep.Heights) > 0 {
		p, t, err := heightPanel(rep)
		if err != nil {
			return pic, err
		}
		pic.add(p, t)
	} else if rep.Kernel == "wl" {
		pic.note("no accuracy-against-height panel: give --heights (e.g. 0,1,2,3,4,5) to evaluate each height fixed")
	}
	return pic, nil
}

// heightPanel draws accuracy against WL height (mean ± std over seeds),
// with the accuracy of the run itself (the height chosen by selection, or
// the fixed H) as a flat reference line.
func heightPanel(rep protocol.GraphKernelReport) (*figures.Plot, htmlreport.Table, error) {
	t := htmlreport.Table{Caption: "accuracy against WL height (height fixed, nested CV)", Header: []string{"h", "accuracy mean", "accuracy std"}}
	s := figures.Series{Name: "height fixed (mean ± std over seeds)"}
	for _, h := range rep.Heights {
		if h.Mean != nil {
			s.X, s.Y, s.Err = append(s.X, float64(h.H)), append(s.Y, *h.Mean), append(s.Err, *h.Std)
			t.Rows = append(t.Rows, []string{strconv.Itoa(h.H), fmt.Sprintf("%.4f", *h.Mean), fmt.Sprintf("%.4f", *h.Std)})
		}
	}
	series := []figures.Series{s}
	if run := rep.AccuracyMean; run != nil && len(s.X) > 0 {
		name := fmt.Sprintf("h = %d fixed (this run)", rep.H)
		if rep.HChosen != nil {
			name = fmt.Sprintf("h chosen in 1..%d by the inner CV (this run)", rep.H)
		}
		series = append(series, figures.Series{Name: name, X: []float64{slices.Min(s.X), slices.Max(s.X)}, Y: []float64{*run, *run}})
	}
	seeds := "seeds"
	if rep.Repeats == 1 {
		seeds = "seed"
	}
	p, err := figures.Curves(fmt.Sprintf("accuracy against WL height (%s, %d %s)", rep.Classifier, rep.Repeats, seeds), "WL height h", "accuracy (nested CV)", false, false, series...)
	if err != nil {
		return nil, t, err
	}
	p.Legend.Top, p.Legend.Left = false, false
	figures.IntegerTicks(&p.X, s.X)
	return p, t, nil
}
