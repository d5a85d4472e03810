package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/modelfile"
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
type modelInfo struct {
	Path          string                  `json:"path"`
	Bytes         int64                   `json:"bytes"`
	SHA256        string                  `json:"sha256"`
	FormatVersion int                     `json:"format_version"`
	Kind          string                  `json:"kind"`
	KindVersion   int                     `json:"kind_version"`
	Writer        string                  `json:"writer"`
	Task          string                  `json:"task"`
	Nodes         int                     `json:"nodes"`
	Graphs        int                     `json:"graphs,omitempty"` // training graphs of a model of graphs
	Classes       []string                `json:"classes,omitempty"`
	ExampleIDs    []string                `json:"example_ids,omitempty"`
	Data          string                  `json:"data,omitempty"`
	GraphSHA256   string                  `json:"graph_sha256,omitempty"`
	Metadata      json.RawMessage         `json:"metadata"`
	Sections      []modelfile.SectionInfo `json:"sections"`
}

func runModelInfo(path string, asJSON bool, stdout io.Writer) error {
	s, err := savedmodel.Open(path)
	if err != nil {
		return fmt.Errorf("model info: %w", err)
	}
	st, err := inputfile.Stat(path)
	if err != nil {
		return fmt.Errorf("model info: %w", err)
	}
	sum, err := modelfile.FileSHA256(path)
	if err != nil {
		return fmt.Errorf("model info: %w", err)
	}
	f, meta, c := s.File(), s.Metadata(), s.Context()
	res := modelInfo{Path: path, Bytes: st.Size(), SHA256: sum, FormatVersion: modelfile.FormatVersion, Kind: f.Kind,
		KindVersion: f.KindVersion, Writer: f.Writer, Task: string(meta.Task), Nodes: meta.Nodes, Graphs: meta.Graphs, Classes: meta.Classes,
		ExampleIDs: meta.ExampleIDs, Data: c.Data, GraphSHA256: c.GraphSHA256, Metadata: f.Metadata, Sections: f.Sections()}
	return report(stdout, asJSON, res, func(w io.Writer) { printModelInfo(w, res) })
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
