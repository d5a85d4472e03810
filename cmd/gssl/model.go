package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/savedmodel"
)

func newModelCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Inspect saved models (.gssl files written by --save)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageError{fmt.Errorf("model needs a subcommand: gssl model info FILE")}
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "info FILE",
		Short: "Describe a saved model: kind, writer, hyperparameters, classes, sections",
		Long: `model info checks a saved model (magic, version, checksums, the model's own
arrays) and describes it: the model kind and layout version, the gssl build that
wrote it, the hyperparameters and fit counters, the classes, the node ids and the
file's sections. docs/modelfile.md describes the format.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runModelInfo(args[0], g.JSON, cmd.OutOrStdout())
		},
	})
	return cmd
}

// modelInfo is gssl model info's JSON object.
type modelInfo = savedmodel.Description

func runModelInfo(path string, asJSON bool, stdout io.Writer) error {
	res, err := savedmodel.Describe(path)
	if err != nil {
		return fmt.Errorf("model info: %w", err)
	}
	return report(stdout, asJSON, res, func(w io.Writer) { printModelInfo(w, *res) })
}

func printModelInfo(w io.Writer, r modelInfo) {
	fmt.Fprintf(w, "%s: a %s model (layout %d), %s\n", r.Path, r.Kind, r.KindVersion, r.Task)
	fmt.Fprintf(w, "  written by     %s\n", r.Writer)
	fmt.Fprintf(w, "  file           %d bytes, format version %d, sha256 %s\n", r.Bytes, r.FormatVersion, r.SHA256)
	if r.Data != "" {
		fmt.Fprintf(w, "  fitted on      %s\n", r.Data)
	}
	if r.Graphs > 0 {
		fmt.Fprintf(w, "  graphs         %d training graphs (new ones: gssl predict --graphs DIR)\n", r.Graphs)
	} else {
		fmt.Fprintf(w, "  nodes          %d (ids like %s)\n", r.Nodes, strings.Join(r.ExampleIDs, ", "))
	}
	if len(r.Classes) > 0 {
		fmt.Fprintf(w, "  classes        %d: %s\n", len(r.Classes), strings.Join(r.Classes, ", "))
	}
	fmt.Fprintf(w, "  metadata       %s\n", r.Metadata)
	fmt.Fprintf(w, "  sections\n")
	for _, s := range r.Sections {
		fmt.Fprintf(w, "    %-20s %-8s %d\n", s.Name, s.Type, s.Len)
	}
}
