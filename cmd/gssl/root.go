package main

import (
	"errors"

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

// usageError is a command line gssl cannot run (no command, a bad flag);
// main exits with status 2 for it, 1 for every other error.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func newRoot() *cobra.Command {
	g := &globals{}
	var version bool
	root := &cobra.Command{
		Use:   "gssl",
		Short: "Graph-based semi-supervised learning",
		Long: `gssl: label propagation, spectral methods, STKR, implicit-manifold GPs,
graph kernels and FALKON on sparse graphs.

Every command accepts --json and then prints exactly one JSON object on stdout
(rates as fractions in [0, 1], times in seconds; a number that is undefined is
null, with a reason). Progress and errors go to stderr. Exit status: 0 on
success, 1 when the command fails, 2 when the command line is wrong (no
command, an unknown flag); "gssl --json" with no command prints nothing on
stdout, the error on stderr, and exits with 2.

Without input flags the node-level commands use the copy of Cora embedded in
gssl. docs/cli.md lists the flags shared by all commands.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case version:
				return printVersion(cmd.OutOrStdout(), g.JSON)
			case g.JSON:
				return usageError{errors.New("no command given (gssl --help lists them); --json applies to a command")}
			}
			return cmd.Help()
		},
	}
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { warnDeprecated(cmd.Flags(), cmd.ErrOrStderr()) }
	root.PersistentFlags().BoolVar(&g.JSON, "json", false, "print one JSON object on stdout")
	root.Flags().BoolVar(&version, "version", false, "print gssl's version and build revision (same as gssl version)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	for _, c := range commands {
		root.AddCommand(c(g))
	}
	return root
}
