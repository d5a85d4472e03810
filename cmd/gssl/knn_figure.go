package main

import (
	"fmt"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/knngraph"
	"gonum.org/v1/plot"
)

// knnPicture: the distribution of the distance to the K-th neighbour, the
// 10 %, 50 % and 90 % quantiles of the distance against neighbour rank and,
// with --compare, recall against time of the exact search and NN-descent.
func knnPicture(nb *knngraph.Neighbors, res knnResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("K-nearest neighbours: %s, K = %d, %s", res.Images, res.K, res.Method)}
	if len(res.Compare) == 0 {
		pic.notes = append(pic.notes, "no recall-against-time panel: give --compare to time the exact search and NN-descent")
	}
	kth, err := nb.RankDistances(nb.K)
	if err != nil {
		return pic, err
	}
	h, err := figures.Histogram(fmt.Sprintf("distance to the %d-th neighbour (median %.3g)", nb.K, res.MedianKth), "Euclidean distance (pixels/255)", kth, 40)
	if err != nil {
		return pic, err
	}
	q, err := nb.RankQuantiles([]float64{0.1, 0.5, 0.9})
	if err != nil {
		return pic, err
	}
	ranks := make([]float64, nb.K)
	t := htmlreport.Table{Caption: "distance by neighbour rank", Header: []string{"rank", "10 %", "median", "90 %"}}
	for r := range ranks {
		ranks[r] = float64(r + 1)
		t.Rows = append(t.Rows, []string{strconv.Itoa(r + 1), fmtG4(q[0][r]), fmtG4(q[1][r]), fmtG4(q[2][r])})
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
		t.Rows = append(t.Rows, []string{c.Label(), ran, strconv.FormatFloat(c.Seconds, 'f', 3, 64), strconv.FormatFloat(c.Recall, 'f', 4, 64)})
	}
	p, err := figures.Curves(fmt.Sprintf("recall@%d against time (%d points)", res.K, res.Nodes), "seconds", fmt.Sprintf("recall@%d against the exact graph", res.K),
		spansDecade(all), false, nd, ex)
	if err != nil {
		return nil, t, err
	}
	p.Legend.Top, p.Legend.Left = false, false
	return p, t, nil
}

func fmtG4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// runFacts: the seeds and timings of the run, for --report.
func (r knnResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("cpu_seconds", r.CPUSeconds),
		timing("graph_seconds", r.GraphSeconds),
		timing("load_seconds", r.LoadSeconds),
		timing("seconds", r.Seconds),
	}
}
