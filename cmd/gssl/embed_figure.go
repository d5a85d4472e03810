package main

import (
	"path/filepath"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
)

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

// runFacts: the seeds and timings of the run, for --report.
func (r embedResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("load_seconds", r.LoadSeconds),
		timing("seconds", r.Seconds),
	}
}
