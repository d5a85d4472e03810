package main

import (
	"github.com/spf13/cobra"
)

// globals are the flags every command shares.
type globals struct {
	JSON bool // print one JSON object on stdout instead of a summary
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
	for _, c := range commands {
		root.AddCommand(c(g))
	}
	return root
}
