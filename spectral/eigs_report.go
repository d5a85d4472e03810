package spectral

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/procstat"
	"github.com/gssl/gssl/memlimit"
)

// EigsReport is a measured solve of an EigsSpec on a graph (Report, then
// Solve): the JSON object of gssl eigs.
type EigsReport struct {
	Data       string  `json:"data"`
	Nodes      int     `json:"nodes"`
	Edges      int     `json:"edges"`
	Components int     `json:"components"`
	Isolated   int     `json:"isolated"`
	Laplacian  string  `json:"laplacian"`
	K          int     `json:"eigenpairs"`
	Tol        float64 `json:"tol"`
	Summary
	Seconds     float64 `json:"seconds"`
	LoadSeconds float64 `json:"load_seconds"`
	PeakRSSMB   any     `json:"peak_rss_mb"`
	Out         string  `json:"out,omitempty"`
}

// Report checks s against the graph g (ValidateFor) and its Krylov basis
// (BasisVectors dense vectors) against budget, before anything is
// allocated, and describes the solve of g, named data, to come.
func (s EigsSpec) Report(data string, g *graph.CSR, budget memlimit.Budget) (*EigsReport, error) {
	n := g.Nodes()
	if err := s.ValidateFor(n); err != nil {
		return nil, err
	}
	vectors := s.BasisVectors()
	if err := budget.Check(8*int64(n)*vectors, fmt.Sprintf("%d basis vectors × %d nodes", vectors, n), "give a smaller --basis or --eigenpairs"); err != nil {
		return nil, err
	}
	rep := &EigsReport{Data: data, Nodes: n, Edges: g.Edges(), Isolated: len(g.Isolated()), Laplacian: s.Laplacian, K: s.Eigenpairs, Tol: cmp.Or(s.Tol, DefaultTol)}
	_, rep.Components = g.Components()
	return rep, nil
}

// Solve computes the eigenpairs of g that s describes (LaplacianEigs,
// seeded by seed, progress observing it), timed with the process's peak
// memory, and summarises them in rep. An error with a result is the
// summary's (Summarize: edge weights too large to sum).
func (s EigsSpec) Solve(ctx context.Context, g *graph.CSR, seed uint64, progress func(Status), rep *EigsReport) (*Result, error) {
	kind, lopts, settings, err := s.Parse()
	if err != nil {
		return nil, err
	}
	settings.Seed, settings.Progress = seed, progress
	procstat.ResetPeakRSS()
	start := time.Now()
	r, err := LaplacianEigs(ctx, g, kind, lopts, s.Eigenpairs, settings)
	rep.Seconds, rep.PeakRSSMB = time.Since(start).Seconds(), procstat.PeakRSSMB()
	if err != nil {
		return nil, err
	}
	rep.Summary, err = Summarize(r, kind, g)
	return r, err
}
