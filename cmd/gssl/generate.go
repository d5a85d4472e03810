package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/generate"
)

type generateOptions struct {
	Model       string  // sbm | rmat
	Nodes       int     // sbm: n
	Classes     int     // sbm: C
	Sizes       []int   // sbm: class sizes (overrides Classes)
	Degree      float64 // sbm: mean degree
	Exponent    float64 // sbm: power-law exponent (+Inf: equal degrees)
	Mixing      float64 // sbm: μ
	Features    int     // sbm: feature columns (0: none)
	PerNode     int     // sbm: feature draws per node (0: default)
	TopicProb   float64 // sbm: probability of a class-topic feature
	Scale       int     // rmat: n = 2^scale
	EdgeFactor  int     // rmat: m = edge factor · n
	ABCD        []float64
	NoSelfLoops bool
	Seed        uint64
	Out         string // file prefix, or the folder for --format folder
	Format      string // txt | csv | gsg | folder
	Gzip        bool   // compress the edge list
	PerClass    int    // split: training nodes per class
	Val, Test   int    // split: validation and test nodes (capped to what is left)
	MaxMemory   string // refuse a graph whose per-node tables (and, for gsg, edges) pass this
	JSON        bool
}

// Memory of gssl generate, per node and per edge: the SBM's label, degree,
// member and alias tables and the labels written (about 64 bytes a node),
// R-MAT's vertex permutation (4), and for --format gsg the graph built in
// memory by counting (generate.BuildGraph: two 4-byte entries an edge and
// the Builder's buffers, an eighth of the entries at 8 bytes: 12 bytes an
// edge, rounded up).
const (
	sbmBytesPerNode  = 64
	rmatBytesPerNode = 4
	gsgBytesPerEdge  = 12
)

// checkGenerateMemory refuses, before anything is allocated, a graph whose
// tables pass --max-memory.
func checkGenerateMemory(opts generateOptions) error {
	limit, err := parseBytes("max-memory", opts.MaxMemory)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	var nodes, edges, extra float64
	perNode := float64(sbmBytesPerNode)
	switch opts.Model {
	case "sbm":
		nodes = float64(opts.Nodes)
		for _, s := range opts.Sizes {
			nodes = max(nodes, float64(s)) // a lower bound when --sizes is given
		}
		edges = nodes * max(opts.Degree, 0) / 2
		extra = float64(max(opts.Features, 0)) * 8 // the feature columns' permutation and topics
	case "rmat":
		if opts.Scale < 1 || opts.Scale > generate.MaxScale {
			return nil // NewRMAT names the valid range
		}
		nodes = math.Ldexp(1, opts.Scale)
		edges = nodes * float64(max(opts.EdgeFactor, 0))
		perNode = rmatBytesPerNode
	default:
		return nil
	}
	need := nodes*perNode + extra
	alt := "give fewer --nodes"
	if opts.Model == "rmat" {
		alt = "give a smaller --scale"
	}
	if extra > nodes*perNode {
		alt = "give fewer --features"
	}
	if opts.Format == "gsg" {
		need += edges * gsgBytesPerEdge
		alt = "use --format txt or csv, which stream the edges, or " + strings.TrimPrefix(alt, "give ")
	}
	if need > float64(math.MaxInt64/2) {
		need = float64(math.MaxInt64 / 2)
	}
	if err := checkMemory(int64(need), limit, "the generator's tables", alt); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

func newGenerateCommand(g *globals) *cobra.Command {
	opts := generateOptions{}
	cmd := &cobra.Command{
		Use:   "generate sbm|rmat --out PREFIX [flags]",
		Short: "Write a random graph: a degree-corrected block model with classes, or R-MAT",
		Long: `generate draws a random graph and streams it to disk without holding it in
memory (except for --format gsg, which builds the graph).

sbm is a degree-corrected stochastic block model (Karrer & Newman 2011): --nodes
nodes in --classes planted classes (or --sizes), power-law expected degrees with
--exponent γ (inf: equal degrees) and mean --degree, and a fraction --mixing of
each node's edges leaving its class; with --features F, sparse binary features
drawn from class topics with probability --topic-prob. rmat is the Graph500
R-MAT graph: 2^--scale nodes, --edge-factor edges per node, quadrant
probabilities --abcd (default 0.57,0.19,0.19,0.05) and a random vertex order.

Edges are written as drawn: self loops and repeated edges occur (gssl's readers
merge repeats and drop self loops); --no-self-loops redraws self loops. The same
--seed gives the same files on any machine.

Files, for --out PREFIX:
  --format txt   PREFIX.edges.txt ("u v" lines), PREFIX.labels.txt (line i: class of node i)
  --format csv   PREFIX.edges.csv ("source,target" header), PREFIX.labels.csv ("id,label")
  --format gsg   PREFIX.gsg (binary graph; repeats merged, self loops dropped), PREFIX.labels.csv
  --format folder  PREFIX/edges.txt, labels.txt, split_planetoid.txt, features.txt.gz:
                 a node-classification folder every command reads
and, for sbm, PREFIX.split.txt ("train i"/"val i"/"test i": --per-class training
nodes per class, then --val and --test nodes, capped to the nodes left) and, with
--features, PREFIX.features.txt.gz ("# n F" header, "col:1" pairs per node).
--gzip compresses the edge list (.gz added). rmat writes the edge list only.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Model = args[0]
			opts.JSON = g.JSON
			return runGenerate(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Nodes, "nodes", 10000, "sbm: number of nodes")
	f.IntVar(&opts.Classes, "classes", generate.DefaultClasses, "sbm: number of classes")
	f.IntSliceVar(&opts.Sizes, "sizes", nil, "sbm: class sizes, comma-separated, summing to --nodes (default: equal)")
	f.Float64Var(&opts.Degree, "degree", generate.DefaultDegree, "sbm: mean degree")
	f.Float64Var(&opts.Exponent, "exponent", generate.DefaultExponent, "sbm: power-law exponent γ > 2 of the degrees (inf: equal degrees)")
	f.Float64Var(&opts.Mixing, "mixing", generate.DefaultMixing, "sbm: fraction μ in [0, 1] of each node's edges that leave its class")
	f.IntVar(&opts.Features, "features", 0, "sbm: number of sparse binary feature columns (0: no features)")
	f.IntVar(&opts.PerNode, "features-per-node", 0, fmt.Sprintf("sbm: feature draws per node (0: min(%d, --features))", generate.DefaultFeaturesPerNode))
	f.Float64Var(&opts.TopicProb, "topic-prob", generate.DefaultTopicProb, "sbm: probability that a feature draw is one of the class's topic columns")
	f.IntVar(&opts.Scale, "scale", 16, fmt.Sprintf("rmat: 2^scale nodes, scale in [1, %d]", generate.MaxScale))
	f.IntVar(&opts.EdgeFactor, "edge-factor", generate.DefaultEdgeFactor, "rmat: edges per node")
	f.Float64SliceVar(&opts.ABCD, "abcd", []float64{generate.DefaultA, generate.DefaultB, generate.DefaultC, generate.DefaultD}, "rmat: quadrant probabilities a,b,c,d")
	f.BoolVar(&opts.NoSelfLoops, "no-self-loops", false, "redraw edges from a node to itself")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed")
	f.StringVar(&opts.Out, "out", "", "output prefix (a folder for --format folder)")
	f.StringVar(&opts.Format, "format", "txt", "txt | csv | gsg | folder")
	f.BoolVar(&opts.Gzip, "gzip", false, "gzip the edge list")
	f.IntVar(&opts.PerClass, "per-class", 20, "sbm split: training nodes per class")
	f.IntVar(&opts.Val, "val", 500, "sbm split: validation nodes")
	f.IntVar(&opts.Test, "test", 1000, "sbm split: test nodes")
	f.StringVar(&opts.MaxMemory, "max-memory", defaultMaxMemory(), "refuse a graph whose node tables (and, for --format gsg, edges) pass this size")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

// generateReport is the JSON object of gssl generate.
type generateReport struct {
	Model    string            `json:"model"`
	Nodes    int               `json:"nodes"`
	Edges    int64             `json:"edges"`
	Classes  int               `json:"classes,omitempty"`
	Sizes    []int             `json:"class_sizes,omitempty"`
	Features int               `json:"features,omitempty"`
	Train    int               `json:"train,omitempty"`
	Val      int               `json:"val,omitempty"`
	Test     int               `json:"test,omitempty"`
	Seed     uint64            `json:"seed"`
	Files    map[string]string `json:"files"`
	Seconds  float64           `json:"seconds"`
}

func runGenerate(ctx context.Context, opts generateOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if opts.Out == "" {
		return fmt.Errorf("generate: --out is required")
	}
	if err := checkGenerateMemory(opts); err != nil {
		return err
	}
	rep := generateReport{Model: opts.Model, Seed: opts.Seed, Files: map[string]string{}}
	gen, sbm, err := newGenerator(opts, &rep)
	if err != nil {
		return err
	}
	rep.Nodes, rep.Edges = gen.Nodes(), gen.NumEdges()
	p, err := generateFiles(opts)
	if err != nil {
		return err
	}
	if opts.Format == "gsg" {
		err = generate.WriteGraphFile(ctx, p.edges, gen)
	} else {
		err = generate.WriteEdges(ctx, p.edges, gen, p.edgeFormat)
	}
	if err != nil {
		return err
	}
	rep.Files["edges"] = p.edges
	if sbm != nil {
		if err := writeClassFiles(ctx, opts, sbm, p, &rep); err != nil {
			return err
		}
	}
	rep.Seconds = seconds(start)
	return report(stdout, opts.JSON, rep, func(w io.Writer) { printGenerate(w, rep) })
}

// newGenerator builds the generator of --model (and, for sbm, returns it
// as the SBM whose classes are written too), recording the classes in rep.
func newGenerator(opts generateOptions, rep *generateReport) (generate.Generator, *generate.SBMGraph, error) {
	switch opts.Model {
	case "sbm":
		cfg := generate.SBM{Nodes: opts.Nodes, Classes: opts.Classes, Sizes: opts.Sizes, Degree: opts.Degree,
			Exponent: opts.Exponent, Mixing: opts.Mixing, NoSelfLoops: opts.NoSelfLoops, Seed: opts.Seed}
		if len(opts.Sizes) > 0 {
			cfg.Classes = 0
		}
		if opts.Degree == 0 {
			return nil, nil, fmt.Errorf("generate: --degree 0 is invalid: it must be > 0")
		}
		// A mean degree of n or more asks for more edges than node pairs:
		// an edge stream without end, not a graph.
		if n := float64(opts.Nodes); opts.Degree >= n && n > 0 {
			return nil, nil, fmt.Errorf("generate: --degree %v is invalid: it must be below --nodes %d", opts.Degree, opts.Nodes)
		}
		if opts.Exponent == 0 {
			return nil, nil, fmt.Errorf("generate: --exponent 0 is invalid: it must be > 2, or inf")
		}
		sbm, err := generate.NewSBM(cfg)
		if err != nil {
			return nil, nil, err
		}
		rep.Classes, rep.Sizes = sbm.Classes(), sbm.Sizes()
		return sbm, sbm, nil
	case "rmat":
		if opts.Features > 0 {
			return nil, nil, fmt.Errorf("generate: --features is for sbm; rmat has no classes")
		}
		if len(opts.ABCD) != 4 {
			return nil, nil, fmt.Errorf("generate: --abcd takes 4 probabilities a,b,c,d, got %d", len(opts.ABCD))
		}
		if opts.EdgeFactor < 1 || (opts.Scale >= 1 && opts.Scale < 31 && opts.EdgeFactor > 1<<opts.Scale) {
			return nil, nil, fmt.Errorf("generate: --edge-factor %d is invalid: it must be in [1, 2^scale] (more edges per node than nodes is a stream without end, not a graph)", opts.EdgeFactor)
		}
		r, err := generate.NewRMAT(generate.RMAT{Scale: opts.Scale, EdgeFactor: opts.EdgeFactor,
			A: opts.ABCD[0], B: opts.ABCD[1], C: opts.ABCD[2], D: opts.ABCD[3], NoSelfLoops: opts.NoSelfLoops, Seed: opts.Seed})
		if err != nil {
			return nil, nil, err
		}
		return r, nil, nil
	default:
		return nil, nil, fmt.Errorf("generate: unknown model %q: want sbm or rmat", opts.Model)
	}
}

// generatePaths are the files gssl generate writes, and their formats.
type generatePaths struct {
	edges, labels, split, features string
	labelFormat                    generate.LabelFormat
	edgeFormat                     generate.EdgeFormat
}

// generateFiles names the files of --out in --format.
func generateFiles(opts generateOptions) (generatePaths, error) {
	name := func(suffix string) string { return opts.Out + suffix }
	var p generatePaths
	p.labelFormat, p.edgeFormat = generate.LabelsCSV, generate.EdgesText
	gz := ""
	if opts.Gzip {
		gz = ".gz"
	}
	switch opts.Format {
	case "txt":
		p.edges, p.labels, p.labelFormat = name(".edges.txt"+gz), name(".labels.txt"), generate.LabelsText
		p.split, p.features = name(".split.txt"), name(".features.txt.gz")
	case "csv":
		p.edges, p.labels, p.edgeFormat = name(".edges.csv"+gz), name(".labels.csv"), generate.EdgesCSV
		p.split, p.features = name(".split.txt"), name(".features.txt.gz")
	case "gsg":
		p.edges, p.labels = name(".gsg"), name(".labels.csv")
		p.split, p.features = name(".split.txt"), name(".features.txt.gz")
	case "folder":
		if err := os.MkdirAll(opts.Out, 0o755); err != nil {
			return p, fmt.Errorf("generate: %w", err)
		}
		in := func(f string) string { return filepath.Join(opts.Out, f) }
		p.edges, p.labels, p.labelFormat = in("edges.txt"+gz), in("labels.txt"), generate.LabelsText
		p.split, p.features = in("split_planetoid.txt"), in("features.txt.gz")
	default:
		return p, fmt.Errorf("generate: --format %q is invalid: want txt, csv, gsg or folder", opts.Format)
	}
	return p, nil
}

// writeClassFiles writes the SBM's labels, a split and (with --features)
// features, recording them in rep.
func writeClassFiles(ctx context.Context, opts generateOptions, sbm *generate.SBMGraph, p generatePaths, rep *generateReport) error {
	lab := sbm.Labels()
	if err := generate.WriteLabels(p.labels, lab, p.labelFormat); err != nil {
		return err
	}
	rep.Files["labels"] = p.labels
	if opts.PerClass < 1 || opts.Val < 0 || opts.Test < 0 {
		return fmt.Errorf("generate: --per-class %d, --val %d, --test %d are invalid: want ≥ 1, ≥ 0, ≥ 0", opts.PerClass, opts.Val, opts.Test)
	}
	left := sbm.Nodes() - opts.PerClass*sbm.Classes()
	val := max(0, min(opts.Val, left))
	test := max(0, min(opts.Test, left-val))
	s, err := eval.RandomPerClass(lab, opts.PerClass, val, test, opts.Seed)
	if err != nil {
		return fmt.Errorf("generate: split: %w", err)
	}
	if err := generate.WriteSplit(p.split, s); err != nil {
		return err
	}
	rep.Files["split"] = p.split
	rep.Train, rep.Val, rep.Test = len(s.Train), len(s.Val), len(s.Test)
	if opts.Features > 0 {
		fo := generate.Features{Columns: opts.Features, PerNode: opts.PerNode, TopicProb: opts.TopicProb}
		if err := generate.WriteFeatures(ctx, p.features, sbm, fo); err != nil {
			return err
		}
		rep.Files["features"] = p.features
		rep.Features = opts.Features
	}
	return nil
}

func printGenerate(w io.Writer, rep generateReport) {
	fmt.Fprintf(w, "%s graph: %d nodes, %d edges", rep.Model, rep.Nodes, rep.Edges)
	if rep.Classes > 0 {
		fmt.Fprintf(w, ", %d classes %v", rep.Classes, rep.Sizes)
	}
	fmt.Fprintln(w)
	for _, k := range []string{"edges", "labels", "split", "features"} {
		if p, ok := rep.Files[k]; ok {
			fmt.Fprintf(w, "  %-9s %s\n", k, p)
		}
	}
	if rep.Train+rep.Val+rep.Test > 0 {
		fmt.Fprintf(w, "  split     train %d, val %d, test %d\n", rep.Train, rep.Val, rep.Test)
	}
}
