package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/generate"
)

// generateOptions are the flags of gssl generate (help/generate.md).
type generateOptions struct {
	Model       string    // the argument: sbm | rmat
	Nodes       int       `flag:"nodes"`
	Classes     int       `flag:"classes"`
	Sizes       []int     `flag:"sizes"`
	Degree      float64   `flag:"degree"`
	Exponent    float64   `flag:"exponent"`
	Mixing      float64   `flag:"mixing"`
	Features    int       `flag:"feature-columns"`
	PerNode     int       `flag:"features-per-node"`
	TopicProb   float64   `flag:"topic-prob"`
	Scale       int       `flag:"scale"`
	EdgeFactor  int       `flag:"edge-factor"`
	ABCD        []float64 `flag:"abcd"`
	NoSelfLoops bool      `flag:"no-self-loops"`
	Seed        uint64    `flag:"seed"`
	Out         string    `flag:"out"`
	Format      string    `flag:"format"`
	Gzip        bool      `flag:"gzip"`
	PerClass    int       `flag:"per-class"`
	Val         int       `flag:"val"`
	Test        int       `flag:"test"`
	MaxMemory   string    `flag:"max-memory"`
	JSON        bool
}

func newGenerateCommand(g *globals) *cobra.Command {
	opts := generateOptions{Nodes: 10000, Classes: generate.DefaultClasses, Degree: generate.DefaultDegree, Exponent: generate.DefaultExponent,
		Mixing: generate.DefaultMixing, TopicProb: generate.DefaultTopicProb, Scale: 16, EdgeFactor: generate.DefaultEdgeFactor,
		ABCD: []float64{generate.DefaultA, generate.DefaultB, generate.DefaultC, generate.DefaultD}, Seed: 1, Format: string(generate.LayoutText),
		PerClass: 20, Val: 500, Test: 1000, MaxMemory: defaultMaxMemory()}
	cmd := newCommand("generate", &opts, func(cmd *cobra.Command, args []string) error {
		opts.Model, opts.JSON = args[0], g.JSON
		return runGenerate(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.Use, cmd.Args = "generate sbm|rmat --out PREFIX [flags]", cobra.ExactArgs(1)
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

// generateReport is the JSON object of gssl generate.
type generateReport struct {
	Model string `json:"model"`
	generate.Written
	Seed    uint64  `json:"seed"`
	Seconds float64 `json:"seconds"`
}

// generateFields are the generator's parameters as package generate names
// them, and their flags.
var generateFields = []string{"generate: sbm: ", "generate: ", "generate: rmat: ", "generate: ", "nodes=", "--nodes ", "classes=", "--classes ",
	"degree=", "--degree ", "exponent=", "--exponent ", "mixing=", "--mixing ", "scale=", "--scale ", "edge factor ", "--edge-factor "}

func runGenerate(ctx context.Context, opts generateOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if err := opts.check(); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	gen, err := newGenerator(opts)
	if err != nil {
		return flagNamed(err, generateFields...)
	}
	p, err := generate.NewFiles(opts.Out, generate.FileLayout(opts.Format), opts.Gzip)
	if err != nil {
		return fmt.Errorf("generate: --format %q is invalid: want txt, csv, gsg or folder", opts.Format)
	}
	rep := generateReport{Model: opts.Model, Seed: opts.Seed}
	if rep.Written, err = p.Write(ctx, gen, generate.SplitSizes{PerClass: opts.PerClass, Val: opts.Val, Test: opts.Test}, opts.Seed,
		generate.Features{Columns: opts.Features, PerNode: opts.PerNode, TopicProb: opts.TopicProb}); err != nil {
		return err
	}
	rep.Seconds = seconds(start)
	return reportSummary(stdout, opts.JSON, "generate", rep)
}

// check refuses a missing --out and, before anything is allocated, a graph
// whose tables pass --max-memory.
func (opts generateOptions) check() error {
	if opts.Out == "" {
		return fmt.Errorf("--out is required")
	}
	limit, err := parseBytes("max-memory", opts.MaxMemory)
	if err != nil {
		return err
	}
	gsg := opts.Format == string(generate.LayoutGraphFile)
	need, alt := generate.SBMBytes(opts.sbm(), opts.Features, gsg), "give fewer --nodes"
	switch {
	case opts.Model == "rmat":
		need, alt = generate.RMATBytes(opts.rmat(), gsg), "give a smaller --scale"
	case opts.Model != "sbm":
		return nil
	case 8*opts.Features > 64*opts.Nodes:
		alt = "give fewer --feature-columns"
	}
	if gsg {
		alt = "use --format txt or csv, which stream the edges, or " + strings.TrimPrefix(alt, "give ")
	}
	return checkMemory(need, limit, "the generator's tables", alt)
}

// sbm is the SBM of the flags.
func (opts generateOptions) sbm() generate.SBM {
	cfg := generate.SBM{Nodes: opts.Nodes, Classes: opts.Classes, Sizes: opts.Sizes, Degree: opts.Degree,
		Exponent: opts.Exponent, Mixing: opts.Mixing, NoSelfLoops: opts.NoSelfLoops, Seed: opts.Seed}
	if len(opts.Sizes) > 0 {
		cfg.Classes = 0
	}
	return cfg
}

// rmat is the R-MAT of the flags.
func (opts generateOptions) rmat() generate.RMAT {
	r := generate.RMAT{Scale: opts.Scale, EdgeFactor: opts.EdgeFactor, NoSelfLoops: opts.NoSelfLoops, Seed: opts.Seed}
	if len(opts.ABCD) == 4 {
		r.A, r.B, r.C, r.D = opts.ABCD[0], opts.ABCD[1], opts.ABCD[2], opts.ABCD[3]
	}
	return r
}

// newGenerator builds the generator of --model. A zero --degree,
// --exponent or --edge-factor, the library's "default", is refused: the
// flags give the defaults.
func newGenerator(opts generateOptions) (generate.Generator, error) {
	switch {
	case opts.Model == "sbm" && opts.Degree == 0:
		return nil, fmt.Errorf("generate: --degree 0 is invalid: it must be > 0")
	case opts.Model == "sbm" && opts.Exponent == 0:
		return nil, fmt.Errorf("generate: --exponent 0 is invalid: it must be > 2, or inf")
	case opts.Model == "sbm":
		return generate.NewSBM(opts.sbm())
	case opts.Model != "rmat":
		return nil, fmt.Errorf("generate: unknown model %q: want sbm or rmat", opts.Model)
	case opts.Features > 0:
		return nil, fmt.Errorf("generate: --feature-columns is for sbm; rmat has no classes")
	case len(opts.ABCD) != 4:
		return nil, fmt.Errorf("generate: --abcd takes 4 probabilities a,b,c,d, got %d", len(opts.ABCD))
	case opts.EdgeFactor < 1:
		return nil, fmt.Errorf("generate: --edge-factor %d is invalid: it must be in [1, 2^scale]", opts.EdgeFactor)
	}
	return generate.NewRMAT(opts.rmat())
}
