package main

import (
	"fmt"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"gonum.org/v1/plot"
)

// multiplicityTol is the relative gap under which two computed eigenvalues
// count as one of multiplicity two in the spectrum panel: the threshold eigs
// already counts zero eigenvalues with.
const multiplicityTol = 1e-8

// eigsPicture: the spectrum (multiplicities marked) and the residuals.
func eigsPicture(res eigsResult) (picture, error) {
	spec, err := figures.Spectrum(fmt.Sprintf("%d smallest eigenvalues of L_%s", res.K, res.Laplacian), res.Eigenvalues, multiplicityTol)
	if err != nil {
		return picture{}, err
	}
	resid, err := figures.Residuals(fmt.Sprintf("residuals (tolerance %.2g)", res.Tol), res.Residuals)
	if err != nil {
		return picture{}, err
	}
	t := htmlreport.Table{Caption: "eigenpairs", Header: []string{"index", "eigenvalue", "residual"}}
	for i, v := range res.Eigenvalues {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), strconv.FormatFloat(v, 'f', 12, 64), strconv.FormatFloat(res.Residuals[i], 'g', 3, 64)})
	}
	return picture{panels: []*plot.Plot{spec, resid}, caption: "spectrum of " + res.Data, tables: []htmlreport.Table{t}}, nil
}

func (r eigsResult) runFacts() (string, []htmlreport.Timing) {
	return runTimes(r.LoadSeconds, r.Seconds)
}
