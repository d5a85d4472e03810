package pictures

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

// STKRSelection is what an STKR picture draws of one selection over a
// protocol.STKRGrid: the accuracy of every candidate (in the grid's order:
// η outer, β, then the iteration counts; NaN for a failed one), the index
// of the chosen one, its transform, and what the accuracy is.
type STKRSelection struct {
	Accuracy  []float64
	Best      int
	Transform stkr.Transform
	What      string
}

// NewSTKRSelection is the selection c of the partition of the given seed,
// whose chosen classifier is best.
func NewSTKRSelection(c protocol.STKRChoice, best *stkr.Classifier, seed uint64) STKRSelection {
	acc := make([]float64, len(c.Candidates))
	for i, o := range c.Candidates {
		acc[i] = o.ValAccuracy
		if o.Err != nil {
			acc[i] = math.NaN()
		}
	}
	return STKRSelection{Accuracy: acc, Best: c.Best, Transform: best.Transform, What: fmt.Sprintf("validation accuracy (seed %d)", seed)}
}

// STKR draws a selection f over the grid g of an STKR run on data with the
// transform named transform: the accuracy over the η/β grid (the best over
// the iteration counts in each cell) with the chosen cell outlined, and
// the chosen transform r(λ) against kernel ridge's r(λ) = λ.
func STKR(f STKRSelection, g protocol.STKRGrid, data, transform string) (Picture, error) {
	pic := Picture{Caption: "STKR: " + data}
	lap, nb, nc := g.Lap(), len(g.Betas), len(g.Iterations)
	if z := g.Cells(f.Accuracy); z != nil && len(f.Accuracy) > 1 {
		rows, cols := make([]string, len(z)), make([]string, nb)
		for j, b := range g.Betas {
			cols[j] = strconv.FormatFloat(b, 'g', 3, 64)
		}
		t := htmlreport.Table{Caption: "STKR selection grid: " + f.What + " (rows η, columns β)", Header: append([]string{"η \\ β"}, cols...)}
		rowLabel := "transform"
		for i := range z {
			rows[i] = transform
			if lap {
				rows[i], rowLabel = strconv.FormatFloat(g.Etas[i], 'g', 3, 64), "η"
			}
			row := []string{rows[i]}
			for _, best := range z[i] {
				row = append(row, strconv.FormatFloat(best, 'f', 4, 64))
			}
			t.Rows = append(t.Rows, row)
		}
		title := f.What
		if nc > 1 {
			title += fmt.Sprintf(", best of %d iteration counts", nc)
		}
		hm, err := figures.GridHeatmap(title, "β (ridge)", rowLabel, cols, rows, z, f.Best/(nb*nc), (f.Best/nc)%nb)
		if err != nil {
			return pic, err
		}
		pic.add(hm, t)
	} else {
		pic.note("no grid panel: a single candidate was fitted (--eta and --ridge fixed, or too few labels to select)")
	}
	if sp, ok := f.Transform.(stkr.Spectral); ok {
		const points = 200
		lam, r := make([]float64, points), make([]float64, points)
		for i := range lam {
			// λ ∈ [0, 0.995]: the spectrum of the normalised base kernel is
			// in [−1, 1] and r has its pole at 1/η > 1.
			lam[i] = 0.995 * float64(i) / float64(points-1)
			r[i] = sp.Eval(lam[i])
		}
		c, err := figures.Curves("spectral transform r(λ)", "λ (eigenvalue of the base kernel)", "r(λ)", false, false,
			figures.Series{Name: "chosen: " + f.Transform.String(), X: lam, Y: r},
			figures.Series{Name: "KRR: r(λ) = λ", X: lam, Y: lam})
		if err != nil {
			return pic, err
		}
		pic.Panels = append(pic.Panels, c)
	} else if f.Transform != nil {
		pic.note(fmt.Sprintf("no r(λ) panel: %s depends on the data, not on λ alone", f.Transform))
	}
	return pic, nil
}
