package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/protocol"
)

// fitOptions are gssl fit's flags (help/fit.md).
type fitOptions struct {
	Kind  string   `flag:"kind"`
	Set   []string `flag:"set"`
	Split string   `flag:"split"`
	Seed  uint64   `flag:"seed"`
	Save  string   `flag:"save"`
	Out   string   `flag:"out"`
	JSON  bool
	In    nodeInput
}

func newFitCommand(g *globals) *cobra.Command {
	opts := fitOptions{In: newNodeInput(), Split: "none"}
	return newCommand("fit", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runFit(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// fitResult is gssl fit's JSON object.
type fitResult = protocol.FitReport

// runFit builds the model of --kind (persist.NewNodeClassifier), fits and
// scores it (protocol.FitNodes: every label, or --split's training labels
// scored on its validation and test nodes), writes its scores, saves it.
func runFit(ctx context.Context, opts fitOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if opts.Kind == "" {
		return usageError{fmt.Errorf("fit: --kind is required: one of %s", strings.Join(persist.NodeClassifierKinds(), ", "))}
	}
	m, err := persist.NewNodeClassifier(opts.Kind)
	if err != nil {
		return fmt.Errorf("fit: --kind %s: %w", opts.Kind, err)
	}
	if err := persist.SetParams(m, opts.Set); err != nil {
		return fmt.Errorf("fit: --set %w", err)
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("fit: --set: %w", err)
	}
	spec, err := parseSplitFlag(opts.Split)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if err := checkOutputs("fit", "save", opts.Save, "out", opts.Out); err != nil {
		return err
	}
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer ds.Close()
	if err := needLabels(ds); err != nil {
		return err
	}
	split, err := protocol.FitSplit(spec, ds, opts.In.source(), opts.Seed)
	if err != nil {
		return fmt.Errorf("fit: --split %s: %w", opts.Split, err)
	}
	load, fitStart := seconds(start), timeNow()
	scores, res, err := protocol.FitNodes(ctx, opts.Kind, m, ds, split, opts.In.source())
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	res.LoadSeconds, res.FitSeconds = load, seconds(fitStart)
	if split != nil {
		res.Split = opts.Split
	}
	res.Seconds = seconds(start)
	res.Out, res.Saved = opts.Out, opts.Save
	if cols, rows, row := protocol.ScoreTable(ds, scores); opts.Out != "" {
		if err := writeTable(opts.Out, cols, rows, row); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	if opts.Save != "" {
		if err := saveCalibrated(opts.Save, m, ds, opts.In, nil); err != nil {
			return err
		}
	}
	return reportSummary(stdout, opts.JSON, "fit", res)
}
