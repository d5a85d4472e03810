package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gssl/gssl/spectral"
)

type embedOptions struct {
	Data     string // node folder, Matrix Market file or edge list
	Labels   string // optional labels file (one per node) for graphs without labels
	Dim      int
	Plot     string // PNG/SVG/PDF file of the first two coordinates, coloured by class
	Out      string // CSV file of the coordinates
	Tol      float64
	Seed     uint64
	Isolated string
	LCC      bool // restrict to the largest connected component
	JSON     bool
}

func init() { register(newEmbedCommand) }

func newEmbedCommand(g *globals) *cobra.Command {
	opts := embedOptions{}
	cmd := &cobra.Command{
		Use:   "embed",
		Short: "Laplacian eigenmap of a graph, optionally plotted coloured by class",
		Long: `embed computes the Laplacian eigenmap of a graph (Belkin & Niyogi 2003): the
eigenvectors of L_rw = I − D^-1 W for the smallest eigenvalues after the trivial
one, D-orthonormal, as coordinates in R^dim. --plot draws the first two coordinates
(the only one for --dim 1, against the node index) coloured by class (gonum/plot;
the format follows the extension: .png, .svg, .pdf). --out writes the coordinates as
CSV (node, label, x1, …). --data takes a node folder (labels from labels.txt), a
Matrix Market file or an edge list (labels from --labels).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = defaultCora()
			}
			return runEmbed(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "node folder, Matrix Market file or edge list (default testdata/cora)")
	f.StringVar(&opts.Labels, "labels", "", "file of one label per node (−1: unknown), for graphs given as files")
	f.IntVar(&opts.Dim, "dim", 2, "embedding dimension")
	f.StringVar(&opts.Plot, "plot", "", "image of the first two coordinates coloured by class (.png, .svg or .pdf)")
	f.StringVar(&opts.Out, "out", "", "CSV file of the coordinates")
	f.Float64Var(&opts.Tol, "tol", 0, "eigenpair residual tolerance (0: 1e-10)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the eigensolver's start block")
	f.StringVar(&opts.Isolated, "isolated", "error", "nodes of degree 0: error, or zero (D^-1/2 := 0)")
	f.BoolVar(&opts.LCC, "lcc", true, "work on the largest connected component (on a graph with c components the first c eigenvectors only mark components)")
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
	Seconds     float64   `json:"seconds"`
	LoadSeconds float64   `json:"load_seconds"`
}

func runEmbed(ctx context.Context, opts embedOptions, stdout, stderr io.Writer) error {
	if opts.Dim < 1 {
		return fmt.Errorf("--dim %d is invalid: it must be ≥ 1", opts.Dim)
	}
	iso, err := isolatedPolicy(opts.Isolated)
	if err != nil {
		return err
	}
	loadStart := timeNow()
	data, err := loadGraphData(opts.Data, opts.Labels)
	if err != nil {
		return err
	}
	res := embedResult{Data: opts.Data, Nodes: data.graph.Nodes(), Dim: opts.Dim, Plot: opts.Plot, Out: opts.Out, LoadSeconds: seconds(loadStart)}
	_, res.Components = data.graph.Components()
	res.LCC, res.Used = opts.LCC, res.Nodes
	if opts.LCC {
		if res.Used, err = data.largestComponent(); err != nil {
			return err
		}
	}
	for _, l := range data.labels {
		res.Classes = max(res.Classes, l+1)
	}
	logf(stderr, "embed: %s: %d nodes, %d components, using %d nodes; Laplacian eigenmap in %d dimensions", opts.Data, res.Nodes, res.Components, res.Used, opts.Dim)
	start := timeNow()
	e := &spectral.LaplacianEigenmap{Dim: opts.Dim, Isolated: iso, Eigen: spectral.Settings{Tol: opts.Tol, Seed: opts.Seed}}
	if err := e.Fit(ctx, data.graph); err != nil {
		return err
	}
	res.Seconds = seconds(start)
	res.Eigenvalues = e.Eigenvalues()
	if opts.Plot != "" {
		if err := plotEmbedding(opts.Plot, opts.Data, e.Coordinates(), data.labels); err != nil {
			return err
		}
		logf(stderr, "embed: wrote %s", opts.Plot)
	}
	if opts.Out != "" {
		if err := writeCoordinates(opts.Out, e.Coordinates(), data.labels); err != nil {
			return err
		}
		logf(stderr, "embed: wrote %s", opts.Out)
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d nodes, %d components, %d classes; %d nodes used (largest component: %v)\n", res.Data, res.Nodes, res.Components, res.Classes, res.Used, res.LCC)
		fmt.Fprintf(w, "Laplacian eigenmap in %d dimensions, eigenvalues of L_rw %.6g\n", res.Dim, res.Eigenvalues)
		if res.Plot != "" {
			fmt.Fprintf(w, "plot: %s\n", res.Plot)
		}
		if res.Out != "" {
			fmt.Fprintf(w, "coordinates: %s\n", res.Out)
		}
		fmt.Fprintf(w, "%.3f s (load %.3f s)\n", res.Seconds, res.LoadSeconds)
	})
}

// plotEmbedding draws the first two coordinates (or the first against the
// node index) with one colour per class; nodes without a label are grey.
func plotEmbedding(path, title string, x *mat.Dense, labels []int) error {
	n, d := x.Dims()
	p := plot.New()
	p.Title.Text = "Laplacian eigenmap: " + filepath.Base(title)
	p.X.Label.Text, p.Y.Label.Text = "f₁", "f₂"
	if d == 1 {
		p.X.Label.Text, p.Y.Label.Text = "node", "f₁"
	}
	groups := map[int]plotter.XYs{}
	var order []int
	for i := 0; i < n; i++ {
		c := -1
		if labels != nil {
			c = labels[i]
		}
		pt := plotter.XY{X: float64(i), Y: x.At(i, 0)}
		if d >= 2 {
			pt = plotter.XY{X: x.At(i, 0), Y: x.At(i, 1)}
		}
		if _, ok := groups[c]; !ok {
			order = append(order, c)
		}
		groups[c] = append(groups[c], pt)
	}
	sortInts(order)
	for _, c := range order {
		s, err := plotter.NewScatter(groups[c])
		if err != nil {
			return fmt.Errorf("embed: plot: %w", err)
		}
		s.GlyphStyle.Radius = vg.Points(1.5)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		name := "unlabelled"
		s.GlyphStyle.Color = color.Gray{Y: 160}
		if c >= 0 {
			s.GlyphStyle.Color = plotutil.Color(c)
			name = "class " + strconv.Itoa(c)
		}
		p.Add(s)
		if labels != nil {
			p.Legend.Add(name, s)
		}
	}
	p.Legend.Top = true
	if err := p.Save(7*vg.Inch, 6*vg.Inch, path); err != nil {
		return fmt.Errorf("embed: plot: %w", err)
	}
	return nil
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// writeCoordinates writes node, label, x1, … as CSV.
func writeCoordinates(path string, x *mat.Dense, labels []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	n, d := x.Dims()
	head := []string{"node", "label"}
	for j := 0; j < d; j++ {
		head = append(head, "x"+strconv.Itoa(j+1))
	}
	_ = w.Write(head)
	for i := 0; i < n; i++ {
		l := -1
		if labels != nil {
			l = labels[i]
		}
		rec := []string{strconv.Itoa(i), strconv.Itoa(l)}
		for j := 0; j < d; j++ {
			rec = append(rec, strconv.FormatFloat(x.At(i, j), 'g', 17, 64))
		}
		_ = w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
