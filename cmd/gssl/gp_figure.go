package main

import (
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
	"github.com/gssl/gssl/protocol"
)

func gpPicture(run *protocol.GPRun, res gpResult) (picture, error) {
	return pictures.GP(run, res.GPReport)
}

func (r gpResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("seconds", r.Seconds)
}
