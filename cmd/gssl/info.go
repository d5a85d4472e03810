package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// infoOptions are the argument and flags of gssl info (help/info.md).
type infoOptions struct {
	In   nodeInput // the data set (nothing: the embedded Cora); a TU folder as --data
	Path string    // the PATH argument: a folder (as --data) or a file (as --edges)
	JSON bool
}

func newInfoCommand(g *globals) *cobra.Command {
	opts := infoOptions{In: newNodeInput()}
	cmd := newCommand("info", &opts, func(cmd *cobra.Command, args []string) error {
		opts.JSON = g.JSON
		if len(args) == 1 {
			opts.Path = args[0]
		}
		return runInfo(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.Use, cmd.Args = "info [PATH]", cobra.MaximumNArgs(1)
	return cmd
}

func runInfo(ctx context.Context, opts infoOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if opts.Path != "" {
		if opts.In.Data != "" || opts.In.Edges != "" {
			return fmt.Errorf("info: PATH %s and --data/--edges exclude each other", opts.Path)
		}
		if st, err := os.Stat(opts.Path); err == nil && st.IsDir() {
			opts.In.Data = opts.Path
		} else {
			opts.In.Edges = opts.Path
		}
	}
	if protocol.IsTUFolder(opts.In.Data) {
		ds, err := loaders.LoadTU(opts.In.Data)
		if err != nil {
			return fmt.Errorf("info: %w", err)
		}
		recordInputs(ctx, stderr, ds.Reports...)
		return reportSummary(stdout, opts.JSON, "info-tu", protocol.TUInfo{Path: opts.In.Data, Kind: "graph-classification", TUSummary: ds.Summary(), Seconds: seconds(start)})
	}
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	defer ds.Close()
	load := seconds(start)
	in := protocol.DescribeNodeDataset(opts.In.spec(), ds)
	in.LoadSeconds, in.Seconds = load, seconds(start)
	return reportSummary(stdout, opts.JSON, "info", in)
}
