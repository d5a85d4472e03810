package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"
	"github.com/gssl/gssl/loaders"
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

// graphInfo is the JSON object of a single graph or node data set.
type graphInfo struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	graph.Stats
	loaders.DatasetSummary
	Homophily     *homophily.Report `json:"homophily"`                // null without labels (see homophily_note)
	HomophilyNote string            `json:"homophily_note,omitempty"` // why homophily is null
	LoadSeconds   float64           `json:"load_seconds"`             // reading (or mapping) the input
	Seconds       float64           `json:"seconds"`                  // the whole command: load and statistics
	// Inputs say how each file was read: format, header, columns.
	Inputs []loaders.TableReport `json:"inputs,omitempty"`
}

// tuInfo is the JSON object of a graph-classification data set.
type tuInfo struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	loaders.TUSummary
	Seconds float64 `json:"seconds"`
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
	if m, _ := filepath.Glob(filepath.Join(opts.In.Data, "*_graph_indicator.txt")); opts.In.Data != "" && len(m) > 0 {
		ds, err := loaders.LoadTU(opts.In.Data)
		if err != nil {
			return fmt.Errorf("info: %w", err)
		}
		recordInputs(ctx, stderr, ds.Reports...)
		return reportSummary(stdout, opts.JSON, "info-tu", tuInfo{Path: opts.In.Data, Kind: "graph-classification", TUSummary: ds.Summary(), Seconds: seconds(start)})
	}
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	defer ds.Close()
	in := graphInfo{Path: opts.In.source(), Kind: "node-classification", LoadSeconds: seconds(start), Stats: graph.Describe(ds.Graph), DatasetSummary: ds.Summary()}
	if opts.In.Data == "" && !opts.In.embedded() {
		in.Kind = "edge-table"
		if len(ds.Reports) > 0 && ds.Reports[0].Format != "integer-edge-list" {
			in.Kind = ds.Reports[0].Format
		}
		in.Inputs = ds.Reports
	}
	switch in.Homophily, err = homophily.Describe(ds.Graph, ds.Labels); {
	case ds.Labels == nil:
		in.HomophilyNote = "no labels"
	case errors.Is(err, homophily.ErrNoEdges):
		in.HomophilyNote = "no edge joins two labelled nodes"
	case err != nil:
		in.HomophilyNote = err.Error()
	}
	in.Seconds = seconds(start)
	return reportSummary(stdout, opts.JSON, "info", in)
}
