package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/spectral"
)

type embedOptions struct {
	In       nodeInput // the graph and optional labels (nothing: the embedded Cora)
	Dim      int
	Plot     string // PNG/SVG/PDF file of the first two coordinates, coloured by class
	Report   string // folder of an HTML report of the run
	Out      string // coordinates of every node
	Tol      float64
	Seed     uint64
	Isolated string
	LCC      bool // restrict to the largest connected component
	JSON     bool
}

func newEmbedCommand(g *globals) *cobra.Command {
	opts := embedOptions{}
	cmd := &cobra.Command{
		Use:   "embed",
		Short: "Laplacian eigenmap of a graph, optionally plotted coloured by class",
		Long: `embed computes the Laplacian eigenmap of a graph (Belkin & Niyogi 2003): the
eigenvectors of L_rw = I − D^-1 W for the smallest eigenvalues after the trivial
one, D-orthonormal, as coordinates in R^dim. --plot draws the first two coordinates
(the only one for --dim 1, against the node index) coloured by class (gonum/plot;
the format follows the extension: .png, .svg, .pdf). --out FILE writes one row per
node: its id, its class (when labelled) and x1..x<dim> (CSV, or JSON Lines for
.jsonl/.ndjson). The graph comes from --data DIR or --edges FILE (with --labels
FILE); without either, the Cora embedded in gssl. On a graph with c components the
first c coordinates only mark components: --lcc embeds the largest one (the other
nodes get empty coordinates).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runEmbed(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.IntVar(&opts.Dim, "dim", spectral.DefaultEigenmapDim, "embedding dimension ≥ 1")
	f.StringVar(&opts.Plot, "plot", "", "image of the first two coordinates coloured by class (.png, .svg or .pdf)")
	f.StringVar(&opts.Report, "report", "", "write a self-contained HTML report of the run (command line, versions, seeds, timings, tables and the --plot figure) to DIR/index.html")
	f.StringVar(&opts.Out, "out", "", "write one row per node (id, label, x1..): CSV, or JSON Lines for .jsonl/.ndjson")
	f.Float64Var(&opts.Tol, "tol", 0, "eigenpair residual tolerance (0: 1e-10)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the eigensolver's start block")
	f.StringVar(&opts.Isolated, "isolated", "component", "nodes of degree 0: component (own component, zero row: eigenvalue 0, as scipy and networkx), error, or zero (D^-1/2 := 0)")
	f.BoolVar(&opts.LCC, "lcc", false, "work on the largest connected component (on a graph with c components the first c eigenvectors only mark components)")
	return cmd
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
	iso, err := opts.check()
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	loadStart := timeNow()
	all, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	defer all.Close()
	ds, orig, err := componentView(all, opts.LCC)
	if err != nil {
		return fmt.Errorf("embed: %w", err)
	}
	res := embedResult{Data: opts.In.source(), Nodes: all.Graph.Nodes(), Dim: opts.Dim, Plot: opts.Plot, Out: opts.Out, Classes: all.Classes, LoadSeconds: seconds(loadStart)}
	_, res.Components = all.Graph.Components()
	res.LCC, res.Used = opts.LCC, ds.Graph.Nodes()
	if opts.Dim >= res.Used {
		return fmt.Errorf("embed: --dim %d is invalid: it must be in [1, %d) for %d nodes (the trivial eigenvector is dropped)", opts.Dim, res.Used, res.Used)
	}
	if !opts.LCC && res.Components > 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("the graph has %d connected components, and the first coordinates only mark them; --lcc embeds the largest", res.Components))
	}
	logf(stderr, "embed: %s: %d nodes, %d components, using %d nodes; Laplacian eigenmap in %d dimensions", res.Data, res.Nodes, res.Components, res.Used, opts.Dim)
	start := timeNow()
	bar := newSteps(stderr, opts.Dim+1, "embed")
	e := &spectral.LaplacianEigenmap{Dim: opts.Dim, Isolated: iso, Eigen: spectral.Settings{Tol: opts.Tol, Seed: opts.Seed, Progress: lanczosProgress(bar)}}
	err = e.Fit(ctx, estimator.Nodes{Graph: ds.Graph})
	bar.Finish()
	if err != nil {
		return fmt.Errorf("embed: %w", flagError(err))
	}
	res.Seconds = seconds(start)
	res.Eigenvalues = e.Eigenvalues()
	if opts.Out != "" {
		label := column{name: "label", value: func(node, _ int) any {
			if l := labelOf(all, node); l >= 0 {
				return className(all, l)
			}
			return nil
		}}
		if err := writeVectors(opts.Out, all, e.Coordinates(), "x", orig, label); err != nil {
			return fmt.Errorf("embed: %w", err)
		}
	}
	plots := plotFlags{Plot: opts.Plot, Report: opts.Report, start: loadStart}
	if err := plots.write(stderr, "embed", res, func() (picture, error) { return embedPicture(ds, e.Coordinates(), res.Data) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d nodes, %d components, %d classes; %d nodes used (largest component: %v)\n", res.Data, res.Nodes, res.Components, res.Classes, res.Used, res.LCC)
		fmt.Fprintf(w, "Laplacian eigenmap in %d dimensions, eigenvalues of L_rw %.6g\n", res.Dim, res.Eigenvalues)
		for _, n := range res.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
		if res.Plot != "" {
			fmt.Fprintf(w, "plot: %s\n", res.Plot)
		}
		if res.Out != "" {
			fmt.Fprintf(w, "coordinates: %s\n", res.Out)
		}
		fmt.Fprintf(w, "%.3f s (load %.3f s)\n", res.Seconds, res.LoadSeconds)
	})
}

// check validates the flags that need no data; a bad --plot or --out name
// is refused before anything is computed.
func (opts embedOptions) check() (laplacian.IsolatedPolicy, error) {
	if opts.Dim < 1 {
		return 0, fmt.Errorf("--dim %d is invalid: it must be ≥ 1", opts.Dim)
	}
	if err := checkTol(opts.Tol); err != nil {
		return 0, err
	}
	if err := (&plotFlags{Plot: opts.Plot, Report: opts.Report}).check(); err != nil {
		return 0, err
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return 0, err
	}
	return isolatedPolicy(opts.Isolated)
}
