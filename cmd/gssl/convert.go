package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/loaders"
)

type convertOptions struct {
	In, Out       string
	DropSelfLoops bool // drop self loops of an edge file (folders drop them always)
	Float32       bool // store weights as float32
	Nodes         int  // > 0: the ids are 0..Nodes−1
	JSON          bool
}

func newConvertCommand(g *globals) *cobra.Command {
	opts := convertOptions{}
	cmd := &cobra.Command{
		Use:   "convert IN OUT.gsg",
		Short: "Write a graph as a binary .gsg file that opens without parsing",
		Long: `convert reads a graph — an edge table (CSV/TSV/whitespace, string or integer
ids, optional weight column; gzip allowed), a Matrix Market file, a
node-classification folder or another .gsg file — and writes it with its node
ids as a .gsg file (format in package graphfile), atomically. Repeated edges are
merged by the larger weight; self loops of an edge file are kept unless
--drop-self-loops. Weighted graphs store float64 weights, or float32 with
--float32 (half the size, converted to float64 on opening).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.In, opts.Out, opts.JSON = args[0], args[1], g.JSON
			return runConvert(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.DropSelfLoops, "drop-self-loops", false, "drop self loops of an edge file")
	f.BoolVar(&opts.Float32, "float32", false, "store the weights as float32")
	f.IntVar(&opts.Nodes, "nodes", 0, "the node ids are the integers 0..N-1 (0: the ids in the file)")
	return cmd
}

// convertReport is the JSON object of gssl convert.
type convertReport struct {
	In        string  `json:"in"`
	Out       string  `json:"out"`
	Nodes     int     `json:"nodes"`
	Edges     int     `json:"edges"`
	SelfLoops int     `json:"self_loops"`
	Weighted  bool    `json:"weighted"`
	IDs       string  `json:"ids"`
	Bytes     int64   `json:"bytes"`
	Seconds   float64 `json:"seconds"`
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
	out, err := os.Stat(opts.Out)
	if err != nil {
		return fmt.Errorf("convert: %w", err)
	}
	rep := convertReport{In: opts.In, Out: opts.Out, Nodes: g.Nodes(), Edges: g.Edges(), SelfLoops: g.SelfLoops(),
		Weighted: !g.UnitWeights(), IDs: "identity", Bytes: out.Size()}
	if ids != nil && ids.IsText() {
		rep.IDs = "text"
	} else if ids != nil && !ids.IsIdentity() {
		rep.IDs = "integer"
	}
	rep.Seconds = seconds(start)
	return report(stdout, opts.JSON, rep, func(w io.Writer) {
		fmt.Fprintf(w, "%s → %s: %d nodes, %d edges (self loops %d), %s ids, %.2f MB\n",
			rep.In, rep.Out, rep.Nodes, rep.Edges, rep.SelfLoops, rep.IDs, float64(rep.Bytes)/1e6)
	})
}
