package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	stdhtml "html"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
)

// minColoured is the fewest pixels in a colour (not a grey) for a figure to
// count as drawn: axes, ticks and titles are black on white, so a figure
// without data has none, and the smallest one here (six eigenvalues and
// their residuals) has about 700.
const minColoured = 400

// checkPNG decodes a PNG figure, checks its size (panels of 528×432 pixels,
// cols to a row) and that it is not a blank canvas.
func checkPNG(t *testing.T, b []byte, cols, rows int) {
	t.Helper()
	img, format, err := image.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	require.Equal(t, "png", format)
	require.Equal(t, image.Rect(0, 0, cols*528, rows*432), img.Bounds())
	seen := map[color.RGBA]bool{}
	coloured := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, ca := img.At(x, y).RGBA()
			c := color.RGBA{R: uint8(cr >> 8), G: uint8(cg >> 8), B: uint8(cb >> 8), A: uint8(ca >> 8)}
			seen[c] = true
			if c.R != c.G || c.G != c.B {
				coloured++
			}
		}
	}
	assert.Greater(t, len(seen), 16, "distinct colours")
	assert.Greater(t, coloured, minColoured, "pixels in colour")
}

func readPNG(t *testing.T, path string, cols, rows int) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	checkPNG(t, b, cols, rows)
}

// refAttr finds the attributes that load or link a resource.
var refAttr = regexp.MustCompile(`(?i)\b(?:src|href|action|srcset)\s*=\s*"([^"]*)"`)

// checkReport reads DIR/index.html: self-contained (every reference a data
// URI, no http: or https: anywhere, no script), the figure a PNG of the
// given layout, and the wanted strings (tables) present.
func checkReport(t *testing.T, dir string, cols, rows int, want ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	html := string(b)
	assert.NotContains(t, html, "http:")
	assert.NotContains(t, html, "https:")
	assert.NotContains(t, html, "<script")
	refs := refAttr.FindAllStringSubmatch(html, -1)
	require.NotEmpty(t, refs, "the figure")
	for _, m := range refs {
		require.True(t, strings.HasPrefix(m[1], "data:image/png;base64,"), "a reference out of the page: %.80s", m[0])
		png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(stdhtml.UnescapeString(m[1]), "data:image/png;base64,"))
		require.NoError(t, err)
		checkPNG(t, png, cols, rows)
	}
	for _, w := range append([]string{"<h2>Versions</h2>", "<td>go</td>", "result (the fields of --json)", "wall clock"}, want...) {
		assert.Contains(t, html, w)
	}
	return html
}

func TestLabelpropPlotAndReport(t *testing.T) {
	dir := t.TempDir()
	png, rep := filepath.Join(dir, "lp.png"), filepath.Join(dir, "rep")
	args := []string{"labelprop", "--alpha", "0.9", "--plot", png, "--report", rep}
	saved := commandLine
	commandLine = func() []string { return append([]string{"gssl"}, args...) }
	defer func() { commandLine = saved }()
	_, _, err := runRoot(t, args...)
	require.NoError(t, err)
	// Confusion matrix, per-class accuracy and the eigenmap in one row.
	readPNG(t, png, 3, 1)
	html := checkReport(t, rep, 3, 1, "<caption>accuracy per class</caption>", "<caption>confusion matrix (rows: true class, columns: predicted)</caption>",
		"<td>test_accuracy</td>", "<pre>gssl labelprop --alpha 0.9 --plot ", "first_seed = 0")
	// The 1000 Planetoid test nodes are counted once in the confusion table.
	cells := regexp.MustCompile(`(?s)<caption>accuracy per class</caption>.*?</table>`).FindString(html)
	total := 0
	for _, m := range regexp.MustCompile(`<tr><td>[^<]*</td><td>(\d+)</td>`).FindAllStringSubmatch(cells, -1) {
		v, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		total += v
	}
	assert.Equal(t, 1000, total)
}

func TestClassifyPlotAndReport(t *testing.T) {
	dir := t.TempDir()
	png, rep := filepath.Join(dir, "cls.png"), filepath.Join(dir, "rep")
	_, _, err := runRoot(t, "classify", "--model", "sgc", "--plot", png, "--report", rep)
	require.NoError(t, err)
	readPNG(t, png, 3, 1)
	html := checkReport(t, rep, 3, 1, "<caption>accuracy per class</caption>", "<td>test_accuracy</td>")
	cells := regexp.MustCompile(`(?s)<caption>accuracy per class</caption>.*?</table>`).FindString(html)
	total := 0
	for _, m := range regexp.MustCompile(`<tr><td>[^<]*</td><td>(\d+)</td>`).FindAllStringSubmatch(cells, -1) {
		v, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		total += v
	}
	assert.Equal(t, 1000, total, "the Planetoid test nodes, each once")
	// The run's own time, not the zero of a result not yet timed.
	m := regexp.MustCompile(`<td>seconds</td><td>([0-9.e-]+)</td>`).FindStringSubmatch(html)
	require.NotNil(t, m, "no seconds row in the report")
	sec, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	assert.Positive(t, sec, "the report's seconds")
}

func TestPlotFlagsRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"labelprop", "eigs", "stkr", "cluster", "embed", "classify"} {
		bogus := filepath.Join(dir, cmd+".jpg")
		_, _, err := runRoot(t, cmd, "--plot", bogus)
		require.ErrorContains(t, err, "--plot "+bogus+`: unknown image format ".jpg": the name must end in .png, .svg, .pdf`, cmd)
		_, statErr := os.Stat(bogus)
		assert.True(t, os.IsNotExist(statErr), cmd)
	}
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, _, err := runRoot(t, "eigs", "--report", file)
	require.ErrorContains(t, err, "--report "+file+" is a file")
	_, _, err = runRoot(t, "eigs", "--report", filepath.Join(dir, "no", "such"))
	require.ErrorContains(t, err, "does not exist")
}

func TestEigsPlotSVG(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "eigs.svg")
	_, _, err := runRoot(t, "eigs", "--edges", writeCycle(t, 12), "--eigenpairs", "6", "--plot", svg, "--report", filepath.Join(dir, "r"))
	require.NoError(t, err)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	dec := xml.NewDecoder(bytes.NewReader(b))
	var root xml.StartElement
	paths, texts := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok {
			if root.Name.Local == "" {
				root = se
			}
			switch se.Name.Local {
			case "path":
				paths++
			case "text":
				texts++
			}
		}
	}
	require.Equal(t, "svg", root.Name.Local)
	assert.Contains(t, root.Attr, xml.Attr{Name: xml.Name{Local: "width"}, Value: "792pt"})
	assert.Greater(t, paths, 20)
	assert.Greater(t, texts, 10)
	// The cycle's spectrum has pairs: the panel marks them.
	assert.Contains(t, string(b), "×2")
	checkReport(t, filepath.Join(dir, "r"), 2, 1, "<caption>eigenpairs</caption>")
}

func TestSTKRPlotAndReport(t *testing.T) {
	dir := t.TempDir()
	png, rep := filepath.Join(dir, "stkr.png"), filepath.Join(dir, "rep")
	_, _, err := runRoot(t, "stkr", "--ridge", "auto", "--eta", "auto", "--plot", png, "--report", rep)
	require.NoError(t, err)
	// The η/β grid and r(λ) side by side.
	readPNG(t, png, 2, 1)
	checkReport(t, rep, 2, 1, "<caption>STKR selection grid: validation accuracy (seed 0) (rows η, columns β)</caption>", "<td>test_accuracy_mean</td>")
}

func TestGraphKernelPlot(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "gk.png")
	opts := graphKernelOptions{Data: writeTU(t, 12), Kernel: "wl", H: 2, SelectH: true, Normalize: true, Classifier: "svm",
		Grid: defaultCGrid, CV: 4, Inner: 2, Repeats: 1, GramRuns: 1, Plots: plotFlags{Plot: png, Report: filepath.Join(dir, "r")}}
	var sink bytes.Buffer
	require.NoError(t, runGraphKernel(context.Background(), opts, &sink, &sink))
	// The Gram matrix and the chosen heights.
	readPNG(t, png, 2, 1)
	checkReport(t, filepath.Join(dir, "r"), 2, 1, "<caption>mean kernel value between classes (as drawn)</caption>")
}

func TestClusterAndEmbedPlots(t *testing.T) {
	dir := t.TempDir()
	edges := filepath.Join(writePlanted(t, 3, 40), "edges.txt")
	labels := filepath.Join(filepath.Dir(edges), "labels.txt")
	args := []string{"--edges", edges}
	if _, err := os.Stat(labels); err == nil {
		args = append(args, "--labels", labels)
	}
	png := filepath.Join(dir, "cl.png")
	_, _, err := runRoot(t, append([]string{"cluster", "--clusters", "3", "--plot", png, "--report", filepath.Join(dir, "c")}, args...)...)
	require.NoError(t, err)
	cols := 1
	if len(args) > 2 {
		cols = 2 // by cluster and by class
	}
	readPNG(t, png, cols, 1)
	checkReport(t, filepath.Join(dir, "c"), cols, 1)
	png = filepath.Join(dir, "em.png")
	_, _, err = runRoot(t, append([]string{"embed", "--plot", png, "--report", filepath.Join(dir, "e")}, args...)...)
	require.NoError(t, err)
	readPNG(t, png, 1, 1)
	checkReport(t, filepath.Join(dir, "e"), 1, 1)
}

func TestKNNPlot(t *testing.T) {
	digits := sharedtest.Data(t, "digits8x8")
	png := filepath.Join(t.TempDir(), "knn.png")
	opts := knnTestOptions(digits, 300, 5)
	opts.Plots.Plot = png
	var sink bytes.Buffer
	require.NoError(t, runKNN(context.Background(), opts, &sink, &sink))
	readPNG(t, png, 2, 1)

	// --compare: recall against time is the third panel, and the JSON has
	// the exact search and one NN-descent run per iteration limit, whose
	// recall cannot fall as the limit grows (the longer run continues the
	// shorter one, and lists only improve).
	for _, approx := range []bool{false, true} {
		var out bytes.Buffer
		dir := t.TempDir()
		opts := knnTestOptions(digits, 300, 5)
		opts.Approximate, opts.JSON, opts.Compare, opts.CompareIterations = approx, true, true, []int{1, 2, 5}
		opts.Plots = plotFlags{Plot: filepath.Join(dir, "knn.png"), Report: filepath.Join(dir, "r")}
		require.NoError(t, runKNN(context.Background(), opts, &out, &sink))
		readPNG(t, opts.Plots.Plot, 3, 1)
		checkReport(t, opts.Plots.Report, 3, 1, "<caption>recall against time (--compare)</caption>")
		obj := decodeOne(t, out.Bytes())
		cmp := obj["compare"].([]any)
		require.Len(t, cmp, 4)
		first := cmp[0].(map[string]any)
		assert.Equal(t, "exact", first["method"])
		assert.Equal(t, 1.0, first["recall"])
		prev := 0.0
		for i, it := range []float64{1, 2, 5} {
			c := cmp[i+1].(map[string]any)
			assert.Equal(t, "nn-descent", c["method"])
			assert.Equal(t, it, c["iterations"])
			r := c["recall"].(float64)
			assert.GreaterOrEqual(t, r, prev)
			assert.LessOrEqual(t, r, 1.0)
			prev = r
		}
		assert.Greater(t, prev, 0.9)
	}
	opts.Compare, opts.CompareIterations = true, []int{0}
	require.ErrorContains(t, runKNN(context.Background(), opts, &sink, &sink), "--compare-iterations value 0 is invalid")
}

func TestGPPlotAndReport(t *testing.T) {
	dir := t.TempDir()
	png, rep := filepath.Join(dir, "gp.png"), filepath.Join(dir, "rep")
	_, _, err := runRoot(t, "gp", "--synthetic", "200", "--plot", png, "--report", rep)
	require.NoError(t, err)
	readPNG(t, png, 1, 1)
	checkReport(t, rep, 1, 1, "<td>rmse</td>")
}

func TestIMGPPlotAndReport(t *testing.T) {
	opts := smallIMGP()
	opts.In.Synthetic = 300
	dir := t.TempDir()
	opts.Plots.Plot, opts.Plots.Report = filepath.Join(dir, "imgp.png"), filepath.Join(dir, "rep")
	var sink bytes.Buffer
	require.NoError(t, runIMGP(context.Background(), opts, &sink, &sink))
	// One 7 × 6 in panel at 96 dpi.
	b, err := os.ReadFile(opts.Plots.Plot)
	require.NoError(t, err)
	img, _, err := image.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 672, 576), img.Bounds())
	checkReport(t, opts.Plots.Report, 1, 1, "<td>euclidean_rmse</td>")
}

// --heights: one nested CV per fixed height, the same protocol as the run
// (with --select-h=false and --h h the run is that evaluation, so the two
// accuracies agree), drawn as a third panel.
func TestGraphKernelHeights(t *testing.T) {
	dir := t.TempDir()
	data := writeTU(t, 12)
	png := filepath.Join(dir, "gk.png")
	opts := graphKernelOptions{Data: data, Kernel: "wl", H: 2, SelectH: true, Normalize: true, Classifier: "svm",
		Grid: defaultCGrid, CV: 4, Inner: 2, Repeats: 2, GramRuns: 1, JSON: true, Heights: []int{0, 1, 2, 3},
		Plots: plotFlags{Plot: png, Report: filepath.Join(dir, "r")}}
	var out, sink bytes.Buffer
	require.NoError(t, runGraphKernel(context.Background(), opts, &out, &sink))
	readPNG(t, png, 3, 1)
	checkReport(t, filepath.Join(dir, "r"), 3, 1, "<caption>accuracy against WL height (height fixed, nested CV)</caption>")
	hs := decodeOne(t, out.Bytes())["heights"].([]any)
	require.Len(t, hs, 4)
	for i, h := range []int{0, 1, 2, 3} {
		got := hs[i].(map[string]any)
		require.Equal(t, float64(h), got["h"])
		fixed := opts
		fixed.SelectH, fixed.H, fixed.Heights, fixed.Plots = false, max(h, 1), nil, plotFlags{}
		if h == 0 {
			continue // --h must be ≥ 1; height 0 is checked through the sweep alone
		}
		out.Reset()
		require.NoError(t, runGraphKernel(context.Background(), fixed, &out, &sink))
		want := decodeOne(t, out.Bytes())
		assert.Equal(t, want["accuracy_mean"], got["accuracy_mean"], "h = %d", h)
		assert.Equal(t, want["accuracy_std"], got["accuracy_std"], "h = %d", h)
	}
	bad := opts
	bad.Kernel, bad.SelectH = "sp", false
	require.ErrorContains(t, runGraphKernel(context.Background(), bad, &out, &sink), "--heights needs --kernel wl")
	bad = opts
	bad.Heights = []int{-1}
	require.ErrorContains(t, runGraphKernel(context.Background(), bad, &out, &sink), "--heights value -1 is invalid")
}
