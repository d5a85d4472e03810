package svm_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/svm"
)

// The maximal-margin separator of x = +1 and x = −1 with a linear kernel is
// w = 1, b = 0: both points are support vectors with α = 1/2.
func ExampleSolveDual() {
	k := mat.NewSymDense(2, []float64{1, -1, -1, 1})
	d, err := svm.SolveDual(context.Background(), k, []float64{+1, -1}, 10, svm.Settings{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("α = %.2f, b = %.2f\n", d.Alpha, d.B)
	// Output: α = [0.50 0.50], b = 0.00
}

// The course's two moons: a Gaussian-kernel SVM on the first 300 of 600
// points, scored on the other 300.
func ExampleSVC() {
	x, labels, err := svm.TwoMoons(600, 0.15, 0)
	if err != nil {
		panic(err)
	}
	k, err := kernel.Gram(kernel.Gaussian{Sigma: 0.5}, x, x)
	if err != nil {
		panic(err)
	}
	train, test := make([]int, 300), make([]int, 300)
	for i := range train {
		train[i], test[i] = i, 300+i
	}
	m := &svm.SVC{C: 1}
	if err := m.Fit(context.Background(), svm.SubGram(k, train), labels[:300]); err != nil {
		panic(err)
	}
	votes, err := m.Predict(context.Background(), svm.SubCross(k, test, train))
	if err != nil {
		panic(err)
	}
	pred := estimator.Argmax(votes)
	right := 0
	for p, i := range test {
		if pred[p] == labels[i] {
			right++
		}
	}
	fmt.Printf("test accuracy %.3f with %d support vectors\n", float64(right)/300, m.SupportVectors())
	// Output: test accuracy 0.987 with 39 support vectors
}

// Kernel ridge classification with one-hot targets.
func ExampleKernelRidge() {
	x := mat.NewDense(4, 1, []float64{-2, -1, 1, 2})
	k, err := kernel.Gram(kernel.Gaussian{Sigma: 1}, x, x)
	if err != nil {
		panic(err)
	}
	m := &svm.KernelRidge{Ridge: 0.1}
	if err := m.Fit(context.Background(), svm.SubGram(k, []int{0, 1, 2, 3}), []int{0, 0, 1, 1}); err != nil {
		panic(err)
	}
	xt := mat.NewDense(2, 1, []float64{-0.5, 3})
	kt, err := kernel.Gram(kernel.Gaussian{Sigma: 1}, xt, x)
	if err != nil {
		panic(err)
	}
	scores, err := m.Predict(context.Background(), kt)
	if err != nil {
		panic(err)
	}
	fmt.Println(estimator.Argmax(scores))
	// Output: [0 1]
}
