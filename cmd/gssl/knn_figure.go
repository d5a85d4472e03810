package main

import (
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/pictures"
)

func knnPicture(nb *knngraph.Neighbors, res knnResult) (picture, error) {
	return pictures.KNN(nb, res.Images, res.Method, res.MedianKth, res.Compare)
}

func (r knnResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("cpu_seconds graph_seconds load_seconds seconds", r.CPUSeconds, r.GraphSeconds, r.LoadSeconds, r.Seconds)
}
