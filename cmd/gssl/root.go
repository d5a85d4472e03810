package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/internal/parallel"
)

// globals are the flags every command shares.
type globals struct {
	JSON bool          // print one JSON object on stdout instead of a summary
	Spin time.Duration // how long idle worker goroutines poll before they park
}

// configureParallel maps --spin (or, when the flag is not given, the
// environment variable GSSL_SPIN) to parallel.Configure. A spin of 0 parks
// idle workers at once.
func configureParallel(spin time.Duration, given bool, env string) error {
	if !given && env != "" {
		d, err := time.ParseDuration(env)
		if err != nil || d < 0 {
			return fmt.Errorf("GSSL_SPIN=%q is invalid: it must be a duration ≥ 0 such as 0, 50us or 1ms", env)
		}
		spin = d
	}
	if spin < 0 {
		return fmt.Errorf("--spin=%v is invalid: it must be a duration ≥ 0 such as 0, 50us or 1ms", spin)
	}
	c := parallel.Config{Spin: spin}
	if spin == 0 {
		c.Spin = -1 // park at once
	}
	return parallel.Configure(c)
}

// commands holds the constructors of the subcommands; each command's file
// registers its own in init, so commands live in separate files.
var commands []func(*globals) *cobra.Command

func register(c func(*globals) *cobra.Command) { commands = append(commands, c) }

func newRoot() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "gssl",
		Short: "Graph-based semi-supervised learning",
		Long: `gssl: label propagation, spectral methods, STKR, implicit-manifold GPs,
graph kernels and FALKON on sparse graphs.

Every command accepts --json and then prints exactly one JSON object on stdout
(rates as fractions in [0, 1], times in seconds). Progress goes to stderr.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().BoolVar(&g.JSON, "json", false, "print one JSON object on stdout")
	root.PersistentFlags().DurationVar(&g.Spin, "spin", parallel.DefaultSpin,
		"how long idle worker goroutines poll for work before they park (0: at once, for machines shared with other work); default from GSSL_SPIN")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		f := cmd.Flag("spin")
		return configureParallel(g.Spin, f != nil && f.Changed, os.Getenv("GSSL_SPIN"))
	}
	for _, c := range commands {
		root.AddCommand(c(g))
	}
	return root
}
