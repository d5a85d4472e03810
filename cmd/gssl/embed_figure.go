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
	cls := make([]int, n)
	for i := range cls {
		cls[i] = labelOf(ds, i)
	}
	p, err := figures.Embedding("Laplacian eigenmap: "+filepath.Base(title), x, y, cls, classNames(ds), nil)
	if err != nil {
		return picture{}, err
	}
	return picture{panels: []*plot.Plot{p}, caption: "Laplacian eigenmap of " + title}, nil
}

func (r embedResult) runFacts() (string, []htmlreport.Timing) {
	return runTimes(r.LoadSeconds, r.Seconds)
}
