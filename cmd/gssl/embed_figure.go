package main

import (
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/pictures"
	"gonum.org/v1/gonum/mat"
)

func embedPicture(ds *loaders.NodeDataset, c *mat.Dense, data string) (picture, error) {
	return pictures.Embedding(ds, c, data)
}

func (r embedResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("load_seconds seconds", r.LoadSeconds, r.Seconds)
}
