package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

type infoOptions struct {
	In   nodeInput // the data set (nothing: the embedded Cora); a TU folder as --data
	Path string    // the PATH argument: a folder (as --data) or a file (as --edges)
	JSON bool
}

func newInfoCommand(g *globals) *cobra.Command {
	opts := infoOptions{}
	cmd := &cobra.Command{
		Use:   "info [PATH]",
		Short: "Describe a graph or data set: nodes, edges, degrees, components, classes, splits",
		Long: `info describes a data set: --data DIR (a node-classification folder, an OGB
node-property folder or a TU graph-classification folder), or --edges FILE (an edge
table or a Matrix Market file) with optional --labels, --features and --targets.
PATH is short for --data (a folder) or --edges (a file). Without either it
describes the Cora embedded in gssl.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = g.JSON
			if len(args) == 1 {
				opts.Path = args[0]
			}
			return runInfo(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	opts.In.addFlags(cmd.Flags())
	return cmd
}

// graphInfo is the JSON object of a single graph or node data set.
type graphInfo struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	graph.Stats
	loaders.DatasetSummary
	Homophily     *homophilyInfo `json:"homophily"`                // null without labels (see homophily_note)
	HomophilyNote string         `json:"homophily_note,omitempty"` // why homophily is null
	LoadSeconds   float64        `json:"load_seconds"`             // reading (or mapping) the input
	Seconds       float64        `json:"seconds"`                  // the whole command: load and statistics
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
	if opts.In.Data != "" {
		if m, _ := filepath.Glob(filepath.Join(opts.In.Data, "*_graph_indicator.txt")); len(m) > 0 {
			return infoTU(opts.In.Data, opts.JSON, stdout, start)
		}
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
	in.Homophily, in.HomophilyNote = measureHomophily(ds.Graph, ds.Labels)
	in.Seconds = seconds(start)
	return report(stdout, opts.JSON, in, func(w io.Writer) { printGraphInfo(w, in) })
}

func printGraphInfo(w io.Writer, in graphInfo) {
	fmt.Fprintf(w, "%s (%s)\n", in.Path, in.Kind)
	fmt.Fprintf(w, "  nodes        %d\n", in.Nodes)
	fmt.Fprintf(w, "  edges        %d (self loops %d)\n", in.Edges, in.SelfLoops)
	fmt.Fprintf(w, "  degree       min %.0f, mean %.2f, max %.0f (neighbours per node)\n", in.DegreeMin, in.DegreeMean, in.DegreeMax)
	fmt.Fprintf(w, "  isolated     %d\n", in.Isolated)
	fmt.Fprintf(w, "  components   %d (largest %d nodes)\n", in.Components, in.LargestComponent)
	if in.Classes > 0 {
		fmt.Fprintf(w, "  classes      %d %v, sizes %v", in.Classes, in.ClassNames, in.ClassSizes)
		if in.Unlabelled > 0 {
			fmt.Fprintf(w, ", %d nodes without a label", in.Unlabelled)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "  ids          %s\n", in.IDs)
	switch {
	case in.DenseFeatures:
		fmt.Fprintf(w, "  features     %d (dense)\n", in.Features)
	case in.Features > 0:
		fmt.Fprintf(w, "  features     %d (%d non-zeros)\n", in.Features, in.FeatureNonZeros)
	}
	if in.Targets > 0 {
		fmt.Fprintf(w, "  targets      %d nodes\n", in.Targets)
	}
	if in.Train+in.Val+in.Test > 0 {
		fmt.Fprintf(w, "  split        train %d, val %d, test %d\n", in.Train, in.Val, in.Test)
	}
	printHomophily(w, in.Homophily, in.HomophilyNote)
	fmt.Fprintf(w, "  graph memory %.2f MB\n", float64(in.Bytes)/1e6)
}

func infoTU(path string, asJSON bool, stdout io.Writer, start timeMark) error {
	ds, err := loaders.LoadTU(path)
	if err != nil {
		return fmt.Errorf("info: %w", err)
	}
	in := tuInfo{Path: path, Kind: "graph-classification", TUSummary: ds.Summary(), Seconds: seconds(start)}
	return report(stdout, asJSON, in, func(w io.Writer) {
		fmt.Fprintf(w, "%s (%s)\n", in.Path, in.Kind)
		fmt.Fprintf(w, "  graphs       %d\n", in.Graphs)
		fmt.Fprintf(w, "  classes      %d (graph labels %v), sizes %v\n", in.Classes, in.LabelValues, in.ClassSizes)
		fmt.Fprintf(w, "  nodes        %d (mean %.2f per graph), %d node-label values\n", in.Nodes, in.MeanNodes, in.NodeLabels)
		fmt.Fprintf(w, "  edges        %d (mean %.2f per graph)\n", in.Edges, in.MeanEdges)
		fmt.Fprintf(w, "  components   %d in all\n", in.Components)
		if in.AttributeDims > 0 {
			fmt.Fprintf(w, "  attributes   %d per node\n", in.AttributeDims)
		}
	})
}
