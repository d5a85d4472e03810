package nodeclass

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/logreg"
)

func TestExp2(t *testing.T) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x := Features{Sparse: ds.Features}
	lab := make([]int, len(ds.Labels))
	for i := range lab {
		lab[i] = -1
	}
	for _, i := range ds.Split.Train {
		lab[i] = ds.Labels[i]
	}
	acc := func(p *mat.Dense, idx []int) float64 {
		a, _ := eval.Accuracy(logreg.Argmax(p), ds.Labels, idx)
		return a
	}
	var cands []Base
	for _, b := range []Base{&APPNP{Alpha: 0.9, L2: 1e-6}, &SGC{K: 3, L2: 1e-5}, &APPNP{Alpha: 0.9, L2: 1e-5}} {
		cands = append(cands, CorrectSmoothGrid(b)...)
	}
	type r struct {
		name      string
		val, test float64
		p         *mat.Dense
	}
	var rs []r
	for _, c := range cands {
		if err := c.Fit(ctx, ds.Graph, x, lab); err != nil {
			t.Fatal(err)
		}
		p, _ := c.Probabilities()
		rs = append(rs, r{fmt.Sprint(c), acc(p, ds.Split.Val), acc(p, ds.Split.Test), p})
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].val > rs[j].val })
	for _, e := range rs[:30] {
		fmt.Printf("%s val %.3f test %.3f\n", e.name, e.val, e.test)
	}
	for _, k := range []int{1, 3, 5, 10, 20} {
		sum := mat.NewDense(ds.Graph.Nodes(), 7, nil)
		for _, e := range rs[:k] {
			q := mat.DenseCopyOf(e.p)
			n, _ := q.Dims()
			for i := 0; i < n; i++ {
				row := q.RawRowView(i)
				s := 0.0
				for _, v := range row {
					s += v
				}
				for j := range row {
					row[j] /= s
				}
			}
			sum.Add(sum, q)
		}
		fmt.Printf("top-%d ensemble: val %.3f test %.3f\n", k, acc(sum, ds.Split.Val), acc(sum, ds.Split.Test))
	}
}
