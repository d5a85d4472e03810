package main

import (
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
	"github.com/gssl/gssl/protocol"
)

func graphKernelPicture(sr *protocol.GraphKernelStudyResult, labels []int, res graphKernelResult) (picture, error) {
	return pictures.GraphKernel(sr, labels, res.GraphKernelReport, res.Dataset)
}

func (r graphKernelResult) runFacts() (string, []htmlreport.Timing) {
	seeds := ""
	if r.Repeats > 0 {
		seeds = fmt.Sprintf("seeds %d..%d (one per repetition; the inner folds of --save use seed %d)", r.Seed, r.Seed+uint64(r.Repeats)-1, r.Seed)
	}
	return seeds, timings("cv_seconds gram_seconds load_seconds", r.CVSeconds, r.GramSeconds, r.LoadSeconds)
}
