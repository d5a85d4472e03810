package krr_test

import (
	"context"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
)

// readMNIST returns the training and test images (pixels/255), the one-hot
// training targets and the test labels, or skips the benchmark when the
// shared data are absent.
func readMNIST(b *testing.B) (x, xt, y *mat.Dense, labels []int) {
	b.Helper()
	// The shared MNIST copy: images 0..9999 are the training part,
	// 10000..19999 the test part (its README).
	dir := sharedtest.Data(b, "mnist")
	im, err := loaders.ReadImages(filepath.Join(dir, "images_u8.bin.gz"), 784)
	if err != nil {
		b.Fatal(err)
	}
	all, err := loaders.ReadInts(filepath.Join(dir, "labels.txt"))
	if err != nil {
		b.Fatal(err)
	}
	y, err = krr.OneHot(all[:10000], 10)
	if err != nil {
		b.Fatal(err)
	}
	return im.DenseRange(0, 10000), im.DenseRange(10000, 20000), y, all[10000:]
}

// BenchmarkFalkonMNIST is the MNIST run (σ = 15, λ = 1e-8,
// M = 1000 centres of krr.py's file, 10 CG iterations, float32 inner
// products): fit, then prediction of the 10 000 test images. For a profile:
//
//	go test ./krr -run '^$' -bench FalkonMNIST -benchtime 3x -cpuprofile cpu.out
func BenchmarkFalkonMNIST(b *testing.B) {
	x, xt, y, labels := readMNIST(b)
	idx, err := loaders.ReadInts(sharedtest.Path(b, "bench/splits/mnist/nystrom_centres_M1000_seed0.txt"))
	if err != nil {
		b.Fatal(err)
	}
	f := &krr.Falkon{Kernel: kernel.Gaussian{Sigma: 15}, Lambda: 1e-8, Centres: krr.Centres{Sampler: krr.Fixed(idx)},
		Iterations: 10, Precision: kernel.Float32}
	var testErr float64
	for b.Loop() {
		if err := f.FitTargets(context.Background(), x, y); err != nil {
			b.Fatal(err)
		}
		p, err := f.PredictTargets(context.Background(), xt)
		if err != nil {
			b.Fatal(err)
		}
		wrong := 0
		for i, c := range estimator.Argmax(p) {
			if c != labels[i] {
				wrong++
			}
		}
		testErr = float64(wrong) / float64(len(labels))
	}
	b.ReportMetric(100*testErr, "test-error-%")
}
