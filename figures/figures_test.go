package figures

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// minColours is the fewest distinct colours a drawn panel has: background,
// axes and text alone give about a handful of grey levels, so more than
// this means the data were drawn.
const minColours = 8

// panels returns one of every panel on a small input.
func panels(t *testing.T) map[string]*plot.Plot {
	t.Helper()
	out := map[string]*plot.Plot{}
	add := func(name string, p *plot.Plot, err error) {
		require.NoError(t, err, name)
		out[name] = p
	}
	names := []string{"a", "b", "c"}
	p, err := Confusion([][]int{{10, 2, 0}, {1, 8, 3}, {0, 0, 12}}, names)
	add("confusion", p, err)
	p, err = ClassAccuracy([]int{10, 8, 12}, []int{12, 12, 12}, names)
	add("accuracy", p, err)
	x, y := make([]float64, 60), make([]float64, 60)
	cls, wrong := make([]int, 60), make([]bool, 60)
	for i := range x {
		x[i], y[i] = math.Cos(float64(i)), math.Sin(float64(i)*0.7)
		cls[i], wrong[i] = i%3, i%7 == 0
	}
	cls[5] = -1
	p, err = Embedding("embedding", x, y, cls, names, wrong)
	add("embedding", p, err)
	p, err = Spectrum("spectrum", []float64{0, 0, 0.5, 0.5, 0.5, 1.2, 1.9}, 1e-9)
	add("spectrum", p, err)
	p, err = Residuals("residuals", []float64{1e-12, 3e-10, 0, 1e-7})
	add("residuals", p, err)
	p, err = GridHeatmap("grid", "β", "η", []string{"1", "2", "4"}, []string{"0.1", "1"}, [][]float64{{0.5, 0.6, math.NaN()}, {0.7, 0.8, 0.75}}, 1, 1)
	add("grid", p, err)
	p, err = Curves("curve", "λ", "r(λ)", false, true, Series{Name: "r", X: []float64{0, 0.5, 1, 2}, Y: []float64{1, 0.5, 0.2, 0.01}})
	add("curves", p, err)
	p, err = Histogram("hist", "distance", x, 0)
	add("histogram", p, err)
	m := make([]float64, 36)
	for i := range m {
		m[i] = float64(i%6+i/6) / 10
	}
	p, err = Matrix("gram", 6, m, []int{3})
	add("matrix", p, err)
	p, err = PredictionBands("pred", "truth", "predicted", Band{Name: "gp", Truth: x[:20], Mean: y[:20], SD: x[20:40]})
	add("bands", p, err)
	p, err = Bars("speed", "ratio", []string{"one", "two"}, []float64{3.5, 0.8}, 1)
	add("bars", p, err)
	return out
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	require.Equal(t, "png", format)
	return img
}

// colours counts distinct colours and pixels that differ from white.
func colours(img image.Image) (distinct, ink int) {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			c := color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: uint8(a >> 8)}
			seen[c] = true
			if c != (color.RGBA{R: 255, G: 255, B: 255, A: 255}) {
				ink++
			}
		}
	}
	return len(seen), ink
}

func TestPanelsPNG(t *testing.T) {
	dir := os.Getenv("GSSL_FIGURES_DIR") // set to keep the images for a look
	for name, p := range panels(t) {
		f := New(p)
		b, err := f.Encode(PNG)
		require.NoError(t, err, name)
		img := decodePNG(t, b)
		w, h := f.Size()
		require.Equal(t, image.Rect(0, 0, w, h), img.Bounds(), name)
		distinct, ink := colours(img)
		require.Greater(t, distinct, minColours, name)
		require.Greater(t, ink, w*h/100, "%s: fewer than 1%% of the pixels drawn", name)
		if dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644))
		}
	}
}

// cellInk returns the non-white pixels of every cell of a cols × rows grid
// over img.
func cellInk(img image.Image, cols, rows int) []int {
	b := img.Bounds()
	cw, ch := b.Dx()/cols, b.Dy()/rows
	var out []int
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			sub := img.(interface {
				SubImage(image.Rectangle) image.Image
			}).SubImage(image.Rect(c*cw, r*ch, (c+1)*cw, (r+1)*ch))
			_, ink := colours(sub)
			out = append(out, ink)
		}
	}
	return out
}

func TestTiledFigure(t *testing.T) {
	ps := panels(t)
	three := []*plot.Plot{ps["confusion"], ps["accuracy"], ps["embedding"]}
	for _, tc := range []struct {
		name       string
		cols       int
		w, h       int
		gridC, gri int
	}{
		// Three panels default to one row of three.
		{"default", 0, 3 * 528, 432, 3, 1},
		// Two to a row: the third panel takes the whole second row.
		{"two columns", 2, 2 * 528, 2 * 432, 2, 2},
	} {
		f := &Figure{Panels: three, Cols: tc.cols}
		w, h := f.Size()
		require.Equal(t, tc.w, w, tc.name)
		require.Equal(t, tc.h, h, tc.name)
		path := filepath.Join(t.TempDir(), "fig.png")
		require.NoError(t, f.Save(path))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		img := decodePNG(t, b)
		require.Equal(t, image.Rect(0, 0, w, h), img.Bounds(), tc.name)
		if dir := os.Getenv("GSSL_FIGURES_DIR"); dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "tiled-"+strconv.Itoa(tc.cols)+".png"), b, 0o644))
		}
		// No cell of the panel grid is blank: before the last row shared
		// its width, the fourth cell of a 2 × 2 grid of three panels was.
		cellW, cellH := w/tc.gridC, h/tc.gri
		for i, ink := range cellInk(img, tc.gridC, tc.gri) {
			require.Greater(t, ink, cellW*cellH/200, "%s: cell %d is (nearly) blank", tc.name, i)
		}
	}
	require.Equal(t, 2, DefaultCols(4))
	require.Equal(t, 3, DefaultCols(5))
	require.Equal(t, 1, DefaultCols(1))
}

func TestSVG(t *testing.T) {
	ps := panels(t)
	f := New(ps["spectrum"], ps["residuals"])
	b, err := f.Encode(SVG)
	require.NoError(t, err)
	dec := xml.NewDecoder(bytes.NewReader(b))
	var root string
	var width, height string
	paths := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
				for _, a := range se.Attr {
					switch a.Name.Local {
					case "width":
						width = a.Value
					case "height":
						height = a.Value
					}
				}
			}
			if se.Name.Local == "path" {
				paths++
			}
		}
	}
	require.Equal(t, "svg", root)
	require.Equal(t, "792pt", width) // 2 × 5.5 in × 72 pt
	require.Equal(t, "324pt", height)
	require.Greater(t, paths, 20)
}

func TestFormatOf(t *testing.T) {
	f, err := FormatOf("a/B.SVG")
	require.NoError(t, err)
	require.Equal(t, SVG, f)
	_, err = FormatOf("plot.jpg")
	require.ErrorContains(t, err, `plot.jpg: unknown image format ".jpg": the name must end in .png, .svg, .pdf`)
	require.ErrorIs(t, New().Save(filepath.Join(t.TempDir(), "x.png")), ErrNoPanels)
}

func TestPanelErrors(t *testing.T) {
	_, err := Confusion([][]int{{1, 2}, {3}}, nil)
	require.Error(t, err)
	_, err = Embedding("", []float64{1}, []float64{1, 2}, []int{0}, nil, nil)
	require.Error(t, err)
	_, err = Matrix("", 2, []float64{1, 2, 3}, nil)
	require.Error(t, err)
	_, err = Curves("c", "x", "y", false, true, Series{X: []float64{1}, Y: []float64{0}})
	require.Error(t, err)
}

// TestLogAxesFillThePanel: a log–log panel with a long y label keeps its
// data area right under the title (gonum's LogScale padded it for a label
// box placed at the log of the arithmetic midpoint, leaving a band empty),
// and a range inside one decade still gets labelled ticks.
func TestLogAxesFillThePanel(t *testing.T) {
	fr := []float64{0.005, 0.01, 0.02, 0.05, 0.1}
	y := []float64{0.6, 0.45, 0.3, 0.2, 0.15}
	p, err := Curves("RMSE against labelled fraction", "labelled fraction", "test RMSE (standardised), mean ± std over seeds", true, true,
		Series{Name: "a", X: fr, Y: y, Err: []float64{0.06, 0.04, 0.03, 0.02, 0.015}})
	require.NoError(t, err)
	c := draw.New(vgimg.New(6*vg.Inch, 4.5*vg.Inch))
	da := p.DataCanvas(c)
	title := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	// A glyph's radius and the error bar's cap are all the padding needed.
	require.Less(t, float64(c.Max.Y-title-da.Max.Y), float64(8*vg.Points(1)), "empty band under the title")

	var labels []string
	for _, tk := range (log10Ticks{}).Ticks(math.Log10(0.13), math.Log10(0.99)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
			require.InDelta(t, math.Log10(mustFloat(t, tk.Label)), tk.Value, 1e-12)
		}
	}
	require.Equal(t, []string{"0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}, labels)
	// Many decades: powers of ten only.
	labels = labels[:0]
	for _, tk := range (log10Ticks{}).Ticks(-12.2, -6.5) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"1e-12", "1e-11", "1e-10", "1e-09", "1e-08", "1e-07"}, labels)
	labels = labels[:0]
	for _, tk := range (log10Ticks{}).Ticks(math.Log10(50), math.Log10(1600)) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	require.Equal(t, []string{"50", "100", "200", "500", "1000"}, labels)
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

func TestFreeCorner(t *testing.T) {
	rising := []plotter.XYs{{{X: 0, Y: 0}, {X: 1, Y: 1}}}
	top, left := freeCorner(rising, true)
	require.True(t, top)
	require.True(t, left)
	// Flat along the top, then down at the right: only the bottom left is free.
	cliff := []plotter.XYs{{{X: 0, Y: 1}, {X: 0.8, Y: 1}, {X: 1, Y: 0}}}
	top, left = freeCorner(cliff, false)
	require.False(t, top)
	require.True(t, left)
}

// TestIntegerTicks: one labelled tick per value, whatever the axis range.
func TestIntegerTicks(t *testing.T) {
	p := plot.New()
	IntegerTicks(&p.X, []float64{0, 1, 2, 5})
	ticks := p.X.Tick.Marker.Ticks(-1, 9)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if len(labels) != 4 || labels[0] != "0" || labels[3] != "5" {
		t.Errorf("ticks %v, want [0 1 2 5]", labels)
	}
}
