package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/persist"
)

// fitOptions are gssl fit's flags (help/fit.md).
type fitOptions struct {
	Kind string   `flag:"kind"`
	Set  []string `flag:"set"`
	Save string   `flag:"save"`
	Out  string   `flag:"out"`
	JSON bool
	In   nodeInput
}

func newFitCommand(g *globals) *cobra.Command {
	opts := fitOptions{In: newNodeInput()}
	return newCommand("fit", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runFit(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// fitResult is gssl fit's JSON object.
type fitResult struct {
	Kind      string         `json:"kind"`
	Data      string         `json:"data"`
	Nodes     int            `json:"nodes"`
	Labelled  int            `json:"labelled"`
	Classes   int            `json:"classes"`
	Predicted map[string]int `json:"predicted"` // nodes per predicted class name
	Info      estimator.Info `json:"info"`
	Saved     string         `json:"saved,omitempty"`
	Out       string         `json:"out,omitempty"`
}

// runFit builds the model of --kind (persist.NewNodeClassifier), fits it,
// writes its scores and saves it.
func runFit(ctx context.Context, opts fitOptions, stdout, stderr io.Writer) error {
	if opts.Kind == "" {
		return usageError{fmt.Errorf("fit: --kind is required: one of %s", strings.Join(persist.NodeClassifierKinds(), ", "))}
	}
	m, err := persist.NewNodeClassifier(opts.Kind)
	if err != nil {
		return fmt.Errorf("fit: --kind %s: %w", opts.Kind, err)
	}
	for _, p := range opts.Set {
		name, value, ok := strings.Cut(p, "=")
		if err = errors.New("want Field=value"); ok && name != "" {
			err = persist.SetParam(m, name, value)
		}
		if err != nil {
			return fmt.Errorf("fit: --set %s: %w", p, err)
		}
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("fit: --set: %w", err)
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
	if err := m.Fit(ctx, ds.EstimatorNodes(), ds.Labels); err != nil {
		return fmt.Errorf("fit: %s: %w", opts.Kind, err)
	}
	scores, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return fmt.Errorf("fit: %s: %w", opts.Kind, err)
	}
	_, classes := scores.Dims()
	pred := estimator.Argmax(scores)
	res := fitResult{Kind: opts.Kind, Data: opts.In.source(), Nodes: len(pred), Labelled: len(ds.Labelled()), Classes: classes,
		Predicted: map[string]int{}, Info: m.Info(), Out: opts.Out, Saved: opts.Save}
	cols := []string{"id", "predicted"}
	for c := range classes {
		cols = append(cols, "score_"+className(ds, c))
	}
	for _, c := range pred {
		res.Predicted[className(ds, c)]++
	}
	if opts.Out != "" {
		err := writeTable(opts.Out, cols, len(pred), func(r int, rec []any) {
			rec[0], rec[1] = nodeID(ds, r), className(ds, pred[r])
			for c := range classes {
				rec[2+c] = scores.At(r, c)
			}
		})
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	if opts.Save != "" {
		if err := saveModel(opts.Save, m, ds, opts.In); err != nil {
			return err
		}
	}
	return reportSummary(stdout, opts.JSON, "fit", res)
}
