package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
)

type falkonOptions struct {
	Data      string  // image folder: images_u8.bin.gz, labels.txt, origin.txt
	M         int     // Nyström centres
	Kernel    string  // gaussian, laplacian, matern12, matern32, matern52
	Sigma     float64 // kernel width (σ or ℓ)
	Lambda    float64 // ridge λ
	Iter      int     // CG iterations
	Centres   string  // uniform, leverage or a file of indices into the train part
	Seed      uint64  // seed of the centre choice
	Precision string  // float64 or float32
	Solver    string  // falkon or nystrom (direct)
	Train     int     // use only the first Train training images (0: all)
	Test      int     // use only the first Test test images (0: all)
	JSON      bool
}

func init() { register(newFalkonCommand) }

func newFalkonCommand(g *globals) *cobra.Command {
	opts := falkonOptions{}
	cmd := &cobra.Command{
		Use:   "falkon",
		Short: "Kernel ridge regression at scale (FALKON) on an image data set: test error and time",
		Long: `falkon fits FALKON (Nyström kernel ridge regression by preconditioned conjugate
gradient) on the training images of an image folder (pixels/255, one-hot targets)
and reports the test classification error (argmax). The folder holds
images_u8.bin.gz, labels.txt and origin.txt ("train j" / "test j" per image), as in
../shared/data/mnist and ../shared/data/fashion_mnist.

--centres takes uniform, leverage (approximate ridge leverage scores) or a file of
indices into the training part (one per line, '#' comments), such as
../shared/bench/splits/mnist/nystrom_centres_M1000_seed0.txt. Centres that repeat an
image already chosen are left out (dropped_centres); when K_MM is numerically
singular for λ the jitter ε in K_MM + εMI is raised tenfold until the fit succeeds
(jitter, jitter_raises).

"seconds" is fit + prediction of the test images from the pixels in memory (as
shared/bench/peers/krr.py times its methods), "cpu_seconds" the process CPU time in
that block; train_error comes from a second prediction, outside it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = sharedData("mnist")
			}
			return runFalkon(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "image folder (default ../shared/data/mnist)")
	f.IntVar(&opts.M, "m", 1000, "number of Nyström centres")
	f.StringVar(&opts.Kernel, "kernel", "gaussian", "kernel: gaussian, laplacian, matern12, matern32, matern52")
	f.Float64Var(&opts.Sigma, "sigma", 15, "kernel width σ (length scale ℓ for Matérn)")
	f.Float64Var(&opts.Lambda, "lambda", 1e-8, "ridge parameter λ > 0")
	f.IntVar(&opts.Iter, "iter", 10, "conjugate-gradient iterations")
	f.StringVar(&opts.Centres, "centres", "uniform", "uniform, leverage, or a file of centre indices into the training part")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the centre choice")
	f.StringVar(&opts.Precision, "precision", "float32", "inner products of the kernel blocks: float32 or float64")
	f.StringVar(&opts.Solver, "solver", "falkon", "falkon (preconditioned CG) or nystrom (direct solve of the same system)")
	f.IntVar(&opts.Train, "train", 0, "use only the first N training images (0: all)")
	f.IntVar(&opts.Test, "test", 0, "use only the first N test images (0: all)")
	return cmd
}

// falkonResult is the JSON object of gssl falkon.
type falkonResult struct {
	Data           string  `json:"data"`
	Solver         string  `json:"solver"`
	Train          int     `json:"n_train"`
	Test           int     `json:"n_test"`
	Dim            int     `json:"d"`
	M              int     `json:"m"`
	Kernel         string  `json:"kernel"`
	Sigma          float64 `json:"sigma"`
	Lambda         float64 `json:"lambda"`
	Iterations     int     `json:"iterations"`
	Centres        string  `json:"centres"`
	Precision      string  `json:"precision"`
	Products       string  `json:"products,omitempty"`
	Residual       any     `json:"residual,omitempty"`
	Jitter         float64 `json:"jitter"`
	JitterRaises   int     `json:"jitter_raises"`
	DroppedCentres int     `json:"dropped_centres"`
	TestError      float64 `json:"test_error"`
	TrainError     float64 `json:"train_error"`
	Seconds        float64 `json:"seconds"`
	CPUSeconds     float64 `json:"cpu_seconds"`
	FitSeconds     float64 `json:"fit_seconds"`
	PredictSeconds float64 `json:"predict_seconds"`
	LoadSeconds    float64 `json:"load_seconds"`
	PeakRSSMB      float64 `json:"peak_rss_mb"`
}

func parseKernel(name string, sigma float64) (kernel.Kernel, error) {
	var k kernel.Kernel
	switch strings.ToLower(name) {
	case "gaussian":
		k = kernel.Gaussian{Sigma: sigma}
	case "laplacian":
		k = kernel.Laplacian{Sigma: sigma}
	case "matern12":
		k = kernel.Matern{Nu: 0.5, Length: sigma}
	case "matern32":
		k = kernel.Matern{Nu: 1.5, Length: sigma}
	case "matern52":
		k = kernel.Matern{Nu: 2.5, Length: sigma}
	default:
		return nil, fmt.Errorf("--kernel %q is invalid: it must be gaussian, laplacian, matern12, matern32 or matern52", name)
	}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("--sigma: %w", err)
	}
	return k, nil
}

// imageSplit is an image folder split into its train and test parts.
type imageSplit struct {
	xTrain, xTest *mat.Dense
	yTrain, yTest []int
}

// readImageFolder reads images_u8.bin.gz, labels.txt and origin.txt.
func readImageFolder(dir string, maxTrain, maxTest int) (*imageSplit, error) {
	labels, err := loaders.ReadInts(filepath.Join(dir, "labels.txt"))
	if err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no labels", filepath.Join(dir, "labels.txt"))
	}
	path := filepath.Join(dir, "images_u8.bin.gz")
	// The pixel count must make the image count match labels.txt: try the
	// sizes of the shared folders (28×28 and 8×8).
	var im *loaders.Images
	for _, px := range []int{784, 64} {
		im, err = loaders.ReadImages(path, px)
		if err == nil && im.Count == len(labels) {
			break
		}
		im = nil
	}
	if im == nil {
		return nil, fmt.Errorf("%s: not %d images of 784 or 64 pixels (labels.txt has %d lines)", path, len(labels), len(labels))
	}
	var train, test []int
	origin := filepath.Join(dir, "origin.txt")
	f, err := os.Open(origin)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "train":
			train = append(train, line-1)
		case "test":
			test = append(test, line-1)
		default:
			return nil, fmt.Errorf("%s:%d: %q: want \"train j\" or \"test j\"", origin, line, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", origin, err)
	}
	if line != len(labels) {
		return nil, fmt.Errorf("%s has %d lines but labels.txt has %d", origin, line, len(labels))
	}
	if len(train) == 0 || len(test) == 0 {
		return nil, fmt.Errorf("%s: %d train and %d test images; both parts are needed", origin, len(train), len(test))
	}
	if maxTrain > 0 && maxTrain < len(train) {
		train = train[:maxTrain]
	}
	if maxTest > 0 && maxTest < len(test) {
		test = test[:maxTest]
	}
	pick := func(idx []int) []int {
		out := make([]int, len(idx))
		for i, k := range idx {
			out[i] = labels[k]
		}
		return out
	}
	return &imageSplit{xTrain: im.Dense(train), xTest: im.Dense(test), yTrain: pick(train), yTest: pick(test)}, nil
}

func runFalkon(ctx context.Context, opts falkonOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	k, err := parseKernel(opts.Kernel, opts.Sigma)
	if err != nil {
		return err
	}
	var prec kernel.Precision
	switch opts.Precision {
	case "float64":
		prec = kernel.Float64
	case "float32":
		prec = kernel.Float32
	default:
		return fmt.Errorf("--precision %q is invalid: it must be float32 or float64", opts.Precision)
	}
	if opts.Solver != "falkon" && opts.Solver != "nystrom" {
		return fmt.Errorf("--solver %q is invalid: it must be falkon or nystrom", opts.Solver)
	}
	if opts.Iter < 1 {
		return fmt.Errorf("--iter %d is invalid: it must be ≥ 1", opts.Iter)
	}
	if opts.M < 1 {
		return fmt.Errorf("--m %d is invalid: it must be ≥ 1", opts.M)
	}
	start := time.Now()
	data, err := readImageFolder(opts.Data, opts.Train, opts.Test)
	if err != nil {
		return err
	}
	loadSeconds := seconds(start)
	n, d := data.xTrain.Dims()
	classes := 0
	for _, l := range append(append([]int(nil), data.yTrain...), data.yTest...) {
		if l < 0 {
			return fmt.Errorf("%s: label %d is negative", filepath.Join(opts.Data, "labels.txt"), l)
		}
		classes = max(classes, l+1)
	}
	y, err := krr.OneHot(data.yTrain, classes)
	if err != nil {
		return err
	}
	cs := krr.Centres{M: opts.M, Seed: opts.Seed}
	switch opts.Centres {
	case "uniform":
		cs.Sampler = krr.Uniform{}
	case "leverage":
		cs.Sampler = krr.Leverage{Precision: prec}
	default:
		idx, err := loaders.ReadInts(opts.Centres)
		if err != nil {
			return fmt.Errorf("--centres: %w", err)
		}
		cs.Sampler = krr.Fixed(idx)
		if len(idx) != opts.M {
			logf(stderr, "falkon: %s holds %d centres; using M=%d", opts.Centres, len(idx), len(idx))
			cs.M = len(idx)
		}
	}
	res := falkonResult{Data: opts.Data, Solver: opts.Solver, Train: n, Dim: d, Kernel: opts.Kernel, Sigma: opts.Sigma,
		Lambda: opts.Lambda, Centres: opts.Centres, Precision: opts.Precision, LoadSeconds: loadSeconds}
	res.Test, _ = data.xTest.Dims()
	logf(stderr, "falkon: %s: %d train, %d test images, d=%d, loaded in %.2fs", opts.Data, n, res.Test, d, loadSeconds)

	var model krr.Regressor
	var fk *krr.Falkon
	bar := newProgress(stderr, opts.Iter, "CG")
	if opts.Solver == "falkon" {
		fk = &krr.Falkon{Kernel: k, Lambda: opts.Lambda, Centres: cs, Iterations: opts.Iter, Precision: prec,
			Progress: func(int, float64) { bar.Add(1) }}
		model = fk
	} else {
		model = &krr.Nystrom{Kernel: k, Lambda: opts.Lambda, Centres: cs, Precision: prec}
	}
	t0, cpu0 := time.Now(), cpuSeconds()
	err = model.Fit(ctx, data.xTrain, y)
	bar.Finish()
	if err != nil {
		return err
	}
	res.FitSeconds = seconds(t0)
	t1 := time.Now()
	pTest, err := model.Predict(data.xTest)
	if err != nil {
		return err
	}
	res.PredictSeconds = seconds(t1)
	res.Seconds = seconds(t0)
	res.CPUSeconds = cpuSeconds() - cpu0
	res.TestError = errorRate(krr.Argmax(pTest), data.yTest)
	pTrain, err := model.Predict(data.xTrain)
	if err != nil {
		return err
	}
	res.TrainError = errorRate(krr.Argmax(pTrain), data.yTrain)
	res.M = opts.M
	if fk != nil {
		info := fk.Info()
		res.M = len(info.Centres)
		res.Iterations = info.Iterations
		res.Products = info.Products.String()
		res.Residual = finite(info.Residual)
		res.Jitter, res.JitterRaises, res.DroppedCentres = info.Jitter, info.JitterRaises, len(info.DroppedCentres)
	} else if s, ok := model.(*krr.Nystrom); ok {
		res.M = len(s.CentreIndices())
		res.Jitter, res.JitterRaises, res.DroppedCentres = s.JitterUsed(), s.JitterRaises(), len(s.DroppedCentres())
	}
	if res.DroppedCentres > 0 {
		logf(stderr, "falkon: %d centres repeat an image already chosen and were left out: M=%d", res.DroppedCentres, res.M)
	}
	if res.JitterRaises > 0 {
		logf(stderr, "falkon: K_MM is numerically singular for λ=%g: jitter ε raised %d times to %g", opts.Lambda, res.JitterRaises, res.Jitter)
	}
	res.PeakRSSMB = peakRSSMB()
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s on %s: %d train / %d test, d=%d, M=%d, %s σ=%g, λ=%g, %d iterations, %s\n",
			opts.Solver, opts.Data, n, res.Test, d, res.M, opts.Kernel, opts.Sigma, opts.Lambda, res.Iterations, opts.Precision)
		fmt.Fprintf(w, "test error %.2f%% (train %.2f%%)\n", 100*res.TestError, 100*res.TrainError)
		fmt.Fprintf(w, "fit %.2fs + predict %.2fs = %.2fs (%.2f CPU-s; load %.2fs), peak RSS %.0f MB\n",
			res.FitSeconds, res.PredictSeconds, res.Seconds, res.CPUSeconds, res.LoadSeconds, res.PeakRSSMB)
	})
}

func errorRate(pred, truth []int) float64 {
	wrong := 0
	for i, p := range pred {
		if p != truth[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(truth))
}

// peakRSSMB returns the process's peak resident memory (VmHWM) in MiB, or 0
// where /proc is not available.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, err := strconv.ParseFloat(f[1], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}
