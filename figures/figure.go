package figures

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/gssl/gssl/internal/atomicfile"
)

// Format is an image file format.
type Format string

// The formats a Figure is written in.
const (
	PNG Format = "png"
	SVG Format = "svg"
	PDF Format = "pdf"
)

// Formats lists the valid extensions, in the order error messages name them.
var Formats = []Format{PNG, SVG, PDF}

// FormatOf returns the format named by path's extension (case-insensitive);
// any other extension is an error that lists the valid ones.
func FormatOf(path string) (Format, error) {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	for _, f := range Formats {
		if ext == string(f) {
			return f, nil
		}
	}
	valid := make([]string, len(Formats))
	for i, f := range Formats {
		valid[i] = "." + string(f)
	}
	return "", fmt.Errorf("%s: unknown image format %q: the name must end in %s", path, filepath.Ext(path), strings.Join(valid, ", "))
}

// Default panel size and resolution.
const (
	DefaultPanelWidth  = 5.5 * vg.Inch
	DefaultPanelHeight = 4.5 * vg.Inch
	// DefaultDPI is the PNG resolution: 96 makes a default panel 528×432
	// pixels, legible on a screen and small inlined in a report.
	DefaultDPI = 96
)

// Figure is one image of one or more panels laid out in rows.
type Figure struct {
	Panels []*plot.Plot
	// Cols is the number of panels in a row; 0 means DefaultCols. A last
	// row with fewer panels than Cols shares the full width among them, so
	// that the image has no blank cell.
	Cols int
	// PanelWidth and PanelHeight are the size of one panel; 0 means
	// DefaultPanelWidth and DefaultPanelHeight.
	PanelWidth, PanelHeight vg.Length
	// DPI is the PNG resolution; 0 means DefaultDPI.
	DPI int
}

// New returns a Figure of the given panels, DefaultCols of them to a row.
func New(panels ...*plot.Plot) *Figure { return &Figure{Panels: panels} }

// DefaultCols is the number of panels in a row when Figure.Cols is 0: all
// of them up to three, two for four (a 2 × 2 square), three beyond, so that
// no figure of up to four panels has a row shorter than the others.
func DefaultCols(panels int) int {
	switch {
	case panels <= 3:
		return max(panels, 1)
	case panels == 4:
		return 2
	}
	return 3
}

// layout returns the columns, rows and the image size.
func (f *Figure) layout() (cols, rows int, w, h vg.Length) {
	cols = f.Cols
	if cols <= 0 {
		cols = DefaultCols(len(f.Panels))
	}
	rows = (len(f.Panels) + cols - 1) / cols
	pw, ph := f.PanelWidth, f.PanelHeight
	if pw == 0 {
		pw = DefaultPanelWidth
	}
	if ph == 0 {
		ph = DefaultPanelHeight
	}
	return cols, rows, vg.Length(cols) * pw, vg.Length(rows) * ph
}

// Size returns the image's width and height in pixels at the figure's DPI
// (what a PNG has).
func (f *Figure) Size() (w, h int) {
	_, _, wl, hl := f.layout()
	dpi := f.dpi()
	return int(wl.Dots(float64(dpi)) + 0.5), int(hl.Dots(float64(dpi)) + 0.5)
}

func (f *Figure) dpi() int {
	if f.DPI > 0 {
		return f.DPI
	}
	return DefaultDPI
}

// ErrNoPanels is returned when writing a Figure without panels.
var ErrNoPanels = errors.New("figures: the figure has no panels")

// WriteTo draws the figure in the given format to w.
func (f *Figure) WriteTo(w io.Writer, format Format) error {
	if len(f.Panels) == 0 {
		return ErrNoPanels
	}
	cols, rows, wl, hl := f.layout()
	var c vg.CanvasWriterTo
	switch format {
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(wl, hl), vgimg.UseDPI(f.dpi()))}
	case SVG:
		c = vgsvg.New(wl, hl)
	case PDF:
		c = vgpdf.New(wl, hl)
	default:
		return fmt.Errorf("figures: unknown format %q", format)
	}
	dc := draw.New(c)
	if len(f.Panels) > 1 {
		// Clear the gaps between tiles, which no plot paints.
		dc.SetColor(whiteColor)
		dc.Fill(dc.Rectangle.Path())
		for i, p := range f.Panels {
			p.Draw(tile(dc, len(f.Panels), cols, rows, i))
		}
	} else {
		f.Panels[0].Draw(dc)
	}
	_, err := c.WriteTo(w)
	return err
}

// tilePad is the gap between two tiles.
const tilePad = vg.Millimeter

// tile returns the canvas of panel i of n laid out in rows of cols from the
// top: the tiles of a row share its width, so the panels of a short last
// row are wider than the others instead of leaving a blank cell.
func tile(dc draw.Canvas, n, cols, rows, i int) draw.Canvas {
	r, c := i/cols, i%cols
	inRow := min(cols, n-r*cols)
	full := dc.Rectangle
	w := (full.Size().X - vg.Length(inRow-1)*tilePad) / vg.Length(inRow)
	h := (full.Size().Y - vg.Length(rows-1)*tilePad) / vg.Length(rows)
	x0 := full.Min.X + vg.Length(c)*(w+tilePad)
	y1 := full.Max.Y - vg.Length(r)*(h+tilePad)
	return draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x0, Y: y1 - h}, Max: vg.Point{X: x0 + w, Y: y1}}}
}

// Encode returns the figure drawn in the given format.
func (f *Figure) Encode(format Format) ([]byte, error) {
	var b bytes.Buffer
	if err := f.WriteTo(&b, format); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes the figure to path, in the format its extension names,
// atomically.
func (f *Figure) Save(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	if len(f.Panels) == 0 {
		return ErrNoPanels
	}
	return atomicfile.Write(path, func(w io.Writer) error { return f.WriteTo(w, format) })
}

// Plot is gonum/plot's plot, so that callers building a Figure need not
// import gonum.org/v1/plot for the type alone.
type Plot = plot.Plot
