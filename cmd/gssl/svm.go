package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/svm"
)

// svmOptions are the flags of gssl svm.
type svmOptions struct {
	CSV    string  // points with the class in the last column; empty: two moons
	N      int     // two-moons points
	Noise  float64 // two-moons noise
	Seed   uint64  // two-moons seed
	Train  int     // the first Train points train, the rest test; 0 means half
	Kernel string  // gaussian or linear
	Sigma  float64 // Gaussian bandwidth
	C      float64 // box constraint
	Tol    float64 // SMO tolerance
	JSON   bool
}

func init() { register(newSVMCommand) }

func newSVMCommand(g *globals) *cobra.Command {
	opts := svmOptions{}
	cmd := &cobra.Command{
		Use:   "svm",
		Short: "C-SVM (SMO) on points: the course's two-moons example or a CSV file",
		Long: `svm trains a C-support vector classifier, solved by SMO with second-order working-set
selection, on points in R^d with a Gaussian or linear kernel, and reports its test
accuracy. Without --csv it draws the course's two moons (scikit-learn's make_moons with
--noise, seeded by --seed) and trains on the first half. A CSV file holds one point per
line, the class (an integer) in the last column; the first --train rows train.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runSVM(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.CSV, "csv", "", "points file (CSV; class in the last column); empty draws two moons")
	f.IntVar(&opts.N, "n", 600, "two-moons points")
	f.Float64Var(&opts.Noise, "noise", 0.15, "two-moons noise (standard deviation)")
	f.Uint64Var(&opts.Seed, "seed", 0, "two-moons seed")
	f.IntVar(&opts.Train, "train", 0, "training points (the first ones); 0 means half")
	f.StringVar(&opts.Kernel, "kernel", "gaussian", "kernel: gaussian or linear")
	f.Float64Var(&opts.Sigma, "sigma", 0.5, "Gaussian kernel bandwidth σ")
	f.Float64Var(&opts.C, "C", 1, "box constraint C > 0")
	f.Float64Var(&opts.Tol, "tol", svm.DefaultTol, "SMO stopping tolerance on the maximal KKT violation")
	return cmd
}

// svmResult is the JSON object of gssl svm.
type svmResult struct {
	Data           string  `json:"data"`
	Points         int     `json:"points"`
	Dims           int     `json:"dims"`
	Classes        int     `json:"classes"`
	Train          int     `json:"train"`
	Test           int     `json:"test"`
	Kernel         string  `json:"kernel"`
	Sigma          float64 `json:"sigma,omitempty"`
	C              float64 `json:"C"`
	Accuracy       any     `json:"accuracy"`
	TrainAccuracy  any     `json:"train_accuracy"`
	SupportVectors int     `json:"support_vectors"`
	Iterations     int     `json:"iterations"`
	FitSeconds     float64 `json:"fit_seconds"`
}

func runSVM(ctx context.Context, opts svmOptions, stdout, stderr io.Writer) error {
	var k kernel.Kernel
	switch opts.Kernel {
	case "gaussian":
		k = kernel.Gaussian{Sigma: opts.Sigma}
	case "linear":
		k = kernel.Linear{}
	default:
		return fmt.Errorf("svm: --kernel %q is invalid: want gaussian or linear", opts.Kernel)
	}
	if err := k.Validate(); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	if !(opts.C > 0) || math.IsInf(opts.C, 0) {
		return fmt.Errorf("svm: --C %v is invalid: it must be finite and > 0", opts.C)
	}
	var (
		x      *mat.Dense
		labels []int
		err    error
		res    = svmResult{Kernel: opts.Kernel, C: opts.C}
	)
	if opts.CSV == "" {
		x, labels, err = svm.TwoMoons(opts.N, opts.Noise, opts.Seed)
		res.Data = fmt.Sprintf("two-moons(n=%d, noise=%g, seed=%d)", opts.N, opts.Noise, opts.Seed)
	} else {
		x, labels, err = readLabelledPoints(opts.CSV)
		res.Data = opts.CSV
	}
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	n, d := x.Dims()
	train := opts.Train
	if train == 0 {
		train = n / 2
	}
	if train < 2 || train >= n {
		return fmt.Errorf("svm: --train %d is invalid: it must be in [2, %d) for %d points (0 means half)", opts.Train, n, n)
	}
	if opts.Kernel == "gaussian" {
		res.Sigma = opts.Sigma
	}
	res.Points, res.Dims, res.Classes, res.Train, res.Test = n, d, eval.Classes(labels), train, n-train
	full, err := kernel.Gram(k, x, x)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	tr, te := make([]int, train), make([]int, n-train)
	for i := range tr {
		tr[i] = i
	}
	for i := range te {
		te[i] = train + i
	}
	ktr := svm.SubGram(full, tr)
	m := &svm.SVC{C: opts.C, Settings: svm.Settings{Tol: opts.Tol}}
	start := time.Now()
	if err := m.Fit(ctx, ktr, labels[:train]); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	res.FitSeconds = seconds(start)
	res.SupportVectors, res.Iterations = m.SupportVectors(), m.Iterations()
	for _, part := range []struct {
		idx []int
		dst *any
	}{{te, &res.Accuracy}, {tr, &res.TrainAccuracy}} {
		pred, err := m.Predict(svm.SubCross(full, part.idx, tr))
		if err != nil {
			return fmt.Errorf("svm: %w", err)
		}
		all := make([]int, n)
		for i := range all {
			all[i] = -1
		}
		for p, i := range part.idx {
			all[i] = pred[p]
		}
		acc, err := eval.Accuracy(all, labels, part.idx)
		if err != nil {
			return fmt.Errorf("svm: %w", err)
		}
		*part.dst = finite(acc)
	}
	logf(stderr, "svm: %s, %d training points, %d support vectors, %d SMO iterations, %.3f s", res.Data, train, res.SupportVectors, res.Iterations, res.FitSeconds)
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d points in R^%d, %d classes; train %d, test %d\n", res.Data, n, d, res.Classes, train, n-train)
		fmt.Fprintf(w, "  kernel          %s", res.Kernel)
		if res.Kernel == "gaussian" {
			fmt.Fprintf(w, " (σ = %g)", res.Sigma)
		}
		fmt.Fprintf(w, ", C = %g\n", res.C)
		acc, _ := res.Accuracy.(float64)
		trainAcc, _ := res.TrainAccuracy.(float64)
		fmt.Fprintf(w, "  test accuracy   %.2f %%\n", 100*acc)
		fmt.Fprintf(w, "  train accuracy  %.2f %%\n", 100*trainAcc)
		fmt.Fprintf(w, "  support vectors %d (%d SMO iterations, %.3f s)\n", res.SupportVectors, res.Iterations, res.FitSeconds)
	})
}

// readLabelledPoints reads a CSV of points whose last column is an integer
// class ≥ 0.
func readLabelledPoints(path string) (*mat.Dense, []int, error) {
	all, err := loaders.ReadDense(path)
	if err != nil {
		return nil, nil, err
	}
	n, c := all.Dims()
	if c < 2 {
		return nil, nil, fmt.Errorf("%s: %d column, want the coordinates and then the class", path, c)
	}
	labels := make([]int, n)
	for i := range labels {
		v := all.At(i, c-1)
		if v != math.Trunc(v) || v < 0 || v > math.MaxInt32 {
			return nil, nil, fmt.Errorf("%s: data row %d: class %v in the last column is not a non-negative integer", path, i+1, v)
		}
		labels[i] = int(v)
	}
	return mat.DenseCopyOf(all.Slice(0, n, 0, c-1)), labels, nil
}
