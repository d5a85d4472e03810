package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
)

// newModelCommand builds gssl model and its subcommand model info FILE
// (savedmodel.Describe).
func newModelCommand(g *globals) *cobra.Command {
	cmd := newCommand("model", nil, func(*cobra.Command, []string) error {
		return usageError{errors.New("model needs a subcommand: gssl model info FILE")}
	})
	info := newCommand("model-info", nil, func(cmd *cobra.Command, args []string) error {
		res, err := savedmodel.Describe(args[0])
		if err != nil {
			return fmt.Errorf("model info: %w", err)
		}
		return reportSummary(cmd.OutOrStdout(), g.JSON, "model-info", res)
	})
	info.Use, info.Args = "info FILE", cobra.ExactArgs(1)
	cmd.AddCommand(info)
	return cmd
}

// printVersion prints the build's version (modelfile.ReadBuild).
func printVersion(cmd *cobra.Command, asJSON bool) error {
	return reportSummary(cmd.OutOrStdout(), asJSON, "version", modelfile.ReadBuild())
}

func newVersionCommand(g *globals) *cobra.Command {
	return newCommand("version", nil, func(cmd *cobra.Command, _ []string) error { return printVersion(cmd, g.JSON) })
}
