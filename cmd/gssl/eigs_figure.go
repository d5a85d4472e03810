package main

import (
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
)

func eigsPicture(res eigsResult) (picture, error) {
	return pictures.Spectrum(res.Summary, res.K, res.Data, res.Laplacian, res.Tol)
}

func (r eigsResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("load_seconds seconds", r.LoadSeconds, r.Seconds)
}
