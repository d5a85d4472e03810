package knngraph

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkExactMNIST times the exact 10-NN graph of the first n MNIST
// images (go test -bench ExactMNIST -benchtime 1x ./knngraph/).
func BenchmarkExactMNIST(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		x := readImages(b, "mnist", n, 784)
		for _, prec := range []Precision{Float32, Float64} {
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
