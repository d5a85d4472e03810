package eval_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
)

// The protocol of gssl classify --model auto, with two candidates instead
// of its grids: the base chosen on the validation nodes, then Correct &
// Smooth's grid on the chosen model.
func ExampleEvaluateNodes() {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		fmt.Println(err)
		return
	}
	search := eval.NodeSearch{
		Grid: func(c int) []estimator.NodeClassifier {
			return []estimator.NodeClassifier{&nodeclass.SGC{Classes: c}, &nodeclass.APPNP{Classes: c}}
		},
		Refine: func(best estimator.NodeClassifier) []estimator.NodeClassifier {
			return nodeclass.CorrectSmoothGrid(best)
		},
	}
	x := estimator.Nodes{Graph: ds.Graph, Features: ds.Features}
	out, err := eval.EvaluateNodes(context.Background(), search, x, ds.Labels, *ds.Split, eval.CV{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("base %s: test %.3f\n%s: test %.3f\n", out.Base, out.BaseTest, out.Model, out.Test)
	// Output:
	// base appnp(a=0.9, L2=0.001): test 0.825
	// correct-smooth(appnp(a=0.9, L2=0.001), α1=0.5, α2=0.9, scale=1): test 0.809
}
