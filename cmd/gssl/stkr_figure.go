package main

import (
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
	"github.com/gssl/gssl/protocol"
)

// stkrFigure is the first selection, which the picture draws.
type stkrFigure = pictures.STKRSelection

var newSTKRFigure = pictures.NewSTKRSelection

func stkrPicture(res stkrResult, g protocol.STKRGrid) (picture, error) {
	return pictures.STKR(res.fig, g, res.Data, res.Transform)
}

func (r stkrResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seeds = %v", r.Seeds), timings("fit_seconds load_seconds seconds", r.FitSeconds, r.LoadSeconds, r.Seconds)
}
