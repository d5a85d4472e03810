package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/generate"
)

// generateOptions are the flags of gssl generate (help/generate.md): the
// data set (generate.Spec, its model the argument) and the memory bound.
type generateOptions struct {
	generate.Spec
	MaxMemory string `flag:"max-memory"`
	JSON      bool
}

func newGenerateCommand(g *globals) *cobra.Command {
	opts := generateOptions{Spec: generate.DefaultSpec(), MaxMemory: defaultMaxMemory()}
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

// runGenerate refuses a missing --out and, before anything is allocated,
// a graph whose tables pass --max-memory, then writes the data set
// (generate.Spec.Write).
func runGenerate(ctx context.Context, opts generateOptions, stdout, _ io.Writer) error {
	start := timeNow()
	if opts.Out == "" {
		return fmt.Errorf("generate: --out is required")
	}
	limit, err := parseBytes("max-memory", opts.MaxMemory)
	if err == nil {
		need, lower := opts.MemoryBytes()
		err = checkMemory(need, limit, "the generator's tables", lower)
	}
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	rep := generateReport{Model: opts.Model, Seed: opts.Seed}
	if rep.Written, err = opts.Write(ctx); err != nil {
		return err
	}
	rep.Seconds = seconds(start)
	return reportSummary(stdout, opts.JSON, "generate", rep)
}
