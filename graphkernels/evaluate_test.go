package graphkernels

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/svm"
)

// TestEvaluationFixedFolds: with one candidate and fixed folds, every
// outer fold's score and the out-of-fold predictions are those of the
// machine fitted by hand on the other folds.
func TestEvaluationFixedFolds(t *testing.T) {
	// Two noisy clusters of 12 items: a Gaussian Gram matrix.
	n := 12
	x := make([]float64, n)
	labels := make([]int, n)
	for i := range x {
		labels[i] = i % 2
		x[i] = float64(3*labels[i]) + 0.4*float64((i*7)%5-2)/2
	}
	x[5] = 0.9 // an item of class 1 close to class 0
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			d := x[i] - x[j]
			k.SetSym(i, j, math.Exp(-d*d/2))
		}
	}
	fold := []int{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}
	ev := Evaluation{Grams: []*mat.SymDense{k}, Grid: []float64{1}, InnerFolds: 2, Seeds: 1, Folds: [][]int{fold}}
	res, err := ev.Run(context.Background(), labels)
	require.NoError(t, err)
	require.Equal(t, 3, res.Folds)
	var sum float64
	for f := 0; f < 3; f++ {
		var train, test []int
		for i, g := range fold {
			if g == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		ytr := make([]int, len(train))
		for p, i := range train {
			ytr[p] = labels[i]
		}
		m := &svm.SVC{C: 1}
		require.NoError(t, m.Fit(context.Background(), svm.SubGram(k, train), ytr))
		pred, err := m.Predict(svm.SubCross(k, test, train))
		require.NoError(t, err)
		right := 0
		for p, i := range test {
			assert.Equal(t, pred[p], res.Prediction[i], "item %d", i)
			if pred[p] == labels[i] {
				right++
			}
		}
		sum += float64(right) / float64(len(test))
	}
	assert.InDelta(t, sum/3, res.Accuracy[0], 1e-12)

	_, err = Evaluation{Grams: []*mat.SymDense{k}, Grid: []float64{1}, InnerFolds: 2, Seeds: 2, Folds: [][]int{fold}}.Run(context.Background(), labels)
	require.ErrorContains(t, err, "1 fold assignments for 2 seeds")
	_, err = Evaluation{Grams: []*mat.SymDense{k}, Grid: []float64{0}, InnerFolds: 2, Seeds: 1, OuterFolds: 3}.Run(context.Background(), labels)
	require.ErrorContains(t, err, "grid value 0 is invalid")
}
