package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
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

// runFacts: the seeds and timings of the run, for --report.
func (r clusterResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("load_seconds", r.LoadSeconds),
		timing("seconds", r.Seconds),
	}
}
