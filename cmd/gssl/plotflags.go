package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

// plotFlags are --plot FILE (one image of the command's panels, package
// figures) and --report DIR (an HTML page of the run, package htmlreport).
// What --plot draws is said in the command's help file.
type plotFlags struct {
	Plot   string `flag:"plot"`
	Report string `flag:"report"`
	start  time.Time
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
	if p.Report == "" {
		return nil
	}
	if st, err := os.Stat(p.Report); err == nil && !st.IsDir() {
		return fmt.Errorf("--report %s is a file; give a folder (index.html is written into it)", p.Report)
	}
	if parent := filepath.Dir(filepath.Clean(p.Report)); !isDir(parent) {
		return fmt.Errorf("--report %s: the folder %s does not exist", p.Report, parent)
	}
	return nil
}

// picture is what a command draws: the panels of its figure (cols per
// row, 0: two), and the tables and notes its report adds to the result.
type picture struct {
	panels  []*plot.Plot
	cols    int
	caption string
	tables  []htmlreport.Table
	notes   []string
}

// write draws the picture when --plot or --report asks for it: the figure
// to --plot, and to --report/index.html the page with the figure, the
// picture's tables and every field of res (the command's JSON object).
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
	switch {
	case p.Plot != "" && len(pic.panels) == 0:
		return fmt.Errorf("%s: --plot %s: this run has nothing to draw", command, p.Plot)
	case p.Plot != "":
		if err := fig.Save(p.Plot); err != nil {
			return fmt.Errorf("%s: --plot %w", command, err)
		}
	}
	if p.Report == "" {
		return nil
	}
	rep := &htmlreport.Report{Title: "gssl " + command, Command: commandLine(), Started: p.start, Notes: pic.notes}
	rep.Seeds, rep.Timings = runFacts(res)
	if p.start.IsZero() { // a command that did not call check
		p.start = processStart
	}
	rep.Started = p.start
	rep.Timings = append(rep.Timings, timing("wall clock, run and figure", seconds(p.start)))
	fields, err := htmlreport.FieldsTable("result (the fields of --json)", res)
	if err == nil && len(pic.panels) > 0 {
		var png []byte
		png, err = fig.Encode(figures.PNG)
		rep.Figures = append(rep.Figures, htmlreport.Figure{Caption: pic.caption, PNG: png})
	}
	if err != nil {
		return fmt.Errorf("%s: --report: %w", command, err)
	}
	rep.Tables = append(pic.tables, fields)
	if err := rep.Write(p.Report); err != nil {
		return fmt.Errorf("%s: --report %s: %w", command, p.Report, err)
	}
	return nil
}

// processStart is when the process started, the clock of a report whose
// command did not start its own.
var processStart = time.Now()

// commandLine is the command line a report shows (tests set their own).
var commandLine = func() []string { return os.Args }

// runFacter is a command's result that states the seeds and timings of
// its run for the report (each command's figure file implements it).
type runFacter interface {
	runFacts() (seeds string, timings []htmlreport.Timing)
}

// runFacts returns what res states about its run; a result without seeds
// ran deterministically.
func runFacts(res any) (seeds string, timings []htmlreport.Timing) {
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

// maxEmbedNodes bounds the graphs whose eigenmap a figure computes: beyond
// it the Lanczos run costs more than the command, and the scatter is a blot.
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
	} else if err != nil {
		return nil, nil, nil, "", fmt.Errorf("the Laplacian eigenmap of the figure: %w", err)
	}
	return mat.Col(nil, 0, c), mat.Col(nil, 1, c), nodes, "", nil
}

// predictionPicture adds to pic the panels of a node classifier's
// predictions pred: the confusion matrix and per-class accuracy on the test
// nodes, and the eigenmap by predicted class with the wrong test nodes ringed.
func predictionPicture(ctx context.Context, pic picture, ds *loaders.NodeDataset, pred, test []int, names []string, seed uint64) (picture, error) {
	if len(test) == 0 {
		pic.notes = append(pic.notes, "no confusion matrix: the run has no test nodes (give a split, e.g. --split random:20)")
	} else {
		counts, err := eval.Confusion(pred, ds.Labels, test, ds.Classes)
		if err == nil {
			pic.panels, err = figures.ConfusionPanels(counts, names)
		}
		if err != nil {
			return pic, err
		}
		pic.tables = htmlreport.ConfusionTables(counts, names)
	}
	wrongAt := map[int]bool{}
	for _, i := range test {
		if pred[i] != ds.Labels[i] {
			wrongAt[i] = true
		}
	}
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil || note != "" {
		if note != "" {
			pic.notes = append(pic.notes, note)
		}
		return pic, err
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
	pic.panels = append(pic.panels, emb)
	return pic, err
}
