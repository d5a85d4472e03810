package figures

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

var (
	whiteColor = color.RGBA{R: 255, G: 255, B: 255, A: 255}
	greyColor  = color.RGBA{R: 160, G: 160, B: 160, A: 255}
	redColor   = color.RGBA{R: 220, G: 30, B: 30, A: 255}
	blueColor  = color.RGBA{R: 30, G: 90, B: 200, A: 255}
)

// ClassColor is the colour of class or cluster c in every panel; c < 0
// (unlabelled) is grey.
func ClassColor(c int) color.Color {
	if c < 0 {
		return greyColor
	}
	return paletteColor(c)
}

// sequential is a white-to-blue palette of n colours, lightness falling
// with the index.
type sequential int

func (s sequential) Colors() []color.Color {
	n := int(s)
	cs := make([]color.Color, n)
	for i := range cs {
		// From a pale blue, not white: the lowest cell must not look empty.
		t := 0.06 + 0.94*float64(i)/float64(max(n-1, 1))
		cs[i] = color.RGBA{
			R: uint8(255 - t*(255-8)),
			G: uint8(255 - t*(255-48)),
			B: uint8(255 - t*(255-107)),
			A: 255,
		}
	}
	return cs
}

// grid is a GridXYZ of z[row][col] drawn with row 0 at the top.
type grid struct {
	z      [][]float64
	xs, ys []float64 // column and row coordinates (nil: indices)
}

func (g grid) Dims() (c, r int) { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 {
	return g.z[len(g.z)-1-r][c]
}
func (g grid) X(c int) float64 { return float64(c) }
func (g grid) Y(r int) float64 { return float64(r) }

// indexTicks names integer positions; top, when set, numbers from the top
// (row 0 of a grid drawn with row 0 at the top).
type indexTicks struct {
	names []string
	top   bool
	// every keeps one name in every: long axes stay legible.
	every int
}

func (t indexTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	n := len(t.names)
	every := max(t.every, 1)
	for i := 0; i < n; i++ {
		pos := float64(i)
		if t.top {
			pos = float64(n - 1 - i)
		}
		label := ""
		if i%every == 0 {
			label = t.names[i]
		}
		ticks = append(ticks, plot.Tick{Value: pos, Label: label})
	}
	return ticks
}

func checkSquare(counts [][]int) error {
	if len(counts) == 0 {
		return errors.New("figures: empty matrix")
	}
	for i, row := range counts {
		if len(row) != len(counts) {
			return fmt.Errorf("figures: row %d has %d entries, want %d", i, len(row), len(counts))
		}
	}
	return nil
}

func classNames(names []string, k int) []string {
	out := make([]string, k)
	for i := range out {
		if i < len(names) && names[i] != "" {
			out[i] = names[i]
		} else {
			out[i] = strconv.Itoa(i)
		}
	}
	return out
}

// Confusion draws counts[true][predicted] as a heat map with the count in
// each cell, true classes as rows from the top.
func Confusion(counts [][]int, names []string) (*plot.Plot, error) {
	if err := checkSquare(counts); err != nil {
		return nil, err
	}
	k := len(counts)
	names = classNames(names, k)
	z := make([][]float64, k)
	peak := 0
	for i, row := range counts {
		z[i] = make([]float64, k)
		for j, c := range row {
			z[i][j] = float64(c)
			peak = max(peak, c)
		}
	}
	p := plot.New()
	p.Title.Text = "confusion matrix (test nodes)"
	p.X.Label.Text, p.Y.Label.Text = "predicted class", "true class"
	h := plotter.NewHeatMap(grid{z: z}, sequential(64))
	h.Min, h.Max = 0, math.Max(float64(peak), 1)
	p.Add(h)
	var xys plotter.XYLabels
	var styles []text.Style
	base := plot.DefaultTextHandler
	for i, row := range counts {
		for j, c := range row {
			xys.XYs = append(xys.XYs, plotter.XY{X: float64(j), Y: float64(k - 1 - i)})
			xys.Labels = append(xys.Labels, strconv.Itoa(c))
			st := text.Style{Color: color.Black, Handler: base, XAlign: draw.XCenter, YAlign: draw.YCenter}
			st.Font.Size = vg.Points(max(6, 12-float64(k)/2))
			if float64(c) > 0.55*float64(peak) {
				st.Color = color.White
			}
			styles = append(styles, st)
		}
	}
	labels, err := plotter.NewLabels(xys)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		styles[i].Font = labels.TextStyle[i].Font
		styles[i].Font.Size = vg.Points(max(6, 12-float64(k)/2))
	}
	labels.TextStyle = styles
	p.Add(labels)
	every := 1 + k/12
	p.X.Tick.Marker = indexTicks{names: names, every: every}
	p.Y.Tick.Marker = indexTicks{names: names, top: true, every: every}
	p.X.Min, p.X.Max = -0.5, float64(k)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(k)-0.5
	return p, nil
}

// ClassAccuracy draws the accuracy of each class (correct[c]/total[c]) as
// bars in the class colours, with the overall accuracy as a dashed line.
func ClassAccuracy(correct, total []int, names []string) (*plot.Plot, error) {
	if len(correct) != len(total) || len(total) == 0 {
		return nil, fmt.Errorf("figures: %d correct counts for %d totals", len(correct), len(total))
	}
	k := len(total)
	names = classNames(names, k)
	p := plot.New()
	p.Title.Text = "accuracy per class (test nodes)"
	p.Y.Label.Text = "accuracy"
	p.Y.Min, p.Y.Max = 0, 1.05
	var all, right int
	for c := range total {
		v := math.NaN()
		if total[c] > 0 {
			v = float64(correct[c]) / float64(total[c])
		}
		if math.IsNaN(v) {
			v = 0
		}
		all, right = all+total[c], right+correct[c]
		bar, err := plotter.NewBarChart(plotter.Values{v}, vg.Points(max(4, 240/float64(k))))
		if err != nil {
			return nil, err
		}
		bar.XMin = float64(c)
		bar.Color = ClassColor(c)
		bar.LineStyle.Width = 0
		p.Add(bar)
	}
	if all > 0 {
		acc := float64(right) / float64(all)
		line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: acc}, {X: float64(k) - 0.5, Y: acc}})
		if err != nil {
			return nil, err
		}
		line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
		p.Title.Text += fmt.Sprintf("; dashed: overall %.3f", acc)
	}
	p.X.Tick.Marker = indexTicks{names: names, every: 1 + k/12}
	p.X.Min, p.X.Max = -0.5, float64(k)-0.5
	p.Add(plotter.NewGrid())
	return p, nil
}

// Embedding draws points (x[i], y[i]) coloured by class[i] (−1: grey,
// "unlabelled"); when wrong is not nil, the points with wrong[i] get a red
// ring. A nil y draws x against the point index.
func Embedding(title string, x, y []float64, class []int, names []string, wrong []bool) (*plot.Plot, error) {
	n := len(x)
	if y != nil && len(y) != n || len(class) != n || wrong != nil && len(wrong) != n {
		return nil, fmt.Errorf("figures: embedding of %d points with %d y, %d classes and %d marks", n, len(y), len(class), len(wrong))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "f₁", "f₂"
	if y == nil {
		p.X.Label.Text, p.Y.Label.Text = "point", "f₁"
	}
	xs, ys := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		if y == nil {
			xs[i], ys[i] = float64(i), x[i]
		} else {
			xs[i], ys[i] = x[i], y[i]
		}
	}
	if err := addClasses(p, xs, ys, class, names, wrong); err != nil {
		return nil, err
	}
	embeddingAxes(p, xs, ys)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.ThumbnailWidth = vg.Points(8)
	p.Legend.Top = true
	return p, nil
}

// addClasses draws the points (xs[i], ys[i]) of each class, ascending, and
// rings the wrong ones.
func addClasses(p *plot.Plot, xs, ys []float64, class []int, names []string, wrong []bool) error {
	n := len(xs)
	groups := map[int]plotter.XYs{}
	var order []int
	var bad plotter.XYs
	for i := 0; i < n; i++ {
		c := class[i]
		if _, ok := groups[c]; !ok {
			order = append(order, c)
		}
		groups[c] = append(groups[c], plotter.XY{X: xs[i], Y: ys[i]})
		if wrong != nil && wrong[i] {
			bad = append(bad, plotter.XY{X: xs[i], Y: ys[i]})
		}
	}
	sort.Ints(order)
	radius := vg.Points(1.5)
	if n > 5000 {
		radius = vg.Points(1)
	}
	for _, c := range order {
		s, err := plotter.NewScatter(groups[c])
		if err != nil {
			return err
		}
		s.GlyphStyle.Radius = radius
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Color = ClassColor(c)
		p.Add(s)
		name := "unlabelled"
		if c >= 0 {
			name = classNames(names, c+1)[c]
		}
		if len(order) > 1 || c >= 0 {
			p.Legend.Add(name, s)
		}
	}
	if len(bad) > 0 {
		s, err := plotter.NewScatter(bad)
		if err != nil {
			return err
		}
		s.GlyphStyle.Radius = radius + vg.Points(1.2)
		s.GlyphStyle.Shape = draw.RingGlyph{}
		s.GlyphStyle.Color = redColor
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("wrong (%d)", len(bad)), s)
	}
	return nil
}

// embeddingAxes sets the axes to the central quantiles of the points when
// a few lie far from the mass, as spectral coordinates often put the tips
// of long chains (the mass would collapse into a corner), and says in the
// title how many points fall outside. Room is left on the right for the
// legend, which would hide points.
func embeddingAxes(p *plot.Plot, xs, ys []float64) {
	xlo, xhi := robustRange(xs)
	ylo, yhi := robustRange(ys)
	out := 0
	for i := range xs {
		if xs[i] < xlo || xs[i] > xhi || ys[i] < ylo || ys[i] > yhi {
			out++
		}
	}
	if out > 0 {
		p.Title.Text += fmt.Sprintf("\n(%d outlying points beyond the axes)", out)
	}
	p.X.Min, p.X.Max = xlo, xhi+0.25*(xhi-xlo)
	p.Y.Min, p.Y.Max = ylo, yhi
}

// outlierQuantile is the share of points left out of an embedding's axes
// at each end when they lie far from the rest.
const outlierQuantile = 0.05

// robustRange returns the range of v, or the range between its
// outlierQuantile and 1 − outlierQuantile quantiles widened by a quarter
// when the full range is more than twice that: far outliers.
func robustRange(v []float64) (lo, hi float64) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	lo, hi = s[0], s[len(s)-1]
	k := int(outlierQuantile * float64(len(s)))
	qlo, qhi := s[k], s[len(s)-1-k]
	if w := qhi - qlo; w > 0 && hi-lo > 2*w {
		lo, hi = math.Max(lo, qlo-0.25*w), math.Min(hi, qhi+0.25*w)
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	return lo, hi
}

// Spectrum draws eigenvalue against index; eigenvalues equal within tol
// (relative to the largest magnitude) share a marker ring and a count label,
// so that multiplicities are visible.
func Spectrum(title string, values []float64, tol float64) (*plot.Plot, error) {
	if len(values) == 0 {
		return nil, errors.New("figures: no eigenvalues")
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "index", "eigenvalue"
	xy := make(plotter.XYs, len(values))
	scale := 0.0
	for i, v := range values {
		xy[i] = plotter.XY{X: float64(i), Y: v}
		scale = math.Max(scale, math.Abs(v))
	}
	line, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, err
	}
	line.LineStyle.Color = greyColor
	pts.Shape = draw.CircleGlyph{}
	pts.Color = blueColor
	pts.Radius = vg.Points(2.5)
	p.Add(line, pts)
	// Runs of (nearly) equal eigenvalues: a multiplicity.
	var multi plotter.XYLabels
	for i := 0; i < len(values); {
		j := i + 1
		for j < len(values) && math.Abs(values[j]-values[i]) <= tol*math.Max(scale, 1e-300) {
			j++
		}
		if j-i > 1 {
			multi.XYs = append(multi.XYs, plotter.XY{X: float64(i+j-1) / 2, Y: values[i]})
			multi.Labels = append(multi.Labels, fmt.Sprintf("×%d", j-i))
		}
		i = j
	}
	if len(multi.XYs) > 0 {
		l, err := plotter.NewLabels(multi)
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Color = redColor
			l.TextStyle[i].XAlign = draw.XCenter
		}
		l.Offset = vg.Point{Y: vg.Points(5)}
		p.Add(l)
		p.Legend.Add("×m: multiplicity m", pts)
		p.Legend.Top, p.Legend.Left = true, true
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// Residuals draws the residual of each eigenpair on a log axis.
func Residuals(title string, residuals []float64) (*plot.Plot, error) {
	if len(residuals) == 0 {
		return nil, errors.New("figures: no residuals")
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "index", "residual ‖Av − λv‖"
	// Exact zeros have no place on a log axis: they are drawn a decade
	// below the smallest positive residual, and the title says so.
	floor, zeros := math.Inf(1), 0
	for _, r := range residuals {
		if r > 0 {
			floor = math.Min(floor, r)
		} else {
			zeros++
		}
	}
	if math.IsInf(floor, 1) {
		floor = 1
	}
	floor /= 10
	if zeros > 0 {
		p.Title.Text += fmt.Sprintf("\n(%d exact zeros drawn at %.1g)", zeros, floor)
	}
	xy := make(plotter.XYs, len(residuals))
	for i, r := range residuals {
		xy[i] = plotter.XY{X: float64(i), Y: math.Log10(math.Max(r, floor))}
	}
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	s.GlyphStyle.Color = redColor
	s.GlyphStyle.Radius = vg.Points(2.5)
	p.Add(s)
	logY(p)
	p.Add(plotter.NewGrid())
	return p, nil
}

// Log axes. gonum/plot's LogScale reserves room for an axis label centred
// at the normalised arithmetic midpoint of the range, which on a log scale
// lies well above the centre where the label is drawn, so a long y label
// pushed the data area down and left a band empty under the title; and
// plot.LogTicks names only powers of ten, so a range inside one decade had
// no tick label at all. A log axis here is a linear axis of log10 values
// whose ticks name the original values (log10Ticks).

// logY puts the y axis on log10 ticks; the data must be log10 values.
func logY(p *plot.Plot) { p.Y.Tick.Marker = log10Ticks{} }

// log10Ticks marks, on an axis of log10 values, the numbers m·10^k: the
// powers of ten labelled, and 2·10^k and 5·10^k too over a few decades,
// every m inside a single decade.
type log10Ticks struct{}

func (log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	span := hi - lo
	labelled := func(m int) bool {
		switch {
		case span > 2.5:
			return m == 1
		case span > 0.9:
			return m == 1 || m == 2 || m == 5
		}
		return true
	}
	var ticks []plot.Tick
	named := 0
	for k := int(math.Floor(lo)); k <= int(math.Ceil(hi)); k++ {
		for m := 1; m <= 9; m++ {
			if m > 1 && span > 6 {
				break // minor ticks would merge into a bar
			}
			pos := math.Log10(float64(m)) + float64(k)
			if pos < lo-1e-9 || pos > hi+1e-9 {
				continue
			}
			t := plot.Tick{Value: pos}
			if labelled(m) {
				t.Label = strconv.FormatFloat(float64(m)*math.Pow10(k), 'g', 2, 64)
				if k >= 0 && k < 6 {
					t.Label = strconv.Itoa(m) + strings.Repeat("0", k) // 500, not 5e+02
				}
				named++
			}
			ticks = append(ticks, t)
		}
	}
	if named >= 2 {
		return ticks
	}
	// A range too narrow for two of the marks above: the default ticks of
	// the original values, placed at their logarithms.
	ticks = ticks[:0]
	for _, t := range (plot.DefaultTicks{}).Ticks(math.Pow(10, lo), math.Pow(10, hi)) {
		if t.Value > 0 {
			ticks = append(ticks, plot.Tick{Value: math.Log10(t.Value), Label: t.Label})
		}
	}
	return ticks
}

// GridHeatmap draws z[row][col] over a parameter grid (rows named by
// rowNames from the top, columns by colNames) with the value in each cell
// and the cell (bestRow, bestCol) outlined; a negative bestRow marks none.
// NaN cells are grey.
func GridHeatmap(title, colLabel, rowLabel string, colNames, rowNames []string, z [][]float64, bestRow, bestCol int) (*plot.Plot, error) {
	if len(z) == 0 || len(z[0]) == 0 || len(rowNames) != len(z) {
		return nil, fmt.Errorf("figures: grid of %d rows for %d row names", len(z), len(rowNames))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, row := range z {
		if len(row) != len(colNames) {
			return nil, fmt.Errorf("figures: grid row %d has %d values for %d column names", i, len(row), len(colNames))
		}
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if hi == lo {
		hi = lo + 1
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = colLabel, rowLabel
	h := plotter.NewHeatMap(grid{z: z}, sequential(64))
	h.Min, h.Max = lo, hi
	h.NaN = greyColor
	p.Add(h)
	var xys plotter.XYLabels
	nr := len(z)
	for i, row := range z {
		for j, v := range row {
			xys.XYs = append(xys.XYs, plotter.XY{X: float64(j), Y: float64(nr - 1 - i)})
			s := "–"
			if !math.IsNaN(v) {
				s = strconv.FormatFloat(v, 'f', 3, 64)
			}
			xys.Labels = append(xys.Labels, s)
		}
	}
	labels, err := plotter.NewLabels(xys)
	if err != nil {
		return nil, err
	}
	k := 0
	for _, row := range z {
		for _, v := range row {
			st := &labels.TextStyle[k]
			st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
			st.Font.Size = vg.Points(7)
			if !math.IsNaN(v) && (v-lo)/(hi-lo) > 0.55 {
				st.Color = color.White
			}
			k++
		}
	}
	p.Add(labels)
	if bestRow >= 0 && bestRow < nr && bestCol >= 0 && bestCol < len(colNames) {
		x, y := float64(bestCol), float64(nr-1-bestRow)
		box, err := plotter.NewLine(plotter.XYs{{X: x - 0.5, Y: y - 0.5}, {X: x + 0.5, Y: y - 0.5}, {X: x + 0.5, Y: y + 0.5}, {X: x - 0.5, Y: y + 0.5}, {X: x - 0.5, Y: y - 0.5}})
		if err != nil {
			return nil, err
		}
		box.LineStyle.Color = redColor
		box.LineStyle.Width = vg.Points(2.5)
		p.Add(box)
		p.Title.Text += " (red box: chosen)"
	}
	p.X.Tick.Marker = indexTicks{names: colNames, every: 1 + len(colNames)/12}
	p.Y.Tick.Marker = indexTicks{names: rowNames, top: true, every: 1 + nr/12}
	p.X.Min, p.X.Max = -0.5, float64(len(colNames))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(nr)-0.5
	return p, nil
}

// Series is one named curve of a Curves panel; Err, when not nil, draws
// ±Err[i] bars (on a log y axis the lower bar stops at a tenth of Y[i]).
type Series struct {
	Name string
	X, Y []float64
	Err  []float64
	// Labels, when not nil, names each point (written next to it).
	Labels []string
}

// Curves draws each series as a line with points; logX and logY put the
// axes on a log scale (non-positive values are then left out).
func Curves(title, xLabel, yLabel string, logX, logYAxis bool, series ...Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	drawn := 0
	var path []plotter.XYs // the drawn curves, to find a free corner
	for k, s := range series {
		if err := s.check(); err != nil {
			return nil, err
		}
		xy, names, errs := s.points(logX, logYAxis)
		if len(xy) == 0 {
			continue
		}
		path = append(path, xy)
		if err := addSeries(p, k, s.Name, xy, names, errs); err != nil {
			return nil, err
		}
		drawn++
	}
	if drawn == 0 {
		return nil, fmt.Errorf("figures: %s: no point to draw", title)
	}
	if logX {
		p.X.Tick.Marker = log10Ticks{}
	}
	if logYAxis {
		logY(p)
	}
	// The legend goes to the corner the curves leave most free; on a tie
	// the top one the curves leave free by their slope: the left one when
	// they rise, the right one when they fall.
	p.Legend.Top, p.Legend.Left = freeCorner(path, !falling(series))
	p.Add(plotter.NewGrid())
	return p, nil
}

// check refuses a series whose Y, Err or Labels do not match its X.
func (s Series) check() error {
	if len(s.X) != len(s.Y) {
		return fmt.Errorf("figures: series %q has %d x and %d y", s.Name, len(s.X), len(s.Y))
	}
	if s.Err != nil && len(s.Err) != len(s.Y) {
		return fmt.Errorf("figures: series %q has %d y and %d error bars", s.Name, len(s.Y), len(s.Err))
	}
	if s.Labels != nil && len(s.Labels) != len(s.Y) {
		return fmt.Errorf("figures: series %q has %d y and %d labels", s.Name, len(s.Y), len(s.Labels))
	}
	return nil
}

// points returns the series' points as drawn (log10 on a log axis, NaN and
// non-positive values there left out), with their labels and error bars.
func (s Series) points(logX, logYAxis bool) (plotter.XYs, []string, plotter.YErrors) {
	var xy plotter.XYs
	var names []string
	var errs plotter.YErrors
	for i := range s.X {
		if math.IsNaN(s.X[i]) || math.IsNaN(s.Y[i]) || logX && s.X[i] <= 0 || logYAxis && s.Y[i] <= 0 {
			continue
		}
		x, y := s.X[i], s.Y[i]
		if logX {
			x = math.Log10(x)
		}
		if logYAxis {
			y = math.Log10(y)
		}
		xy = append(xy, plotter.XY{X: x, Y: y})
		if s.Labels != nil {
			names = append(names, s.Labels[i])
		}
		if s.Err != nil {
			lo, hi := s.Err[i], s.Err[i]
			if logYAxis {
				// The bars of y ± err in log10 units.
				lo = y - math.Log10(s.Y[i]-math.Min(lo, 0.9*s.Y[i]))
				hi = math.Log10(s.Y[i]+hi) - y
			}
			errs = append(errs, struct{ Low, High float64 }{lo, hi})
		}
	}
	return xy, names, errs
}

// addSeries draws series k, named name, as a line with points, its error
// bars and labels when it has them, and adds it to the legend.
func addSeries(p *plot.Plot, k int, name string, xy plotter.XYs, names []string, errs plotter.YErrors) error {
	line, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return err
	}
	line.LineStyle.Color = paletteColor(k)
	line.LineStyle.Width = vg.Points(1.5)
	pts.Color = paletteColor(k)
	pts.Shape = plotutil.Shape(k)
	if len(xy) > 60 {
		pts.Radius = 0
	}
	p.Add(line, pts)
	if errs != nil {
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return err
		}
		bars.Color = paletteColor(k)
		p.Add(bars)
	}
	if names != nil {
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: names})
		if err != nil {
			return err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Color = paletteColor(k)
			labels.TextStyle[i].Font.Size = vg.Points(8)
			labels.TextStyle[i].XAlign = draw.XLeft
		}
		labels.Offset = vg.Point{X: vg.Points(4), Y: vg.Points(3)}
		p.Add(labels)
	}
	if name != "" {
		p.Legend.Add(name, line, pts)
	}
	return nil
}

// freeCorner returns the corner of the data area (top, left) that the
// polylines cross least: each segment is sampled at 16 points, and a
// corner is the box of 45 % of the width and 30 % of the height a legend of
// a few lines takes. Ties go to the top corners, preferLeft first.
func freeCorner(lines []plotter.XYs, preferLeft bool) (top, left bool) {
	var pts []plotter.XY
	for _, l := range lines {
		for i := range l {
			pts = append(pts, l[i])
			if i+1 < len(l) {
				for s := 1; s < 16; s++ {
					t := float64(s) / 16
					pts = append(pts, plotter.XY{X: l[i].X + t*(l[i+1].X-l[i].X), Y: l[i].Y + t*(l[i+1].Y-l[i].Y)})
				}
			}
		}
	}
	if len(pts) == 0 {
		return true, preferLeft
	}
	x0, x1, y0, y1 := pts[0].X, pts[0].X, pts[0].Y, pts[0].Y
	for _, q := range pts {
		x0, x1, y0, y1 = math.Min(x0, q.X), math.Max(x1, q.X), math.Min(y0, q.Y), math.Max(y1, q.Y)
	}
	w, h := math.Max(x1-x0, 1e-300), math.Max(y1-y0, 1e-300)
	corners := [][2]bool{{true, preferLeft}, {true, !preferLeft}, {false, preferLeft}, {false, !preferLeft}}
	best, bestN := 0, -1
	for c, tl := range corners {
		n := 0
		for _, q := range pts {
			nx, ny := (q.X-x0)/w, (q.Y-y0)/h
			inX := (tl[1] && nx <= 0.45) || (!tl[1] && nx >= 0.55)
			inY := (tl[0] && ny >= 0.7) || (!tl[0] && ny <= 0.3)
			if inX && inY {
				n++
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = c, n
		}
	}
	return corners[best][0], corners[best][1]
}

// falling says whether the curves end lower than they start, on average.
func falling(series []Series) bool {
	d := 0.0
	for _, s := range series {
		if n := len(s.Y); n > 1 && !math.IsNaN(s.Y[0]) && !math.IsNaN(s.Y[n-1]) {
			if s.Y[n-1] < s.Y[0] {
				d++
			} else if s.Y[n-1] > s.Y[0] {
				d--
			}
		}
	}
	return d > 0
}

// Histogram draws the distribution of values in bins bins (0 means
// Sturges' rule, ⌈log₂ n⌉ + 1).
func Histogram(title, xLabel string, values []float64, bins int) (*plot.Plot, error) {
	var v plotter.Values
	for _, x := range values {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return nil, errors.New("figures: no finite value for the histogram")
	}
	if bins <= 0 {
		bins = int(math.Ceil(math.Log2(float64(len(v))))) + 1
	}
	h, err := plotter.NewHist(v, bins)
	if err != nil {
		return nil, err
	}
	h.FillColor = blueColor
	h.LineStyle.Color = whiteColor
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xLabel, "count"
	p.Add(h)
	return p, nil
}

// Matrix draws the square matrix m (row-major, n×n) as a heat map, rows
// from the top, with lines between the groups that start at the indices of
// bounds (for a Gram matrix ordered by class: where each class starts).
func Matrix(title string, n int, m []float64, bounds []int) (*plot.Plot, error) {
	if n <= 0 || len(m) != n*n {
		return nil, fmt.Errorf("figures: %d values for a %d×%d matrix", len(m), n, n)
	}
	z := make([][]float64, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range z {
		z[i] = m[i*n : (i+1)*n]
		for _, v := range z[i] {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = "item", "item"
	h := plotter.NewHeatMap(grid{z: z}, sequential(64))
	h.Min, h.Max = lo, hi
	h.NaN = greyColor
	h.Rasterized = n > 100
	p.Add(h)
	for _, b := range bounds {
		if b <= 0 || b >= n {
			continue
		}
		at := float64(b) - 0.5
		y := float64(n-b) - 0.5
		v, err := plotter.NewLine(plotter.XYs{{X: at, Y: -0.5}, {X: at, Y: float64(n) - 0.5}})
		if err != nil {
			return nil, err
		}
		hz, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: y}, {X: float64(n) - 0.5, Y: y}})
		if err != nil {
			return nil, err
		}
		v.LineStyle.Color, hz.LineStyle.Color = redColor, redColor
		p.Add(v, hz)
	}
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.Y.Tick.Marker = flippedTicks{n: n}
	p.X.Tick.Marker = flippedTicks{n: n, right: true}
	return p, nil
}

// flippedTicks numbers rows from the top (columns from the left, when
// right).
type flippedTicks struct {
	n     int
	right bool
}

func (t flippedTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	step := max(1, t.n/6)
	for i := 0; i < t.n; i += step {
		v := float64(t.n - 1 - i)
		if t.right {
			v = float64(i)
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.Itoa(i)})
	}
	return out
}

// Band is one model's predictions of a PredictionBands panel: Mean[i] ± 2
// SD[i] against Truth[i].
type Band struct {
	Name            string
	Truth, Mean, SD []float64
}

// PredictionBands draws predicted against true values, each model with its
// ±2σ error bars, and the diagonal.
func PredictionBands(title, xLabel, yLabel string, bands ...Band) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	lo, hi := math.Inf(1), math.Inf(-1)
	shapes := []draw.GlyphDrawer{draw.SquareGlyph{}, draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}
	for k, b := range bands {
		n := len(b.Truth)
		if len(b.Mean) != n || len(b.SD) != n || n == 0 {
			return nil, fmt.Errorf("figures: band %q has %d truths, %d means and %d deviations", b.Name, n, len(b.Mean), len(b.SD))
		}
		xy := make(plotter.XYs, n)
		errs := make(plotter.YErrors, n)
		for i := range b.Truth {
			xy[i] = plotter.XY{X: b.Truth[i], Y: b.Mean[i]}
			errs[i].Low, errs[i].High = 2*b.SD[i], 2*b.SD[i]
			lo, hi = math.Min(lo, b.Truth[i]), math.Max(hi, b.Truth[i])
		}
		c := paletteColor(k)
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = c
		s.GlyphStyle.Shape = shapes[k%len(shapes)]
		s.GlyphStyle.Radius = vg.Points(1.2)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return nil, err
		}
		r, g, bl, _ := c.RGBA()
		bars.LineStyle.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 90}
		bars.CapWidth = 0
		p.Add(bars, s)
		p.Legend.Add(b.Name+" (±2σ)", s)
	}
	if len(bands) == 0 {
		return nil, errors.New("figures: no predictions")
	}
	diag, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
	if err != nil {
		return nil, err
	}
	diag.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(diag)
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	return p, nil
}

// Bars draws one bar per name, horizontal and top to bottom, with its value
// written after it; ref > 0 draws a dashed line at that value (for speed
// ratios: 1, as fast as the peer).
func Bars(title, valueLabel string, names []string, values []float64, ref float64) (*plot.Plot, error) {
	if len(names) != len(values) || len(names) == 0 {
		return nil, fmt.Errorf("figures: %d bar names for %d values", len(names), len(values))
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = valueLabel
	n := len(names)
	var xys plotter.XYLabels
	peak := 0.0
	for i, v := range values {
		if math.IsNaN(v) {
			v = 0
		}
		peak = math.Max(peak, v)
		bar, err := plotter.NewBarChart(plotter.Values{v}, vg.Points(max(4, min(14, 160/float64(n)))))
		if err != nil {
			return nil, err
		}
		bar.Horizontal = true
		bar.XMin = float64(n - 1 - i)
		bar.Color = blueColor
		bar.LineStyle.Width = 0
		p.Add(bar)
		xys.XYs = append(xys.XYs, plotter.XY{X: v, Y: float64(n - 1 - i)})
		xys.Labels = append(xys.Labels, fmt.Sprintf(" %.3g", values[i]))
	}
	labels, err := plotter.NewLabels(xys)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].YAlign = draw.YCenter
	}
	p.Add(labels)
	if ref > 0 {
		line, err := plotter.NewLine(plotter.XYs{{X: ref, Y: -0.5}, {X: ref, Y: float64(n) - 0.5}})
		if err != nil {
			return nil, err
		}
		line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
	}
	p.Y.Tick.Marker = indexTicks{names: names, top: true}
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Min, p.X.Max = 0, math.Max(peak, ref)*1.2
	return p, nil
}

// ConfusionPanels draws a confusion matrix counts (rows: the true class,
// columns: the predicted one) and, from its diagonal and row sums, the
// accuracy of each class (ClassAccuracy).
func ConfusionPanels(counts [][]int, names []string) ([]*plot.Plot, error) {
	correct, total := make([]int, len(counts)), make([]int, len(counts))
	for c, row := range counts {
		for _, v := range row {
			total[c] += v
		}
		if c < len(row) {
			correct[c] = row[c]
		}
	}
	conf, err := Confusion(counts, names)
	if err != nil {
		return nil, err
	}
	acc, err := ClassAccuracy(correct, total, names)
	if err != nil {
		return nil, err
	}
	return []*plot.Plot{conf, acc}, nil
}
