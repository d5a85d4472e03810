package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/svm"
)

// svmOptions are the flags of gssl svm.
type svmOptions struct {
	CSV       string // points with the class in the last column; empty: two moons
	Points    pointInput
	N         int     // two-moons points
	Noise     float64 // two-moons noise
	Seed      uint64  // two-moons seed
	Train     int     // the first Train points train, the rest test; 0 means half
	Kernel    string  // gaussian or linear
	Sigma     float64 // Gaussian bandwidth
	C         float64 // box constraint
	Tol       float64 // SMO tolerance
	Out       string
	Save      string // model file (--save)
	MaxMemory string
	JSON      bool
}

func newSVMCommand(g *globals) *cobra.Command {
	opts := svmOptions{}
	cmd := &cobra.Command{
		Use:   "svm",
		Short: "C-SVM (SMO) on points: yours, a CSV with the class last, or the course's two moons",
		Long: `svm trains a C-support vector classifier, solved by SMO with second-order working-set
selection, on points in R^d with a Gaussian or linear kernel, and reports its test
accuracy. Data, one of:

  --features FILE --labels FILE   your points and one class per row (names or integers);
                                  rows with a blank label are predicted, and so is every
                                  row of --test-features (--test-labels scores them)
  --csv FILE                      one point per line, the class (an integer) in the last
                                  column; the first --train rows train, the rest test
  (nothing)                       the course's two moons (scikit-learn's make_moons with
                                  --n, --noise, --seed); the first half trains

The kernel matrices are dense: 8·(2n² + m·n) bytes for n training and m predicted
points, refused above --max-memory. --out FILE writes one row per predicted point:
id, prediction, the decision value of every one-vs-one machine, the true class when
known (CSV, or JSON Lines for .jsonl/.ndjson).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runSVM(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.Points.addFlags(f, "labels")
	f.StringVar(&opts.CSV, "csv", "", "points file (CSV; class in the last column); empty draws two moons")
	f.IntVar(&opts.N, "n", 600, "two-moons points")
	f.Float64Var(&opts.Noise, "noise", 0.15, "two-moons noise (standard deviation)")
	f.Uint64Var(&opts.Seed, "seed", 0, "two-moons seed")
	f.IntVar(&opts.Train, "train", 0, "training points (the first ones; --csv and two moons); 0 means half")
	f.StringVar(&opts.Kernel, "kernel", "gaussian", "kernel: gaussian or linear")
	f.Float64Var(&opts.Sigma, "sigma", 0.5, "Gaussian kernel bandwidth σ")
	f.Float64Var(&opts.C, "c", svm.DefaultC, "box constraint C > 0")
	f.Float64Var(&opts.Tol, "tol", svm.DefaultTol, "SMO stopping tolerance on the maximal KKT violation")
	f.StringVar(&opts.Out, "out", "", "write the predictions, one row per predicted point (CSV, or JSON Lines for .jsonl/.ndjson)")
	f.StringVar(&opts.Save, "save", "", "save the fitted model (support points, duals, biases, kernel) for gssl predict --features and gssl serve")
	f.StringVar(&opts.MaxMemory, "max-memory", defaultMaxMemory(), "refuse kernel matrices larger than this")
	renamedFlag(cmd, "C", "c")
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
	AccuracyReason string  `json:"accuracy_reason,omitempty"`
	TrainAccuracy  any     `json:"train_accuracy"`
	SupportVectors int     `json:"support_vectors"`
	Iterations     int     `json:"iterations"`
	FitSeconds     float64 `json:"fit_seconds"`
	Out            string  `json:"out,omitempty"`
	Saved          string  `json:"saved,omitempty"`
}

// svmTask reads the user's points, --csv or draws two moons, and splits
// them into training points and points to predict.
func svmTask(opts svmOptions) (*protocol.PointTask, error) {
	if opts.Points.given() {
		if opts.CSV != "" {
			return nil, fmt.Errorf("give either --features/--labels or --csv")
		}
		p, err := opts.Points.load("labels")
		if err != nil {
			return nil, err
		}
		t, err := protocol.NewPointTask(p, true)
		if err == nil && t.XTest == nil {
			return nil, fmt.Errorf("nothing to predict: give rows with a blank label or --test-features")
		}
		return t, err
	}
	var (
		x      *mat.Dense
		labels []int
		err    error
		name   = opts.CSV
	)
	if opts.CSV == "" {
		x, labels, err = svm.TwoMoons(opts.N, opts.Noise, opts.Seed)
		name = fmt.Sprintf("two-moons(n=%d, noise=%g, seed=%d)", opts.N, opts.Noise, opts.Seed)
	} else {
		x, labels, err = loaders.ReadLabelledPoints(opts.CSV)
	}
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	train := opts.Train
	if train == 0 {
		train = n / 2
	}
	if train < 2 || train >= n {
		return nil, fmt.Errorf("--train %d is invalid: it must be in [2, %d) for %d points (0 means half)", opts.Train, n, n)
	}
	return protocol.FirstRowsTask(name, x, labels, train)
}

func runSVM(ctx context.Context, opts svmOptions, stdout, stderr io.Writer) error {
	k, err := svmKernel(opts)
	if err != nil {
		return err
	}
	limit, err := parseBytes("max-memory", opts.MaxMemory)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	if err := checkOutPaths("svm", opts.Out, opts.Save); err != nil {
		return err
	}
	if opts.CSV == "" && !opts.Points.given() {
		// Two moons: refuse before drawing the points.
		train := int64(opts.Train)
		if train <= 0 {
			train = int64(opts.N / 2)
		}
		if err := checkSVMMemory(train, int64(opts.N)-train, limit); err != nil {
			return err
		}
	}
	data, err := svmTask(opts)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	n, d := data.X.Dims()
	m := rowsOf(data.XTest)
	if err := checkSVMMemory(int64(n), int64(m), limit); err != nil {
		return err
	}
	// The point model keeps the support points, so its predictions here
	// and those of the saved model are the same numbers.
	model := &svm.PointSVC{Kernel: k, C: opts.C, Settings: svm.Settings{Tol: opts.Tol}}
	run, err := protocol.FitClassify(ctx, model, data)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	res := svmResult{Data: data.Name, Kernel: opts.Kernel, C: opts.C, Points: n + m, Dims: d, Classes: len(data.ClassNames), Train: n, Test: m,
		FitSeconds: run.Fit.Seconds(), SupportVectors: model.SupportVectors(), Iterations: model.Iterations(),
		TrainAccuracy: finite(run.TrainAccuracy), Accuracy: finite(run.Accuracy), AccuracyReason: run.Reason}
	if opts.Kernel == "gaussian" {
		res.Sigma = opts.Sigma
	}
	if err := writeSVMOutputs(opts, data, model, run.Classes, &res); err != nil {
		return err
	}
	logf(stderr, "svm: %s, %d training points, %d support vectors, %d SMO iterations, %.3f s", res.Data, n, res.SupportVectors, res.Iterations, res.FitSeconds)
	return report(stdout, opts.JSON, res, func(w io.Writer) { printSVM(w, res) })
}

// writeSVMOutputs writes --out and --save.
func writeSVMOutputs(opts svmOptions, data *protocol.PointTask, model *svm.PointSVC, pred []int, res *svmResult) error {
	if opts.Out != "" {
		if err := writeSVMRows(opts.Out, data, model, pred); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		cls := model.Classes()
		names := data.ClassNames[:min(len(data.ClassNames), cls[len(cls)-1]+1)]
		if err := savedmodel.Save(opts.Save, model, savedmodel.Context{ClassNames: names, Data: data.Name}); err != nil {
			return fmt.Errorf("svm: --save %w", err)
		}
		res.Saved = opts.Save
	}
	return nil
}

// svmKernel checks the kernel and C flags.
func svmKernel(opts svmOptions) (kernel.Kernel, error) {
	var k kernel.Kernel
	switch opts.Kernel {
	case "gaussian":
		k = kernel.Gaussian{Sigma: opts.Sigma}
	case "linear":
		k = kernel.Linear{}
	default:
		return nil, fmt.Errorf("svm: --kernel %q is invalid: want gaussian or linear", opts.Kernel)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	if !(opts.C > 0) || math.IsInf(opts.C, 0) {
		return nil, fmt.Errorf("svm: --c %v is invalid: it must be finite and > 0", opts.C)
	}
	return k, nil
}

func printSVM(w io.Writer, res svmResult) {
	fmt.Fprintf(w, "%s: %d points in R^%d, %d classes; train %d, test %d\n", res.Data, res.Points, res.Dims, res.Classes, res.Train, res.Test)
	fmt.Fprintf(w, "  kernel          %s", res.Kernel)
	if res.Kernel == "gaussian" {
		fmt.Fprintf(w, " (σ = %g)", res.Sigma)
	}
	fmt.Fprintf(w, ", C = %g\n", res.C)
	fmt.Fprintf(w, "  test accuracy   %s\n", fmtPercent(res.Accuracy))
	fmt.Fprintf(w, "  train accuracy  %s\n", fmtPercent(res.TrainAccuracy))
	fmt.Fprintf(w, "  support vectors %d (%d SMO iterations, %.3f s)\n", res.SupportVectors, res.Iterations, res.FitSeconds)
	if res.Saved != "" {
		fmt.Fprintf(w, "  model saved to %s (gssl predict --model %s --features FILE)\n", res.Saved, res.Saved)
	}
}

// checkSVMMemory refuses the dense kernel matrices of n training and m
// predicted points above limit: K_train as a dense and a symmetric copy,
// and the m × n cross matrix.
func checkSVMMemory(n, m, limit int64) error {
	need := 8 * (2*n*n + m*n)
	if err := checkMemory(need, limit, fmt.Sprintf("the dense kernel matrices of %d training and %d predicted points", n, m),
		"train on fewer points (--train), or use gssl falkon (Nyström kernel ridge regression, memory n·M)"); err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	return nil
}

// writeSVMRows writes --out: one row per predicted point with the decision
// value of every one-vs-one machine ("a_vs_b": positive means a).
func writeSVMRows(path string, data *protocol.PointTask, model *svm.PointSVC, pred []int) error {
	dec, err := model.Decision(data.XTest)
	if err != nil {
		return fmt.Errorf("svm: %w", err)
	}
	names := []string{"id", "set", "prediction"}
	cls := model.Classes()
	for a := 0; a < len(cls); a++ {
		for b := a + 1; b < len(cls); b++ {
			names = append(names, "decision_"+data.ClassNames[cls[a]]+"_vs_"+data.ClassNames[cls[b]])
		}
	}
	names = append(names, "label")
	_, pairs := dec.Dims()
	return writeTable(path, names, len(pred), func(r int, rec []any) {
		rec[0], rec[1], rec[2] = data.IDs[r], data.Sets[r], data.ClassNames[pred[r]]
		for p := 0; p < pairs; p++ {
			rec[3+p] = dec.At(r, p)
		}
		if t := data.Truth[r]; t >= 0 {
			rec[len(rec)-1] = data.ClassNames[t]
		}
	})
}
