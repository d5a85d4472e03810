package main

import (
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

func printCluster(w io.Writer, res clusterResult) {
	fmt.Fprintf(w, "%s: %d nodes, %d components, %d classes; %d nodes used (largest component: %v)\n", res.Data, res.Nodes, res.Components, res.Classes, res.Used, res.LCC)
	fmt.Fprintf(w, "spectral clustering into %d clusters, sizes %v\n", res.Clusters, res.Sizes)
	if res.ARI != nil {
		fmt.Fprintf(w, "adjusted Rand index %.4f (%d labelled nodes)\n", res.ARI, res.Scored)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if res.Out != "" {
		fmt.Fprintf(w, "clusters written to %s\n", res.Out)
	}
	fmt.Fprintf(w, "%.3f s (load %.3f s)\n", res.Seconds, res.LoadSeconds)
}

// componentView returns ds itself, or with lcc its largest connected
// component (the first on ties) and the original node of each of its nodes.
func componentView(ds *loaders.NodeDataset, lcc bool) (*loaders.NodeDataset, []int, error) {
	if !lcc {
		return ds, nil, nil
	}
	sub, err := ds.Graph.LargestComponent()
	if err != nil {
		return nil, nil, err
	}
	return restrictDataset(ds, sub), sub.Original, nil
}

// writeClusters writes one row per node of ds: its id and its cluster
// (empty for a node outside the clustered component; orig maps the
// clustered nodes to ds's, nil for all).
func writeClusters(path string, ds *loaders.NodeDataset, labels []int, orig []int) error {
	return writeVectors(path, ds, &mat.Dense{}, "", orig, column{name: "cluster", value: func(node, row int) any {
		if orig == nil {
			return labels[node]
		}
		if row < 0 {
			return nil
		}
		return labels[row]
	}})
}
