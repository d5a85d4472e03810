package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval/stkreval"
	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
)

// plotFlags are --plot FILE and --report DIR of the commands that draw
// their result: one image of all the command's panels (package figures), and
// a self-contained HTML page of the run (package htmlreport).
type plotFlags struct {
	Plot   string // image file: .png, .svg or .pdf
	Report string // folder of index.html
	start  time.Time
}

// addFlags registers --plot and --report; what says what the image shows.
func (p *plotFlags) addFlags(f *pflag.FlagSet, what string) {
	f.StringVar(&p.Plot, "plot", "", "draw "+what+" into one image (.png, .svg or .pdf)")
	f.StringVar(&p.Report, "report", "", "write a self-contained HTML report of the run (command line, versions, seeds, timings, tables and the --plot figure) to DIR/index.html")
}

// check refuses a bad --plot or --report before any work, and starts the
// report's clock.
func (p *plotFlags) check() error {
	p.start = timeNow()
	if p.Plot != "" {
		if _, err := figures.FormatOf(p.Plot); err != nil {
			return fmt.Errorf("--plot %w", err)
		}
		if err := checkOutPath("plot", p.Plot); err != nil {
			return err
		}
	}
	if p.Report != "" {
		if st, err := os.Stat(p.Report); err == nil && !st.IsDir() {
			return fmt.Errorf("--report %s is a file; give a folder (index.html is written into it)", p.Report)
		}
		parent := filepath.Dir(filepath.Clean(p.Report))
		if st, err := os.Stat(parent); err != nil || !st.IsDir() {
			return fmt.Errorf("--report %s: the folder %s does not exist", p.Report, parent)
		}
	}
	return nil
}

// picture is what a command draws: the panels of its figure, the tables
// and notes its report adds to the result's fields.
type picture struct {
	panels  []*plot.Plot
	cols    int // panels per row; 0: two
	caption string
	tables  []htmlreport.Table
	notes   []string
}

// write draws the picture when --plot or --report asks for it: the figure
// to --plot, and the page to --report/index.html with the figure inlined,
// the picture's tables and every field of res (the command's JSON object).
// Notes (what could not be drawn) go to stderr too.
func (p plotFlags) write(stderr io.Writer, command string, res any, draw func() (picture, error)) error {
	if p.Plot == "" && p.Report == "" {
		return nil
	}
	pic, err := draw()
	if err != nil {
		return fmt.Errorf("%s: drawing the figure: %w", command, err)
	}
	for _, n := range pic.notes {
		logf(stderr, "%s: figure: %s", command, n)
	}
	fig := &figures.Figure{Panels: pic.panels, Cols: pic.cols}
	if p.Plot != "" {
		if len(pic.panels) == 0 {
			return fmt.Errorf("%s: --plot %s: this run has nothing to draw", command, p.Plot)
		}
		if err := fig.Save(p.Plot); err != nil {
			return fmt.Errorf("%s: --plot %w", command, err)
		}
	}
	if p.Report == "" {
		return nil
	}
	rep := &htmlreport.Report{Title: "gssl " + command, Command: commandLine(), Started: p.start, Notes: pic.notes}
	rep.Seeds, rep.Timings = runFacts(res)
	rep.Timings = append(rep.Timings, htmlreport.Timing{Name: "wall clock, run and figure", Seconds: seconds(p.start)})
	if len(pic.panels) > 0 {
		png, err := fig.Encode(figures.PNG)
		if err != nil {
			return fmt.Errorf("%s: --report: %w", command, err)
		}
		rep.Figures = append(rep.Figures, htmlreport.Figure{Caption: pic.caption, PNG: png})
	}
	fields, err := htmlreport.FieldsTable("result (the fields of --json)", res)
	if err != nil {
		return fmt.Errorf("%s: --report: %w", command, err)
	}
	rep.Tables = append(pic.tables, fields)
	if err := rep.Write(p.Report); err != nil {
		return fmt.Errorf("%s: --report %s: %w", command, p.Report, err)
	}
	return nil
}

// commandLine is the command line a report shows (a variable so that tests
// can give the one they run).
var commandLine = func() []string { return os.Args }

// runFacts picks the seeds (fields named *seed*) and the timings (fields
// named *seconds) out of a command's JSON object.
func runFacts(res any) (string, []htmlreport.Timing) {
	b, err := json.Marshal(res)
	if err != nil {
		return "", nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return "", nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var seeds []string
	var timings []htmlreport.Timing
	isSeed := func(k string) bool {
		// n_isolated_seeds is a count of training nodes, not a seed.
		return !strings.HasPrefix(k, "n_") && (k == "seed" || k == "seeds" || strings.HasSuffix(k, "_seed") || strings.HasSuffix(k, "_seeds"))
	}
	for _, k := range keys {
		switch v := m[k].(type) {
		case float64:
			if strings.HasSuffix(k, "seconds") {
				timings = append(timings, htmlreport.Timing{Name: k, Seconds: v})
			} else if isSeed(k) {
				seeds = append(seeds, k+" = "+strconv.FormatFloat(v, 'f', -1, 64))
			}
		case []any:
			if isSeed(k) && len(v) > 0 {
				b, _ := json.Marshal(v)
				seeds = append(seeds, k+" = "+string(b))
			}
		}
	}
	if len(seeds) == 0 {
		seeds = append(seeds, "none (the run is deterministic)")
	}
	return strings.Join(seeds, ", "), timings
}

// maxEmbedNodes bounds the graphs whose Laplacian eigenmap a figure
// computes: beyond it the Lanczos run would cost more than the command, and
// a scatter of more points is a blot.
const maxEmbedNodes = 50000

// eigenmap2D returns the 2-D Laplacian eigenmap of the largest connected
// component of ds (its coordinates and the component's nodes in ds), or a
// note saying why there is none.
func eigenmap2D(ctx context.Context, ds *loaders.NodeDataset, seed uint64) (x, y []float64, nodes []int, note string, err error) {
	if n := ds.Graph.Nodes(); n > maxEmbedNodes {
		return nil, nil, nil, fmt.Sprintf("no embedding panel: %d nodes is more than %d", n, maxEmbedNodes), nil
	}
	sub, err := ds.Graph.LargestComponent()
	if err != nil {
		return nil, nil, nil, "", err
	}
	if sub.CSR.Nodes() < 4 {
		return nil, nil, nil, "no embedding panel: the largest component has fewer than 4 nodes", nil
	}
	e := &spectral.LaplacianEigenmap{Dim: 2, Eigen: spectral.Settings{Seed: seed}}
	if err := e.Fit(ctx, estimator.Nodes{Graph: sub.CSR}); err != nil {
		return nil, nil, nil, "", fmt.Errorf("the Laplacian eigenmap of the figure: %w", err)
	}
	c := e.Coordinates()
	m := sub.CSR.Nodes()
	x, y = make([]float64, m), make([]float64, m)
	for i := 0; i < m; i++ {
		x[i], y[i] = c.At(i, 0), c.At(i, 1)
	}
	return x, y, sub.Original, "", nil
}

// confusionPanels returns the confusion matrix and per-class accuracy
// panels of pred against truth on the nodes idx, with their tables.
func confusionPanels(pred, truth []int, idx []int, classes int, names []string) ([]*plot.Plot, []htmlreport.Table, error) {
	counts := make([][]int, classes)
	for c := range counts {
		counts[c] = make([]int, classes)
	}
	correct, total := make([]int, classes), make([]int, classes)
	for _, i := range idx {
		t, p := truth[i], pred[i]
		if t < 0 || t >= classes || p < 0 || p >= classes {
			continue
		}
		counts[t][p]++
		total[t]++
		if t == p {
			correct[t]++
		}
	}
	conf, err := figures.Confusion(counts, names)
	if err != nil {
		return nil, nil, err
	}
	acc, err := figures.ClassAccuracy(correct, total, names)
	if err != nil {
		return nil, nil, err
	}
	ct := htmlreport.Table{Caption: "confusion matrix (rows: true class, columns: predicted)", Header: append([]string{"true \\ predicted"}, names...)}
	pt := htmlreport.Table{Caption: "accuracy per class", Header: []string{"class", "nodes", "correct", "accuracy"}}
	for c := range counts {
		row := []string{names[c]}
		for _, v := range counts[c] {
			row = append(row, strconv.Itoa(v))
		}
		ct.Rows = append(ct.Rows, row)
		a := "–"
		if total[c] > 0 {
			a = strconv.FormatFloat(float64(correct[c])/float64(total[c]), 'f', 4, 64)
		}
		pt.Rows = append(pt.Rows, []string{names[c], strconv.Itoa(total[c]), strconv.Itoa(correct[c]), a})
	}
	return []*plot.Plot{conf, acc}, []htmlreport.Table{pt, ct}, nil
}

// labelpropPicture: the confusion matrix and per-class accuracy on the
// test nodes of the first run, and the Laplacian eigenmap coloured by
// predicted class with the wrongly predicted test nodes ringed.
func labelpropPicture(ctx context.Context, ds *loaders.NodeDataset, runs []labelprop.Run, res labelpropResult) (picture, error) {
	r := runs[0]
	pred := r.Model.Labels()
	pic := picture{caption: "label propagation: " + res.Data}
	if len(runs) > 1 {
		pic.notes = append(pic.notes, fmt.Sprintf("the figure shows the first of %d splits (seed %d)", len(runs), res.FirstSeed))
	}
	var test []int
	if r.WithSplit {
		test = r.Split.Test
	}
	return predictionPicture(ctx, pic, ds, pred, test, res.ClassNames, res.FirstSeed)
}

// predictionPicture adds to pic the panels of a node classifier's
// predictions pred: the confusion matrix and per-class accuracy on the test
// nodes, and the eigenmap by predicted class with the wrong test nodes ringed.
func predictionPicture(ctx context.Context, pic picture, ds *loaders.NodeDataset, pred, test []int, names []string, seed uint64) (picture, error) {
	wrongAt := map[int]bool{}
	if len(test) > 0 {
		panels, tables, err := confusionPanels(pred, ds.Labels, test, ds.Classes, names)
		if err != nil {
			return pic, err
		}
		pic.panels, pic.tables = panels, tables
		for _, i := range test {
			if pred[i] != ds.Labels[i] {
				wrongAt[i] = true
			}
		}
	} else {
		pic.notes = append(pic.notes, "no confusion matrix: the run has no test nodes (give a split, e.g. --split random:20)")
	}
	emb, note, err := predictedEmbedding(ctx, ds, pred, wrongAt, names, seed)
	if err != nil {
		return pic, err
	}
	if note != "" {
		pic.notes = append(pic.notes, note)
	} else {
		pic.panels = append(pic.panels, emb)
	}
	return pic, nil
}

// classifyPicture: labelprop's panels for the chosen feature model of the
// first seed's run (its argmax on every node).
func classifyPicture(ctx context.Context, ds *loaders.NodeDataset, r classifyRun, res classifyResult) (picture, error) {
	names := make([]string, ds.Classes)
	for c := range names {
		names[c] = className(ds, c)
	}
	n, c := r.out.Probabilities.Dims()
	pred := make([]int, n)
	for i := range pred {
		pred[i] = floats.MaxIdx(r.out.Probabilities.RawRowView(i)[:c])
	}
	pic := picture{caption: "classify: " + res.Data + ", " + r.Model}
	return predictionPicture(ctx, pic, ds, pred, r.split.Test, names, r.Seed)
}

// predictedEmbedding is the 2-D Laplacian eigenmap of the largest component
// coloured by the predicted class, with the wrong nodes ringed; note says why
// there is none.
func predictedEmbedding(ctx context.Context, ds *loaders.NodeDataset, pred []int, wrongAt map[int]bool, names []string, seed uint64) (*plot.Plot, string, error) {
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil || note != "" {
		return nil, note, err
	}
	cls, wrong := make([]int, len(nodes)), make([]bool, len(nodes))
	for k, i := range nodes {
		cls[k], wrong[k] = pred[i], wrongAt[i]
	}
	if len(wrongAt) == 0 {
		wrong = nil
	}
	title := fmt.Sprintf("Laplacian eigenmap (largest component, %d nodes) by predicted class", len(nodes))
	emb, err := figures.Embedding(title, x, y, cls, names, wrong)
	return emb, "", err
}

// keep the imports honest while the adapters grow.
var (
	_ = bytes.NewReader
	_ = math.NaN
)

// multiplicityTol is the relative gap under which two computed eigenvalues
// count as one of multiplicity two in the spectrum panel: the threshold eigs
// already counts zero eigenvalues with.
const multiplicityTol = 1e-8

// eigsPicture: the spectrum (multiplicities marked) and the residuals.
func eigsPicture(res eigsResult) (picture, error) {
	spec, err := figures.Spectrum(fmt.Sprintf("%d smallest eigenvalues of L_%s", res.K, res.Laplacian), res.Eigenvalues, multiplicityTol)
	if err != nil {
		return picture{}, err
	}
	resid, err := figures.Residuals(fmt.Sprintf("residuals (tolerance %.2g)", res.Tol), res.Residuals)
	if err != nil {
		return picture{}, err
	}
	t := htmlreport.Table{Caption: "eigenpairs", Header: []string{"index", "eigenvalue", "residual"}}
	for i, v := range res.Eigenvalues {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), strconv.FormatFloat(v, 'f', 12, 64), strconv.FormatFloat(res.Residuals[i], 'g', 3, 64)})
	}
	return picture{panels: []*plot.Plot{spec, resid}, caption: "spectrum of " + res.Data, tables: []htmlreport.Table{t}}, nil
}

// stkrFigure is what the stkr figure needs of the first selection: the
// accuracy of every candidate (η outer, β, then the iteration counts), the
// chosen one and its transform.
type stkrFigure struct {
	accuracy  []float64
	best      int
	transform stkr.Transform
	what      string
}

func newSTKRFigure(c stkreval.Choice, best *stkr.Classifier, seed int) stkrFigure {
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
func stkrPicture(res stkrResult, s *stkrSetup) (picture, error) {
	f := res.fig
	pic := picture{caption: "STKR: " + res.Data}
	etas := s.etas
	if !s.isLap {
		etas = []float64{math.NaN()}
	}
	nb, nc := len(s.betas), len(s.counts)
	if len(f.accuracy) == len(etas)*nb*nc && len(f.accuracy) > 1 {
		z := make([][]float64, len(etas))
		rows := make([]string, len(etas))
		cols := make([]string, nb)
		for j, b := range s.betas {
			cols[j] = strconv.FormatFloat(b, 'g', 3, 64)
		}
		t := htmlreport.Table{Caption: "STKR selection grid: " + f.what + " (rows η, columns β)", Header: append([]string{"η \\ β"}, cols...)}
		for i, eta := range etas {
			rows[i] = strconv.FormatFloat(eta, 'g', 3, 64)
			if !s.isLap {
				rows[i] = res.Transform
			}
			z[i] = make([]float64, nb)
			row := []string{rows[i]}
			for j := range s.betas {
				best := math.NaN()
				for k := 0; k < nc; k++ {
					if a := f.accuracy[(i*nb+j)*nc+k]; !math.IsNaN(a) && !(a <= best) {
						best = a
					}
				}
				z[i][j] = best
				row = append(row, strconv.FormatFloat(best, 'f', 4, 64))
			}
			t.Rows = append(t.Rows, row)
		}
		rowLabel := "η"
		if !s.isLap {
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

// knnPicture: the distribution of the distance to the K-th neighbour, the
// 10 %, 50 % and 90 % quantiles of the distance against neighbour rank and,
// with --compare, recall against time of the exact search and NN-descent.
func knnPicture(nb *knngraph.Neighbors, res knnResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("K-nearest neighbours: %s, K = %d, %s", res.Images, res.K, res.Method)}
	if len(res.Compare) == 0 {
		pic.notes = append(pic.notes, "no recall-against-time panel: give --compare to time the exact search and NN-descent")
	}
	kth := make([]float64, nb.N)
	for i := range kth {
		_, d := nb.Row(i)
		kth[i] = math.Sqrt(d[nb.K-1])
	}
	h, err := figures.Histogram(fmt.Sprintf("distance to the %d-th neighbour (median %.3g)", nb.K, res.MedianKth), "Euclidean distance (pixels/255)", kth, 40)
	if err != nil {
		return pic, err
	}
	ranks := make([]float64, nb.K)
	q := [3][]float64{make([]float64, nb.K), make([]float64, nb.K), make([]float64, nb.K)}
	col := make([]float64, nb.N)
	t := htmlreport.Table{Caption: "distance by neighbour rank", Header: []string{"rank", "10 %", "median", "90 %"}}
	for r := 0; r < nb.K; r++ {
		ranks[r] = float64(r + 1)
		for i := range col {
			_, d := nb.Row(i)
			col[i] = math.Sqrt(d[r])
		}
		sort.Float64s(col)
		row := []string{strconv.Itoa(r + 1)}
		for k, p := range []float64{0.1, 0.5, 0.9} {
			q[k][r] = col[int(p*float64(len(col)-1))]
			row = append(row, strconv.FormatFloat(q[k][r], 'g', 4, 64))
		}
		t.Rows = append(t.Rows, row)
	}
	c, err := figures.Curves("distance against neighbour rank", "rank", "distance (pixels/255)", false, false,
		figures.Series{Name: "90 %", X: ranks, Y: q[2]}, figures.Series{Name: "median", X: ranks, Y: q[1]}, figures.Series{Name: "10 %", X: ranks, Y: q[0]})
	if err != nil {
		return pic, err
	}
	pic.panels, pic.tables = []*plot.Plot{h, c}, []htmlreport.Table{t}
	if len(res.Compare) > 0 {
		p, ct, err := knnComparePanel(res)
		if err != nil {
			return pic, err
		}
		pic.panels, pic.tables = append(pic.panels, p), append(pic.tables, ct)
	}
	return pic, nil
}

// knnComparePanel draws recall against time of the --compare searches: the
// exact search a point at recall 1, NN-descent a curve through its
// iteration limits (each point labelled with the iterations it ran).
func knnComparePanel(res knnResult) (*plot.Plot, htmlreport.Table, error) {
	t := htmlreport.Table{Caption: "recall against time (--compare)", Header: []string{"search", "iterations run", "seconds", fmt.Sprintf("recall@%d", res.K)}}
	var ex, nd figures.Series
	ex.Name, nd.Name = "exact", "NN-descent (label: iterations)"
	var all []float64
	for _, c := range res.Compare {
		ran := "–"
		if c.Method == "exact" {
			ex.X, ex.Y = append(ex.X, c.Seconds), append(ex.Y, c.Recall)
		} else {
			nd.X, nd.Y = append(nd.X, c.Seconds), append(nd.Y, c.Recall)
			nd.Labels = append(nd.Labels, strconv.Itoa(c.Ran))
			ran = strconv.Itoa(c.Ran)
		}
		all = append(all, c.Seconds)
		t.Rows = append(t.Rows, []string{c.label(), ran, strconv.FormatFloat(c.Seconds, 'f', 3, 64), strconv.FormatFloat(c.Recall, 'f', 4, 64)})
	}
	p, err := figures.Curves(fmt.Sprintf("recall@%d against time (%d points)", res.K, res.Nodes), "seconds", fmt.Sprintf("recall@%d against the exact graph", res.K),
		spansDecade(all), false, nd, ex)
	if err != nil {
		return nil, t, err
	}
	p.Legend.Top, p.Legend.Left = false, false
	return p, t, nil
}

// maxGramPanel bounds the Gram matrices drawn: a heat map of more cells
// than a screen has pixels shows nothing more.
const maxGramPanel = 2000

// graphKernelPicture: the Gram matrix with the graphs ordered by class
// (cosine-normalised for the picture when the kernel is not, so that large
// graphs do not drown the rest), and with --select-h how often each WL
// height was chosen, and with --heights the accuracy against height.
func graphKernelPicture(gram *mat.SymDense, labels []int, res graphKernelResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("graph kernel %s on %s", res.Kernel, res.Dataset)}
	n := gram.SymmetricDim()
	if n > maxGramPanel {
		pic.notes = append(pic.notes, fmt.Sprintf("no Gram matrix panel: %d graphs is more than %d", n, maxGramPanel))
	} else {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return labels[order[a]] < labels[order[b]] })
		var bounds []int
		for k := 1; k < n; k++ {
			if labels[order[k]] != labels[order[k-1]] {
				bounds = append(bounds, k)
			}
		}
		m := make([]float64, n*n)
		for a, i := range order {
			for b, j := range order {
				v := gram.At(i, j)
				if !res.Normalize {
					if d := math.Sqrt(gram.At(i, i) * gram.At(j, j)); d > 0 {
						v /= d
					} else {
						v = math.NaN()
					}
				}
				m[a*n+b] = v
			}
		}
		title := "Gram matrix, graphs ordered by class"
		if !res.Normalize {
			title += " (cosine-normalised)"
		}
		p, err := figures.Matrix(title, n, m, bounds)
		if err != nil {
			return pic, err
		}
		p.X.Label.Text, p.Y.Label.Text = "graph (by class)", "graph (by class)"
		pic.panels = append(pic.panels, p)
		pic.tables = append(pic.tables, classMeanTable(m, n, order, bounds, labels))
	}
	if len(res.HChosen) > 0 {
		names := make([]string, len(res.HChosen))
		vals := make([]float64, len(res.HChosen))
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

// classMeanTable is the mean of the drawn n×n matrix m (rows and columns in
// order, classes starting at bounds) over each pair of classes, NaN left
// out.
func classMeanTable(m []float64, n int, order, bounds, labels []int) htmlreport.Table {
	t := htmlreport.Table{Caption: "mean kernel value between classes (as drawn)", Header: []string{"class"}}
	starts := append(append([]int{0}, bounds...), n)
	for c := 0; c+1 < len(starts); c++ {
		t.Header = append(t.Header, strconv.Itoa(labels[order[starts[c]]]))
	}
	for c := 0; c+1 < len(starts); c++ {
		row := []string{strconv.Itoa(labels[order[starts[c]]])}
		for d := 0; d+1 < len(starts); d++ {
			s, cnt := 0.0, 0
			for a := starts[c]; a < starts[c+1]; a++ {
				for b := starts[d]; b < starts[d+1]; b++ {
					if v := m[a*n+b]; !math.IsNaN(v) {
						s, cnt = s+v, cnt+1
					}
				}
			}
			row = append(row, strconv.FormatFloat(s/float64(max(cnt, 1)), 'f', 4, 64))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// embeddingPanels draws the 2-D coordinates (x, y) of nodes (indices into
// ds) coloured by cluster (when clusters is not nil, indexed like nodes)
// and by class when ds has labels.
func embeddingPanels(title string, ds *loaders.NodeDataset, x, y []float64, nodes []int, clusters []int) ([]*plot.Plot, error) {
	var panels []*plot.Plot
	if clusters != nil {
		p, err := figures.Embedding(title+" by cluster", x, y, clusters, nil, nil)
		if err != nil {
			return nil, err
		}
		panels = append(panels, p)
	}
	if ds.Classes > 0 {
		cls := make([]int, len(nodes))
		names := make([]string, ds.Classes)
		for c := range names {
			names[c] = className(ds, c)
		}
		for k, i := range nodes {
			cls[k] = -1
			if i < len(ds.Labels) {
				cls[k] = ds.Labels[i]
			}
		}
		p, err := figures.Embedding(title+" by class", x, y, cls, names, nil)
		if err != nil {
			return nil, err
		}
		panels = append(panels, p)
	}
	return panels, nil
}

// clusterPicture: the Laplacian eigenmap of the clustered graph's largest
// component coloured by cluster and, with labels, by class; the cluster
// sizes and, with labels, the clusters against the classes.
func clusterPicture(ctx context.Context, ds *loaders.NodeDataset, clusters []int, res clusterResult, seed uint64) (picture, error) {
	pic := picture{caption: fmt.Sprintf("spectral clustering of %s into %d clusters", res.Data, res.Clusters)}
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil {
		return pic, err
	}
	if note != "" {
		pic.notes = append(pic.notes, note)
	} else {
		cl := make([]int, len(nodes))
		for k, i := range nodes {
			cl[k] = clusters[i]
		}
		if pic.panels, err = embeddingPanels(fmt.Sprintf("Laplacian eigenmap (largest component, %d nodes)", len(nodes)), ds, x, y, nodes, cl); err != nil {
			return pic, err
		}
	}
	if ds.Classes > 0 {
		t := htmlreport.Table{Caption: "clusters (rows) against classes (columns), labelled nodes", Header: []string{"cluster \\ class"}}
		for c := 0; c < ds.Classes; c++ {
			t.Header = append(t.Header, className(ds, c))
		}
		counts := make([][]int, res.Clusters)
		for k := range counts {
			counts[k] = make([]int, ds.Classes)
		}
		for i, l := range ds.Labels {
			if l >= 0 && l < ds.Classes && clusters[i] >= 0 && clusters[i] < res.Clusters {
				counts[clusters[i]][l]++
			}
		}
		for k, row := range counts {
			r := []string{strconv.Itoa(k)}
			for _, v := range row {
				r = append(r, strconv.Itoa(v))
			}
			t.Rows = append(t.Rows, r)
		}
		pic.tables = append(pic.tables, t)
	}
	return pic, nil
}

// embedPicture: the command's own embedding (the first two coordinates, or
// the first against the node index for --dim 1) coloured by class.
func embedPicture(ds *loaders.NodeDataset, c *mat.Dense, title string) (picture, error) {
	n, d := c.Dims()
	x := mat.Col(nil, 0, c)
	var y []float64
	if d >= 2 {
		y = mat.Col(nil, 1, c)
	}
	nodes := make([]int, n)
	for i := range nodes {
		nodes[i] = i
	}
	cls := make([]int, n)
	for i := range cls {
		cls[i] = -1
		if i < len(ds.Labels) {
			cls[i] = ds.Labels[i]
		}
	}
	names := make([]string, ds.Classes)
	for k := range names {
		names[k] = className(ds, k)
	}
	p, err := figures.Embedding("Laplacian eigenmap: "+filepath.Base(title), x, y, cls, names, nil)
	if err != nil {
		return picture{}, err
	}
	return picture{panels: []*plot.Plot{p}, caption: "Laplacian eigenmap of " + title}, nil
}

// gpPicture: the test predictions against their targets with the ±2σ band
// of a new observation, in the targets' units (the points with a known
// target only).
func gpPicture(run *protocol.GPRun, res gpResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("GP (%s) on %s: test predictions against targets", res.Covariance, res.Data)}
	if math.IsNaN(run.RMSE) {
		pic.notes = append(pic.notes, "no prediction panel: "+run.Reason)
		return pic, nil
	}
	b := figures.Band{Name: "GP, " + res.Covariance}
	for _, p := range run.Predictions {
		if p.Set == "test-features" {
			b.Truth, b.Mean, b.SD = append(b.Truth, p.Target), append(b.Mean, p.Mean), append(b.SD, math.Sqrt(p.Observation))
		}
	}
	if len(b.Truth) == 0 {
		pic.notes = append(pic.notes, "no prediction panel: no test point")
		return pic, nil
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("GP on %s: RMSE %s", filepath.Base(res.Data), fmtAny(res.RMSE)), "true target", "predicted (±2σ)", b)
	if err != nil {
		return pic, err
	}
	pic.panels = []*plot.Plot{pl}
	return pic, nil
}
