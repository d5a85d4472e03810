package main

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/memlimit"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/svm"
)

// svmOptions are the flags of gssl svm (help/svm.md).
type svmOptions struct {
	Points      pointInput
	Labels      pointLabels
	CSV         string  `flag:"csv"`
	Moons       int     `flag:"moons"`
	Noise       float64 `flag:"noise"`
	Seed        uint64  `flag:"seed"`
	TrainPoints int     `flag:"train-points"`
	Model       svmModelFlags
	Out         string `flag:"out"`
	Save        string `flag:"save"`
	MaxMemory   string `flag:"max-memory"`
	JSON        bool
}

// svmModelFlags are the model flags (svm.Spec).
type svmModelFlags = svm.Spec

func newSVMCommand(g *globals) *cobra.Command {
	opts := svmOptions{Moons: 600, Noise: 0.15, Model: svmModelFlags{Kernel: "gaussian", Sigma: 0.5, C: svm.DefaultC, Tol: svm.DefaultTol},
		MaxMemory: defaultMaxMemory()}
	cmd := newCommand("svm", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runSVM(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	return cmd
}

// svmResult is the JSON object of gssl svm.
type svmResult struct {
	protocol.ClassifierReport
	Kernel         string  `json:"kernel"`
	Sigma          float64 `json:"sigma,omitempty"`
	C              float64 `json:"C"`
	SupportVectors int     `json:"support_vectors"`
	Iterations     int     `json:"iterations"`
	Out            string  `json:"out,omitempty"`
	Saved          string  `json:"saved,omitempty"`
}

// runSVM trains the machine on the training points (protocol.FitClassify)
// and prints and writes what it predicts.
func runSVM(ctx context.Context, opts svmOptions, stdout, stderr io.Writer) error {
	model, limit, err := opts.model()
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	opts.Points.Record, ctx = recordTo(ctx, stderr), orBackground(ctx)
	b := memlimit.Budget{Bytes: limit, Name: "--max-memory"}
	data, err := protocol.SVMData{Points: opts.Points, Labels: opts.Labels, CSV: opts.CSV, Moons: opts.Moons, Noise: opts.Noise, Seed: opts.Seed, TrainPoints: opts.TrainPoints}.Load(b)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	n, _ := data.X.Dims()
	if err := protocol.CheckSVMMemory(b, int64(n), int64(rowsOf(data.XTest))); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	run, err := protocol.FitClassify(ctx, model, data)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	res := svmResult{ClassifierReport: protocol.NewClassifierReport(data, run), Kernel: opts.Model.Kernel, C: opts.Model.C,
		SupportVectors: model.SupportVectors(), Iterations: model.Iterations(), Out: opts.Out, Saved: opts.Save}
	if opts.Model.Kernel == "gaussian" {
		res.Sigma = opts.Model.Sigma
	}
	if err := opts.write(data, model, run.Classes); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	logf(stderr, "svm: %s, %d training points, %d support vectors, %d SMO iterations, %.3f s", res.Data, n, res.SupportVectors, res.Iterations, res.FitSeconds)
	return reportSummary(stdout, opts.JSON, "svm", res)
}

// model checks the model, memory and output flags and returns the machine
// (the point model keeps the support points, so its predictions here and
// those of the saved model are the same numbers) and the memory limit.
func (o svmOptions) model() (*svm.PointSVC, int64, error) {
	m, err := o.Model.PointSVC()
	if err != nil {
		return nil, 0, fieldFlagError(err, &o.Model)
	}
	limit, err := parseBytes("max-memory", o.MaxMemory)
	if err != nil {
		return nil, 0, err
	}
	return m, limit, checkOutPaths(o.Out, o.Save)
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
