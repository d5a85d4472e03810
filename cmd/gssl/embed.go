package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/spectral"
)

// embedOptions are the flags of gssl embed (help/embed.md).
type embedOptions struct {
	In       nodeInput
	Dim      int     `flag:"dim"`
	Out      string  `flag:"out"`
	Tol      float64 `flag:"tol"`
	Seed     uint64  `flag:"seed"`
	Isolated string  `flag:"isolated"`
	LCC      bool    `flag:"lcc"`
	Plots    plotFlags
	JSON     bool
}

func newEmbedCommand(g *globals) *cobra.Command {
	opts := embedOptions{In: newNodeInput(), Dim: spectral.DefaultEigenmapDim, Isolated: "component"}
	return newCommand("embed", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runEmbed(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// embedResult is the JSON object of gssl embed.
type embedResult struct {
	Data        string    `json:"data"`
	Nodes       int       `json:"nodes"`
	Components  int       `json:"components"`
	LCC         bool      `json:"lcc"`
	Used        int       `json:"nodes_used"`
	Dim         int       `json:"dim"`
	Eigenvalues []float64 `json:"eigenvalues"`
	Classes     int       `json:"classes"`
	Plot        string    `json:"plot,omitempty"`
	Out         string    `json:"out,omitempty"`
	Notes       []string  `json:"notes,omitempty"`
	Seconds     float64   `json:"seconds"`
	LoadSeconds float64   `json:"load_seconds"`
}

func runEmbed(ctx context.Context, opts embedOptions, stdout, stderr io.Writer) error {
	spec := spectral.EigenmapSpec{Dim: opts.Dim, Tol: opts.Tol, Isolated: opts.Isolated}
	if err := firstError(fieldFlagError(spec.Validate(), &opts), opts.Plots.check(), checkOutPath("out", opts.Out)); err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	v, err := loadComponentView(ctx, opts.In, opts.LCC, stderr)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer v.all.Close()
	res := embedResult{Data: v.data, Nodes: v.nodes, Components: v.components, LCC: opts.LCC, Used: v.used, Dim: opts.Dim, Plot: opts.Plots.Plot, Classes: v.all.Classes, LoadSeconds: v.loadSeconds}
	e, err := spec.Model(res.Used, opts.Seed)
	if err != nil {
		return fmt.Errorf("embed: %w", fieldFlagError(err, &opts))
	}
	res.Notes = v.notes("the first coordinates only mark them; --lcc embeds the largest")
	logf(stderr, "embed: %s: %d nodes, %d components, using %d nodes; Laplacian eigenmap in %d dimensions", res.Data, res.Nodes, res.Components, res.Used, opts.Dim)
	start := timeNow()
	bar := newSteps(stderr, opts.Dim+1, "embed")
	e.Eigen.Progress = lanczosProgress(bar)
	err = e.Fit(ctx, estimator.Nodes{Graph: v.ds.Graph})
	bar.Finish()
	if err != nil {
		return fmt.Errorf("embed: %w", flagError(err))
	}
	res.Seconds, res.Eigenvalues = seconds(start), e.Eigenvalues()
	label := column{name: "label", value: func(node, _ int) any {
		if l := labelOf(v.all, node); l >= 0 {
			return className(v.all, l)
		}
		return nil
	}}
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, v.all, e.Coordinates(), "x", v.orig, label) }); err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	if err := opts.Plots.write(stderr, "embed", res, func() (picture, error) { return embedPicture(v.ds, e.Coordinates(), res.Data) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "embed", res)
}
