package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
)

// clusterPicture: the Laplacian eigenmap of the clustered graph's largest
// component coloured by cluster and, with labels, by class; with labels,
// the clusters against the classes.
func clusterPicture(ctx context.Context, ds *loaders.NodeDataset, clusters []int, res clusterResult, seed uint64) (picture, error) {
	pic := picture{caption: fmt.Sprintf("spectral clustering of %s into %d clusters", res.Data, res.Clusters)}
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil {
		return pic, err
	}
	names, rows := classNames(ds), make([]string, res.Clusters)
	if note != "" {
		pic.notes = append(pic.notes, note)
	} else {
		title := fmt.Sprintf("Laplacian eigenmap (largest component, %d nodes)", len(nodes))
		cl, cls := make([]int, len(nodes)), make([]int, len(nodes))
		for k, i := range nodes {
			cl[k], cls[k] = clusters[i], labelOf(ds, i)
		}
		for _, c := range []struct {
			by     string
			colour []int
			names  []string
		}{{"cluster", cl, nil}, {"class", cls, names}}[:1+min(ds.Classes, 1)] { // by class with labels only
			p, err := figures.Embedding(title+" by "+c.by, x, y, c.colour, c.names, nil)
			if err != nil {
				return pic, err
			}
			pic.panels = append(pic.panels, p)
		}
	}
	if ds.Classes > 0 {
		counts := make([][]int, res.Clusters)
		for k := range counts {
			counts[k], rows[k] = make([]int, ds.Classes), strconv.Itoa(k)
		}
		for i, l := range ds.Labels {
			if l >= 0 && l < ds.Classes && clusters[i] >= 0 && clusters[i] < res.Clusters {
				counts[clusters[i]][l]++
			}
		}
		pic.tables = append(pic.tables, htmlreport.CountTable("clusters (rows) against classes (columns), labelled nodes", "cluster \\ class", rows, names, counts))
	}
	return pic, nil
}

// classNames are the names of ds's classes.
func classNames(ds *loaders.NodeDataset) []string {
	names := make([]string, ds.Classes)
	for c := range names {
		names[c] = className(ds, c)
	}
	return names
}

// runTimes are the times of a run that computes no seeded split (eigs,
// embed, cluster), for --report.
func runTimes(load, total float64) (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{timing("load_seconds", load), timing("seconds", total)}
}

func (r clusterResult) runFacts() (string, []htmlreport.Timing) {
	return runTimes(r.LoadSeconds, r.Seconds)
}
