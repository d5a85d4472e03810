package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
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

// svmModelFlags are svm.Spec's fields, in its order (the types convert).
type svmModelFlags struct {
	Kernel string  `flag:"kernel"`
	Sigma  float64 `flag:"sigma"`
	C      float64 `flag:"c"`
	Tol    float64 `flag:"tol"`
}

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
	data, err := opts.task(orBackground(ctx), stderr, limit)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	n, _ := data.X.Dims()
	if err := checkSVMMemory(int64(n), int64(rowsOf(data.XTest)), limit); err != nil {
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
	m, err := svm.Spec(o.Model).PointSVC()
	if err != nil {
		return nil, 0, fieldFlagError(err, &o.Model)
	}
	limit, err := parseBytes("max-memory", o.MaxMemory)
	if err != nil {
		return nil, 0, err
	}
	return m, limit, checkOutPaths(o.Out, o.Save)
}

// task reads the user's points, --csv or draws two moons (refused above
// limit before they are drawn), and splits them into training points and
// points to predict.
func (o svmOptions) task(ctx context.Context, stderr io.Writer, limit int64) (*protocol.PointTask, error) {
	if o.Points.given() || o.Labels.given() {
		if o.CSV != "" {
			return nil, errors.New("give either --features/--labels or --csv")
		}
		p, err := o.Points.load(ctx, stderr, "labels", o.Labels.Labels, o.Labels.TestLabels)
		if err != nil {
			return nil, err
		}
		t, err := protocol.NewPointTask(p, true)
		if err == nil && t.XTest == nil {
			return nil, errors.New("nothing to predict: give rows with a blank label or --test-features")
		}
		return t, err
	}
	var x *mat.Dense
	var labels []int
	var err error
	name := o.CSV
	if o.CSV == "" {
		train := int64(o.TrainPoints)
		if train <= 0 {
			train = int64(o.Moons / 2)
		}
		if err := checkSVMMemory(train, int64(o.Moons)-train, limit); err != nil {
			return nil, err
		}
		x, labels, err = svm.TwoMoons(o.Moons, o.Noise, o.Seed)
		name = fmt.Sprintf("two-moons(n=%d, noise=%g, seed=%d)", o.Moons, o.Noise, o.Seed)
	} else {
		x, labels, err = loaders.ReadLabelledPoints(o.CSV)
	}
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	train := o.TrainPoints
	if train == 0 {
		train = n / 2
	}
	if train < 2 || train >= n {
		return nil, fmt.Errorf("--train-points %d is invalid: it must be in [2, %d) for %d points (0 means half)", o.TrainPoints, n, n)
	}
	return protocol.FirstRowsTask(name, x, labels, train)
}

// checkSVMMemory refuses the dense kernel matrices of n training and m
// predicted points above limit: K_train as a dense and a symmetric copy,
// and the m × n cross matrix.
func checkSVMMemory(n, m, limit int64) error {
	return checkMemory(8*(2*n*n+m*n), limit, fmt.Sprintf("the dense kernel matrices of %d training and %d predicted points", n, m),
		"train on fewer points (--train-points), or use gssl falkon (Nyström kernel ridge regression, memory n·M)")
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
