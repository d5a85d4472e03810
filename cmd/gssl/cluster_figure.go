package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"gonum.org/v1/plot"
)

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
		names, rows := make([]string, ds.Classes), make([]string, res.Clusters)
		for k := range names {
			names[k] = className(ds, k)
		}
		counts := make([][]int, res.Clusters)
		for k := range counts {
			counts[k], rows[k] = make([]int, ds.Classes), strconv.Itoa(k)
		}
		for i, l := range ds.Labels {
			if l >= 0 && l < ds.Classes && clusters[i] >= 0 && clusters[i] < res.Clusters {
				counts[clusters[i]][l]++
			}
		}
		t := htmlreport.CountTable("clusters (rows) against classes (columns), labelled nodes", "cluster \\ class", rows, names, counts)
		pic.tables = append(pic.tables, t)
	}
	return pic, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r clusterResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("load_seconds", r.LoadSeconds),
		timing("seconds", r.Seconds),
	}
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
