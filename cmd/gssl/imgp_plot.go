package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gssl/gssl/imgp"
)

// plotIMGP draws predicted against true targets (in the data's original
// units: scale × standardised) for both models, each with its ±2σ band of a
// new observation as error bars, and the diagonal; refined is IMGP after the
// rank-L refit (Regressor.Refined).
func plotIMGP(path string, data *regressionData, p, refined *imgp.Prediction, euclNoise, scale float64) error {
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("IMGP vs Euclidean GP (%s)", data.name)
	pl.X.Label.Text = "true target"
	pl.Y.Label.Text = "predicted (±2σ)"
	order := sortedBy(data.yt)
	series := func(mean, variance []float64, noise float64, shift float64) (plotter.XYs, plotter.YErrors) {
		xy := make(plotter.XYs, len(order))
		errs := make(plotter.YErrors, len(order))
		for k, i := range order {
			sd := math.Sqrt(variance[i] + noise)
			xy[k].X = scale*data.yt[i] + shift
			xy[k].Y = scale * mean[i]
			errs[k].Low, errs[k].High = 2*scale*sd, 2*scale*sd
		}
		return xy, errs
	}
	im, imErr := series(p.Mean, p.Observation, 0, 0)
	rf, rfErr := series(refined.Mean, refined.Observation, 0, 0)
	eu, euErr := series(p.EuclideanMean, p.EuclideanVariance, euclNoise, 0)
	add := func(xy plotter.XYs, errs plotter.YErrors, c color.Color, shape draw.GlyphDrawer, name string) error {
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		s.GlyphStyle.Color = c
		s.GlyphStyle.Shape = shape
		s.GlyphStyle.Radius = vg.Points(1.2)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return err
		}
		bars.LineStyle.Color = color.NRGBA{R: c.(color.RGBA).R, G: c.(color.RGBA).G, B: c.(color.RGBA).B, A: 90}
		bars.CapWidth = 0
		pl.Add(bars, s)
		pl.Legend.Add(name+" (±2σ)", s)
		return nil
	}
	if err := add(eu, euErr, color.RGBA{R: 200, G: 80, B: 30, A: 255}, draw.SquareGlyph{}, "Euclidean GP"); err != nil {
		return err
	}
	if err := add(im, imErr, color.RGBA{R: 30, G: 90, B: 200, A: 255}, draw.CircleGlyph{}, "IMGP"); err != nil {
		return err
	}
	if err := add(rf, rfErr, color.RGBA{R: 40, G: 160, B: 60, A: 255}, draw.TriangleGlyph{}, "IMGP, rank-L refit"); err != nil {
		return err
	}
	lo, hi := scale*data.yt[order[0]], scale*data.yt[order[len(order)-1]]
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return err
	}
	diag.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	pl.Add(diag)
	pl.Legend.Top = true
	pl.Legend.Left = true
	pl.Add(plotter.NewGrid())
	if err := savePlot(pl, 7*vg.Inch, 6*vg.Inch, path); err != nil {
		return fmt.Errorf("imgp: writing the plot: %w", err)
	}
	return nil
}

// savePlot writes pl to path in the format its extension names, atomically
// (checkPlotFile has refused unknown extensions before any work).
func savePlot(pl *plot.Plot, w, h vg.Length, path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	wt, err := pl.WriterTo(w, h, format)
	if err != nil {
		return err
	}
	return atomicWrite(path, func(f io.Writer) error {
		_, err := wt.WriteTo(f)
		return err
	})
}
