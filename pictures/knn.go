package pictures

import (
	"fmt"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/knngraph"
)

// KNN draws the K-nearest-neighbour lists nb of the points named data,
// found by method: the distribution of the distance to the K-th neighbour
// (whose median is medianKth), the 10 %, 50 % and 90 % quantiles of the
// distance against the neighbour rank and, given a comparison, recall
// against time of the exact search and NN-descent.
func KNN(nb *knngraph.Neighbors, data, method string, medianKth float64, compare []knngraph.Compared) (Picture, error) {
	pic := Picture{Caption: fmt.Sprintf("K-nearest neighbours: %s, K = %d, %s", data, nb.K, method)}
	if len(compare) == 0 {
		pic.note("no recall-against-time panel: give --compare to time the exact search and NN-descent")
	}
	kth, err := nb.RankDistances(nb.K)
	if err != nil {
		return pic, err
	}
	h, err := figures.Histogram(fmt.Sprintf("distance to the %d-th neighbour (median %.3g)", nb.K, medianKth), "Euclidean distance (pixels/255)", kth, 40)
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
		t.Rows = append(t.Rows, []string{strconv.Itoa(r + 1), g4(q[0][r]), g4(q[1][r]), g4(q[2][r])})
	}
	c, err := figures.Curves("distance against neighbour rank", "rank", "distance (pixels/255)", false, false,
		figures.Series{Name: "90 %", X: ranks, Y: q[2]}, figures.Series{Name: "median", X: ranks, Y: q[1]}, figures.Series{Name: "10 %", X: ranks, Y: q[0]})
	if err != nil {
		return pic, err
	}
	pic.Panels, pic.Tables = []*figures.Plot{h, c}, []htmlreport.Table{t}
	if len(compare) == 0 {
		return pic, nil
	}
	p, err := recallPanel(compare, nb.K, nb.N, &pic)
	pic.Panels = append(pic.Panels, p)
	return pic, err
}

// recallPanel draws recall against time of a comparison of searches for K
// neighbours of n points, and adds its table to pic: the exact search is a
// point at recall 1, NN-descent a curve through its iteration limits (each
// point labelled with the iterations it ran).
func recallPanel(compare []knngraph.Compared, k, n int, pic *Picture) (*figures.Plot, error) {
	t := htmlreport.Table{Caption: "recall against time (--compare)", Header: []string{"search", "iterations run", "seconds", fmt.Sprintf("recall@%d", k)}}
	ex, nd := figures.Series{Name: "exact"}, figures.Series{Name: "NN-descent (label: iterations)"}
	var all []float64
	for _, c := range compare {
		ran := "–"
		if c.Method == "exact" {
			ex.X, ex.Y = append(ex.X, c.Seconds), append(ex.Y, c.Recall)
		} else {
			ran = strconv.Itoa(c.Ran)
			nd.X, nd.Y, nd.Labels = append(nd.X, c.Seconds), append(nd.Y, c.Recall), append(nd.Labels, ran)
		}
		all = append(all, c.Seconds)
		t.Rows = append(t.Rows, []string{c.Label(), ran, strconv.FormatFloat(c.Seconds, 'f', 3, 64), strconv.FormatFloat(c.Recall, 'f', 4, 64)})
	}
	pic.Tables = append(pic.Tables, t)
	p, err := figures.Curves(fmt.Sprintf("recall@%d against time (%d points)", k, n), "seconds", fmt.Sprintf("recall@%d against the exact graph", k),
		spansFactor(all, 10), false, nd, ex)
	if err != nil {
		return nil, err
	}
	p.Legend.Top, p.Legend.Left = false, false
	return p, nil
}

func g4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
