package knngraph

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkExactMNIST times the exact 10-NN graph of the first n MNIST
// images (go test -bench ExactMNIST -benchtime 1x ./knngraph/); n = 20 000
// is the size scripts/bench-knn.sh compares with FAISS IndexFlatL2.
func BenchmarkExactMNIST(b *testing.B) {
	for _, n := range []int{2000, 10000, 20000} {
		x := readImages(b, "mnist", n, 784)
		precs := []Precision{Float32, Float64}
		if n > 2000 {
			precs = precs[:1] // Float64 (gonum Dgemm) takes about a minute at n = 10 000
		}
		for _, prec := range precs {
			b.Run(fmt.Sprintf("n=%d/%v", n, prec), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					nb, err := Exact(context.Background(), x, 10, &Settings{Precision: prec})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(nb.Rescanned), "rescanned")
				}
			})
		}
	}
}

// BenchmarkExactDigits times the exact 10-NN graph of the 1797 8×8 digits.
func BenchmarkExactDigits(b *testing.B) {
	x := readImages(b, "digits8x8", 1797, 64)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Exact(context.Background(), x, 10, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApproximateMNIST times NN-descent on the first n MNIST images,
// given as float64 and as bytes.
func BenchmarkApproximateMNIST(b *testing.B) {
	for _, n := range []int{2000, 10000, 20000} {
		x := readImages(b, "mnist", n, 784)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Approximate(context.Background(), x, 10, &Descent{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
		bytes := make([]uint8, len(x.RawMatrix().Data))
		for i, v := range x.RawMatrix().Data {
			bytes[i] = uint8(v)
		}
		b.Run(fmt.Sprintf("n=%d/bytes", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ApproximateBytes(context.Background(), bytes, 784, 10, &Descent{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
