package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
)

// plotFlags are --plot FILE (one image of the command's panels, package
// figures) and --report DIR (an HTML page of the run, package htmlreport).
// What --plot draws is said in the command's help file.
type plotFlags struct {
	Plot   string `flag:"plot"`
	Report string `flag:"report"`
	start  time.Time
}

// picture is what a command draws (package pictures).
type picture = pictures.Picture

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
	if err := htmlreport.CheckDir(p.Report); err != nil {
		return fmt.Errorf("--report %w", err)
	}
	return nil
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
	for _, n := range pic.Notes {
		logf(stderr, "%s: figure: %s", command, n)
	}
	switch {
	case p.Plot != "" && len(pic.Panels) == 0:
		return fmt.Errorf("%s: --plot %s: this run has nothing to draw", command, p.Plot)
	case p.Plot != "":
		if err := pic.Figure().Save(p.Plot); err != nil {
			return fmt.Errorf("%s: --plot %w", command, err)
		}
	}
	if p.Report == "" {
		return nil
	}
	if p.start.IsZero() { // a command that did not call check
		p.start = processStart
	}
	rep := &htmlreport.Report{Title: "gssl " + command, Command: commandLine(), Started: p.start}
	rep.Seeds, rep.Timings = runFacts(res)
	rep.Timings = append(rep.Timings, htmlreport.Timing{Name: "wall clock, run and figure", Seconds: seconds(p.start)})
	if err := pic.AddTo(rep, "result (the fields of --json)", res); err != nil {
		return fmt.Errorf("%s: --report: %w", command, err)
	}
	if err := rep.Write(p.Report); err != nil {
		return fmt.Errorf("%s: --report %s: %w", command, p.Report, err)
	}
	return nil
}

// savePanels saves the panels draw returns to path, each w × h.
func savePanels(path string, draw func() (picture, error), w, h vg.Length) error {
	pic, err := draw()
	if err != nil {
		return fmt.Errorf("drawing the plot: %w", err)
	}
	fig := pic.Figure()
	fig.PanelWidth, fig.PanelHeight = w, h
	if err := fig.Save(path); err != nil {
		return fmt.Errorf("writing the plot: %w", err)
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

// timings are the rows of a report's timings: the i-th of the
// space-separated names with secs[i].
func timings(names string, secs ...float64) []htmlreport.Timing {
	f := strings.Fields(names)
	t := make([]htmlreport.Timing, min(len(f), len(secs)))
	for i := range t {
		t[i] = htmlreport.Timing{Name: f[i], Seconds: secs[i]}
	}
	return t
}
