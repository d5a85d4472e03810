package main

import (
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
	return newCommand("eigs", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runEigs(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// eigsResult is the JSON object of gssl eigs.
type eigsResult struct{ spectral.EigsReport }

// runEigs solves the eigenproblem (spectral.EigsSpec.Solve) and writes,
// plots and prints the report.
func runEigs(ctx context.Context, opts eigsOptions, stdout, stderr io.Writer) error {
	_, _, _, err := opts.Spec.Parse()
	if err = firstError(fieldFlagError(err, &opts.Spec), checkOutPath("out", opts.Out), opts.Plots.check()); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	loadStart := timeNow()
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	defer ds.Close()
	b, err := budget(opts.In.MaxMemory)
	rep, rerr := opts.Spec.Report(opts.In.source(), ds.Graph, b)
	if err = firstError(err, rerr); err != nil {
		return fmt.Errorf("eigs: %w", fieldFlagError(err, &opts.Spec))
	}
	res := eigsResult{*rep}
	res.LoadSeconds = seconds(loadStart)
	logf(stderr, "eigs: %s: %d nodes, %d edges, %d components; %d smallest eigenpairs of L_%s", res.Data, res.Nodes, res.Edges, res.Components, res.K, res.Laplacian)
	bar := newSteps(stderr, res.K, "eigs")
	r, err := opts.Spec.Solve(ctx, ds.Graph, opts.Seed, lanczosProgress(bar), &res.EigsReport)
	bar.Finish()
	if err != nil && r != nil {
		return fmt.Errorf("eigs: %w; check the edge weights (%s)", err, magnitudeHint)
	} else if err != nil {
		return fmt.Errorf("eigs: %w", flagError(err))
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
		st.to(s.Converged, max(s.Wanted, 1), "%d of %d eigenpairs converged (%d products so far)", s.Converged, s.Wanted, s.MatVecs)
	}
}
