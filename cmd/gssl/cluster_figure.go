package main

import (
	"context"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/pictures"
)

func clusterPicture(ctx context.Context, ds *loaders.NodeDataset, clusters []int, res clusterResult, seed uint64) (picture, error) {
	return pictures.Clusters(ctx, ds, clusters, res.Clusters, res.Data, seed)
}

func (r clusterResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("load_seconds seconds", r.LoadSeconds, r.Seconds)
}
