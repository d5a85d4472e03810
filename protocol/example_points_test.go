package protocol_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/svm"
)

// ExampleFitPredict fits kernel ridge regression on the first half of two
// moons (one-hot classes) and scores its predictions of the second half.
func ExampleFitPredict() {
	x, labels, _ := svm.TwoMoons(200, 0.1, 0)
	task, _ := protocol.FirstRowsTask("moons", x, labels, 100)
	model := &krr.Exact{Kernel: kernel.Gaussian{Sigma: 0.5}, Lambda: 1e-4}
	run, err := protocol.FitPredict(context.Background(), model, task, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("test error %.2f, train error %.2f\n", run.Score.ErrorRate, run.TrainScore)
	// Output:
	// test error 0.01, train error 0.00
}
