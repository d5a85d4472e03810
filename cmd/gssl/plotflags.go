package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

// plotFlags are --plot FILE and --report DIR of the commands that draw
// their result: one image of all the command's panels (package figures), and
// a self-contained HTML page of the run (package htmlreport).
type plotFlags struct {
	Plot   string `flag:"plot"`   // image file: .png, .svg or .pdf
	Report string `flag:"report"` // folder of index.html
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

// runFacter is a command's result that states the seeds and timings of
// its run for the report; each command's figure file implements it on the
// command's result type, so that the report reads typed fields rather
// than guessing from the names of JSON keys.
type runFacter interface {
	runFacts() (seeds string, timings []htmlreport.Timing)
}

// runFacts returns what res states about its run; a result without seeds
// ran deterministically.
func runFacts(res any) (string, []htmlreport.Timing) {
	var seeds string
	var timings []htmlreport.Timing
	if f, ok := res.(runFacter); ok {
		seeds, timings = f.runFacts()
	}
	if seeds == "" {
		seeds = "none (the run is deterministic)"
	}
	return seeds, timings
}

// timing is one row of a report's timings.
func timing(name string, seconds float64) htmlreport.Timing {
	return htmlreport.Timing{Name: name, Seconds: seconds}
}

// maxEmbedNodes bounds the graphs whose Laplacian eigenmap a figure
// computes: beyond it the Lanczos run would cost more than the command, and
// a scatter of more points is a blot.
const maxEmbedNodes = 50000

// eigenmap2D returns the 2-D Laplacian eigenmap of the largest connected
// component of ds (spectral.ComponentEigenmap: its coordinates and the
// component's nodes in ds), or a note saying why there is none.
func eigenmap2D(ctx context.Context, ds *loaders.NodeDataset, seed uint64) (x, y []float64, nodes []int, note string, err error) {
	if n := ds.Graph.Nodes(); n > maxEmbedNodes {
		return nil, nil, nil, fmt.Sprintf("no embedding panel: %d nodes is more than %d", n, maxEmbedNodes), nil
	}
	c, nodes, err := spectral.ComponentEigenmap(ctx, ds.Graph, &spectral.LaplacianEigenmap{Dim: 2, Eigen: spectral.Settings{Seed: seed}})
	if errors.Is(err, spectral.ErrComponentTooSmall) {
		return nil, nil, nil, "no embedding panel: the largest component has fewer than 4 nodes", nil
	}
	if err != nil {
		return nil, nil, nil, "", fmt.Errorf("the Laplacian eigenmap of the figure: %w", err)
	}
	return mat.Col(nil, 0, c), mat.Col(nil, 1, c), nodes, "", nil
}

// confusionPanels returns the confusion matrix and per-class accuracy
// panels of pred against truth on the nodes idx, with their tables.
func confusionPanels(pred, truth []int, idx []int, classes int, names []string) ([]*plot.Plot, []htmlreport.Table, error) {
	counts, err := eval.Confusion(pred, truth, idx, classes)
	if err != nil {
		return nil, nil, err
	}
	correct, total := make([]int, classes), make([]int, classes)
	for c, row := range counts {
		for _, v := range row {
			total[c] += v
		}
		correct[c] = row[c]
	}
	conf, err := figures.Confusion(counts, names)
	if err != nil {
		return nil, nil, err
	}
	acc, err := figures.ClassAccuracy(correct, total, names)
	if err != nil {
		return nil, nil, err
	}
	ct := htmlreport.CountTable("confusion matrix (rows: true class, columns: predicted)", "true \\ predicted", names, names, counts)
	pt := htmlreport.Table{Caption: "accuracy per class", Header: []string{"class", "nodes", "correct", "accuracy"}}
	for c := range counts {
		a := "–"
		if total[c] > 0 {
			a = strconv.FormatFloat(float64(correct[c])/float64(total[c]), 'f', 4, 64)
		}
		pt.Rows = append(pt.Rows, []string{names[c], strconv.Itoa(total[c]), strconv.Itoa(correct[c]), a})
	}
	return []*plot.Plot{conf, acc}, []htmlreport.Table{pt, ct}, nil
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
