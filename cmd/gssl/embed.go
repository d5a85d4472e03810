package main

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/protocol"
	"io"

	"github.com/spf13/cobra"

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
type embedResult struct{ protocol.EmbedReport }

// runEmbed embeds the graph (protocol.Embed) and writes, plots and prints
// the report.
func runEmbed(ctx context.Context, opts embedOptions, stdout, stderr io.Writer) error {
	spec := spectral.EigenmapSpec{Dim: opts.Dim, Tol: opts.Tol, Isolated: opts.Isolated}
	if err := firstError(fieldFlagError(spec.Validate(), &opts), opts.Plots.check(), checkOutPath("out", opts.Out)); err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	v, load, err := loadComponentView(ctx, opts.In, opts.LCC, stderr)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer v.All.Close()
	e, rep, err := protocol.EmbedModel(spec, v, opts.Seed)
	if err != nil {
		return fmt.Errorf("embed: %w", fieldFlagError(err, &opts))
	}
	res := embedResult{*rep}
	res.Plot, res.LoadSeconds = opts.Plots.Plot, load
	logf(stderr, "embed: %s: %d nodes, %d components, using %d nodes; Laplacian eigenmap in %d dimensions", res.Data, res.Nodes, res.Components, res.Used, opts.Dim)
	bar := newSteps(stderr, opts.Dim+1, "embed")
	e.Eigen.Progress = lanczosProgress(bar)
	err = protocol.Embed(ctx, e, v, &res.EmbedReport)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("embed: %w", flagError(err))
	}
	label := column{name: "label", value: func(node, _ int) any {
		if l := labelOf(v.All, node); l >= 0 {
			return className(v.All, l)
		}
		return nil
	}}
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, v.All, e.Coordinates(), "x", v.Orig, label) }); err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	if err := opts.Plots.write(stderr, "embed", res, func() (picture, error) { return embedPicture(v.DS, e.Coordinates(), res.Data) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "embed", res)
}
