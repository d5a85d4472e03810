package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// predictOptions are gssl predict's flags (help/predict.md).
type predictOptions struct {
	Model      string `flag:"model"`
	Edges      string `flag:"edges"`
	Features   string `flag:"features"`
	FeatureIDs string `flag:"feature-ids"`
	Graphs     string `flag:"graphs"`
	Header     string `flag:"header"`
	Weight     string `flag:"weight"`
	Source     string `flag:"source"`
	Target     string `flag:"target"`
	Out        string `flag:"out"`
	JSON       bool
}

func newPredictCommand(g *globals) *cobra.Command {
	opts := predictOptions{Header: "auto"}
	return newCommand("predict", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runPredict(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// predictResult is gssl predict's JSON object.
type predictResult = savedmodel.AnswerReport

// runPredict answers the files of opts with the saved model
// (savedmodel.Saved.PredictFiles) and writes its table.
func runPredict(ctx context.Context, opts predictOptions, stdout, stderr io.Writer) error {
	if opts.Model == "" {
		return usageError{errors.New("predict: --model FILE is required (a model saved by --save)")}
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	header, err := protocol.ParseHeader(opts.Header)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	s, err := savedmodel.Open(opts.Model)
	if err != nil {
		return fmt.Errorf("predict: --model %w", err)
	}
	meta := s.Metadata()
	q := savedmodel.Query{Edges: opts.Edges, Features: opts.Features, FeatureIDs: opts.FeatureIDs, Graphs: opts.Graphs,
		Table: loaders.EdgeTableOptions{Table: loaders.TableOptions{Header: header}, Weight: opts.Weight, Source: opts.Source, Target: opts.Target}}
	if err := q.CheckFor(s); errors.Is(err, savedmodel.ErrQueryUsage) {
		return usageError{err}
	} else if err != nil {
		return err
	}
	a, err := s.PredictFiles(ctx, q)
	if err != nil {
		return fmt.Errorf("predict: %w", q.FlagError(err))
	}
	recordInputs(ctx, stderr, a.Reports...)
	for _, n := range a.Notes {
		logf(stderr, "predict: %s", n)
	}
	res := a.Report(opts.Model, meta)
	res.Out = opts.Out
	cols, row := a.Table(meta)
	switch {
	case opts.Out != "":
		if err := writeTable(opts.Out, cols, len(a.Predictions), row); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		return reportSummary(stdout, opts.JSON, "predict", res)
	case opts.JSON:
		res.Predictions = a.Predictions
		return report(stdout, true, res, nil)
	}
	return loaders.WriteTable(stdout, false, cols, len(a.Predictions), row)
}
