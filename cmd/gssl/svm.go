package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/svm"
)

// svmOptions are the flags of gssl svm (help/svm.md).
type svmOptions struct {
	protocol.SVMData
	Model     svmModelFlags
	Out       string `flag:"out"`
	Save      string `flag:"save"`
	MaxMemory string `flag:"max-memory"`
	JSON      bool
}

// svmModelFlags are the model flags (svm.Spec).
type svmModelFlags = svm.Spec

func newSVMCommand(g *globals) *cobra.Command {
	opts := svmOptions{SVMData: protocol.SVMData{Moons: 600, Noise: 0.15}, Model: svm.DefaultSpec(), MaxMemory: defaultMaxMemory()}
	return newCommand("svm", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runSVM(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// svmResult is the JSON object of gssl svm.
type svmResult struct{ protocol.SVMReport }

// runSVM trains the machine on the training points (protocol.FitClassify)
// and prints and writes what it predicts.
func runSVM(ctx context.Context, opts svmOptions, stdout, stderr io.Writer) error {
	// The point model keeps the support points, so its predictions here and
	// those of the saved model are the same numbers.
	model, err := opts.Model.PointSVC()
	b, berr := budget(opts.MaxMemory)
	if err = firstError(fieldFlagError(err, &opts.Model), berr, checkOutPaths(opts.Out, opts.Save)); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	opts.Points.Record = recordTo(ctx, stderr)
	data, err := opts.SVMData.Load(b)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	run, err := protocol.FitClassify(ctx, model, data)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	res := svmResult{protocol.NewSVMReport(opts.Model, model, data, run)}
	res.Out, res.Saved = opts.Out, opts.Save
	if err := opts.write(data, model, run.Classes); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	logf(stderr, "svm: %s, %d training points, %d support vectors, %d SMO iterations, %.3f s", res.Data, res.Train, res.SupportVectors, res.Iterations, res.FitSeconds)
	return reportSummary(stdout, opts.JSON, "svm", res)
}

// write writes --out (protocol.SVMTable) and --save.
func (o svmOptions) write(data *protocol.PointTask, model *svm.PointSVC, pred []int) error {
	if o.Out != "" {
		tb, err := protocol.SVMTable(data, model, pred)
		if err == nil {
			err = writePredictions(o.Out, tb)
		}
		if err != nil {
			return err
		}
	}
	cls := model.Classes()
	names := data.ClassNames[:min(len(data.ClassNames), cls[len(cls)-1]+1)]
	return savePointModel(o.Save, model, savedmodel.Context{ClassNames: names, Data: data.Name})
}
