package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/spectral"
)

// eigsOptions are the flags of gssl eigs (help/eigs.md).
type eigsOptions struct {
	In    nodeInput
	Spec  eigsSpecFlags
	Seed  uint64 `flag:"seed"`
	Out   string `flag:"out"`
	Plots plotFlags
	JSON  bool
}

// eigsSpecFlags are the eigensolver's flags (spectral.EigsSpec).
type eigsSpecFlags = spectral.EigsSpec

func newEigsCommand(g *globals) *cobra.Command {
	opts := eigsOptions{In: newNodeInput(), Spec: eigsSpecFlags{Eigenpairs: 10, Laplacian: "sym", Method: "auto", Isolated: "component"}}
	cmd := newCommand("eigs", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runEigs(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	return cmd
}

// eigsResult is the JSON object of gssl eigs.
type eigsResult struct {
	Data       string  `json:"data"`
	Nodes      int     `json:"nodes"`
	Edges      int     `json:"edges"`
	Components int     `json:"components"`
	Isolated   int     `json:"isolated"`
	Laplacian  string  `json:"laplacian"`
	K          int     `json:"eigenpairs"`
	Tol        float64 `json:"tol"`
	spectral.Summary
	Seconds     float64 `json:"seconds"`
	LoadSeconds float64 `json:"load_seconds"`
	PeakRSSMB   any     `json:"peak_rss_mb"`
	Out         string  `json:"out,omitempty"`
}

func runEigs(ctx context.Context, opts eigsOptions, stdout, stderr io.Writer) error {
	spec := opts.Spec
	kind, lopts, settings, err := spec.Parse()
	if err = firstError(fieldFlagError(err, &opts.Spec), checkOutPath("out", opts.Out), opts.Plots.check()); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	loadStart := timeNow()
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	defer ds.Close()
	g := ds.Graph
	if err := opts.checkBasis(spec, g.Nodes()); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	res := eigsResult{Data: opts.In.source(), Nodes: g.Nodes(), Edges: g.Edges(), Isolated: len(g.Isolated()), Laplacian: opts.Spec.Laplacian, K: opts.Spec.Eigenpairs,
		Tol: cmp.Or(opts.Spec.Tol, spectral.DefaultTol), LoadSeconds: seconds(loadStart)}
	_, res.Components = g.Components()
	logf(stderr, "eigs: %s: %d nodes, %d edges, %d components; %d smallest eigenpairs of L_%s", res.Data, res.Nodes, res.Edges, res.Components, opts.Spec.Eigenpairs, opts.Spec.Laplacian)
	bar := newSteps(stderr, opts.Spec.Eigenpairs, "eigs")
	settings.Seed, settings.Progress = opts.Seed, lanczosProgress(bar)
	resetPeakRSS()
	start := timeNow()
	r, err := spectral.LaplacianEigs(ctx, g, kind, lopts, opts.Spec.Eigenpairs, settings)
	res.Seconds, res.PeakRSSMB = seconds(start), peakRSSMB()
	bar.Finish()
	if err != nil {
		return fmt.Errorf("eigs: %w", flagError(err))
	}
	if res.Summary, err = spectral.Summarize(r, kind, g); err != nil {
		return fmt.Errorf("eigs: %w; check the edge weights (%s)", err, magnitudeHint)
	}
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, ds, r.Vectors, "v", nil) }); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	if err := opts.Plots.write(stderr, "eigs", res, func() (picture, error) { return eigsPicture(res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "eigs", res)
}

// lanczosProgress shows a Lanczos solve's converged eigenpairs (of the
// component being solved) as they lock: a bar on a terminal, a line each
// otherwise.
func lanczosProgress(st *steps) func(spectral.Status) {
	return func(s spectral.Status) {
		st.bar.Describe(fmt.Sprintf("restart %d, %d products", s.Restarts, s.MatVecs))
		st.to(s.Converged, max(s.Wanted, 1), "Lanczos: %d of %d eigenpairs converged (%d products so far)", s.Converged, s.Wanted, s.MatVecs)
	}
}

// checkBasis refuses an --eigenpairs, --basis or --block beyond the graph
// (spectral.EigsSpec.ValidateFor), and a Krylov basis whose dense vectors
// pass --max-memory, before anything is allocated.
func (opts eigsOptions) checkBasis(spec spectral.EigsSpec, n int) error {
	if err := spec.ValidateFor(n); err != nil {
		return fieldFlagError(err, &opts.Spec)
	}
	limit, err := parseBytes("max-memory", opts.In.MaxMemory)
	if err != nil {
		return err
	}
	vectors := spec.BasisVectors()
	return checkMemory(8*int64(n)*vectors, limit, fmt.Sprintf("%d basis vectors × %d nodes", vectors, n), "give a smaller --basis or --eigenpairs")
}
