package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

// stkrFigure is what the stkr figure needs of the first selection: the
// accuracy of every candidate (η outer, β, then the iteration counts), the
// chosen one and its transform.
type stkrFigure struct {
	accuracy  []float64
	best      int
	transform stkr.Transform
	what      string
}

func newSTKRFigure(c protocol.STKRChoice, best *stkr.Classifier, seed uint64) stkrFigure {
	acc := make([]float64, len(c.Candidates))
	for i, o := range c.Candidates {
		acc[i] = o.ValAccuracy
		if o.Err != nil {
			acc[i] = math.NaN()
		}
	}
	return stkrFigure{accuracy: acc, best: c.Best, transform: best.Transform, what: fmt.Sprintf("validation accuracy (seed %d)", seed)}
}

// stkrPicture: the selection accuracy over the η/β grid (the best over
// the iteration counts in each cell) with the chosen cell outlined, and
// the chosen transform r(λ) against plain KRR's r(λ) = λ.
func stkrPicture(res stkrResult, g protocol.STKRGrid) (picture, error) {
	f := res.fig
	pic := picture{caption: "STKR: " + res.Data}
	lap, nb, nc := g.Lap(), len(g.Betas), len(g.Iterations)
	if z := g.Cells(f.accuracy); z != nil && len(f.accuracy) > 1 {
		rows, cols := make([]string, len(z)), make([]string, nb)
		for j, b := range g.Betas {
			cols[j] = strconv.FormatFloat(b, 'g', 3, 64)
		}
		t := htmlreport.Table{Caption: "STKR selection grid: " + f.what + " (rows η, columns β)", Header: append([]string{"η \\ β"}, cols...)}
		for i := range z {
			rows[i] = res.Transform
			if lap {
				rows[i] = strconv.FormatFloat(g.Etas[i], 'g', 3, 64)
			}
			row := []string{rows[i]}
			for _, best := range z[i] {
				row = append(row, strconv.FormatFloat(best, 'f', 4, 64))
			}
			t.Rows = append(t.Rows, row)
		}
		rowLabel := "η"
		if !lap {
			rowLabel = "transform"
		}
		title := f.what
		if nc > 1 {
			title += fmt.Sprintf(", best of %d iteration counts", nc)
		}
		hm, err := figures.GridHeatmap(title, "β (ridge)", rowLabel, cols, rows, z, f.best/(nb*nc), (f.best/nc)%nb)
		if err != nil {
			return pic, err
		}
		pic.panels, pic.tables = append(pic.panels, hm), append(pic.tables, t)
	} else {
		pic.notes = append(pic.notes, "no grid panel: a single candidate was fitted (--eta and --ridge fixed, or too few labels to select)")
	}
	if sp, ok := f.transform.(stkr.Spectral); ok {
		const points = 200
		lam, r, krr := make([]float64, points), make([]float64, points), make([]float64, points)
		for i := range lam {
			// λ ∈ [0, 0.995]: the spectrum of the normalised base kernel is
			// in [−1, 1] and r has its pole at 1/η > 1.
			lam[i] = 0.995 * float64(i) / float64(points-1)
			r[i], krr[i] = sp.Eval(lam[i]), lam[i]
		}
		c, err := figures.Curves("spectral transform r(λ)", "λ (eigenvalue of the base kernel)", "r(λ)", false, false,
			figures.Series{Name: "chosen: " + f.transform.String(), X: lam, Y: r},
			figures.Series{Name: "KRR: r(λ) = λ", X: lam, Y: krr})
		if err != nil {
			return pic, err
		}
		pic.panels = append(pic.panels, c)
	} else if f.transform != nil {
		pic.notes = append(pic.notes, fmt.Sprintf("no r(λ) panel: %s depends on the data, not on λ alone", f.transform))
	}
	return pic, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r stkrResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seeds = %v", r.Seeds), []htmlreport.Timing{timing("fit_seconds", r.FitSeconds), timing("load_seconds", r.LoadSeconds), timing("seconds", r.Seconds)}
}
