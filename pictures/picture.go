package pictures

import (
	"math"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
)

// Picture is what a run draws: the panels of its figure (Cols to a row, 0:
// figures.DefaultCols), their caption, the tables a report adds and notes
// on what could not be drawn.
type Picture struct {
	Panels  []*figures.Plot
	Cols    int
	Caption string
	Tables  []htmlreport.Table
	Notes   []string
}

// Figure is the picture's panels as one figure.
func (p Picture) Figure() *figures.Figure {
	return &figures.Figure{Panels: p.Panels, Cols: p.Cols}
}

// AddTo adds the picture to rep: its figure as a PNG (when it has
// panels), its notes, and its tables followed by the fields of result (a
// value that encodes as a JSON object) under caption fields.
func (p Picture) AddTo(rep *htmlreport.Report, fields string, result any) error {
	t, err := htmlreport.FieldsTable(fields, result)
	if err != nil {
		return err
	}
	if len(p.Panels) > 0 {
		png, err := p.Figure().Encode(figures.PNG)
		if err != nil {
			return err
		}
		rep.Figures = append(rep.Figures, htmlreport.Figure{Caption: p.Caption, PNG: png})
	}
	rep.Notes = append(rep.Notes, p.Notes...)
	rep.Tables = append(append(rep.Tables, p.Tables...), t)
	return nil
}

// note appends one note.
func (p *Picture) note(s string) { p.Notes = append(p.Notes, s) }

// add appends a panel and a table (a table without rows and header is
// left out).
func (p *Picture) add(pl *figures.Plot, t htmlreport.Table) {
	p.Panels = append(p.Panels, pl)
	if t.Header != nil || t.Rows != nil {
		p.Tables = append(p.Tables, t)
	}
}

// spansFactor says whether more than one positive value is given and the
// largest is at least factor times the smallest (a log axis then shows
// them better); a zero or NaN says no.
func spansFactor(v []float64, factor float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		if !(x > 0) {
			return false
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return len(v) > 1 && hi >= factor*lo
}
