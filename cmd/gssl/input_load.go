package main

import (
	"context"
	"errors"
	"strings"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

// loadNodes reads the folder or the tables named by in.
func loadNodes(ctx context.Context, in *nodeInput) (*loaders.NodeDataset, error) {
	if in.Data != "" {
		return loaders.LoadNodeDataset(in.Data)
	}
	if in.Labels != "" || in.Features != "" || in.Targets != "" {
		return nil, errors.New("--labels/--features/--targets: not yet (the table readers are landing in loaders.LoadNodes)")
	}
	var g *graph.CSR
	var err error
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(in.Edges), ".gz"), ".mtx") {
		g, err = loaders.ReadMatrixMarket(in.Edges, graph.Options{SelfLoops: graph.SelfLoopDrop})
	} else {
		g, err = loaders.ReadEdgeList(in.Edges, in.Nodes, loaders.NodeGraphOptions())
	}
	if err != nil {
		return nil, err
	}
	labels := make([]int, g.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	return &loaders.NodeDataset{Name: in.Edges, Graph: g, Labels: labels}, nil
}
