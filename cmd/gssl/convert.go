package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/loaders"
)

// convertOptions are the arguments and flags of gssl convert (help/convert.md).
type convertOptions struct {
	In, Out       string
	DropSelfLoops bool `flag:"drop-self-loops"`
	Float32       bool `flag:"float32"`
	Nodes         int  `flag:"nodes"`
	JSON          bool
}

func newConvertCommand(g *globals) *cobra.Command {
	opts := convertOptions{}
	cmd := newCommand("convert", &opts, func(cmd *cobra.Command, args []string) error {
		opts.In, opts.Out, opts.JSON = args[0], args[1], g.JSON
		return runConvert(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.Use, cmd.Args = "convert IN OUT.gsg", cobra.ExactArgs(2)
	return cmd
}

func runConvert(ctx context.Context, opts convertOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if !graphfile.IsGraphFile(opts.In) {
		if err := checkNodesFlag(opts.Nodes); err != nil {
			return err
		}
	}
	g, ids, err := loaders.LoadGraph(opts.In, opts.Nodes, opts.DropSelfLoops)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := graphfile.WriteWith(opts.Out, g, ids, graphfile.WriteOptions{Float32Weights: opts.Float32}); err != nil {
		return err
	}
	rep, err := loaders.DescribeGraphFile(opts.In, opts.Out, g, ids)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	rep.Seconds = seconds(start)
	return reportSummary(stdout, opts.JSON, "convert", rep)
}
