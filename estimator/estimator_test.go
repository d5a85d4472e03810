package estimator

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNotFitted(t *testing.T) {
	err := NotFitted("labelprop.Spreading.PredictNodes")
	assert.True(t, errors.Is(err, ErrNotFitted))
	assert.Equal(t, "labelprop.Spreading.PredictNodes: the model has not been fitted: call Fit first", err.Error())
}

func TestNotConverged(t *testing.T) {
	inner := errors.New("inner")
	var err error = &NotConvergedError{Model: "labelprop", Method: "chebyshev", Iterations: 10, Residual: 0.5, Tol: 1e-6, Hint: "raise MaxIter or Tol", Err: inner}
	var nc *NotConvergedError
	assert.True(t, errors.As(err, &nc))
	assert.ErrorIs(t, err, inner)
	assert.Equal(t, "labelprop: chebyshev did not converge: relative residual 0.5 > tolerance 1e-06 after 10 iterations (raise MaxIter or Tol)", err.Error())
}

func TestNewNodesCheck(t *testing.T) {
	ok := NewNodes{Offsets: []int{0, 2, 2, 3}, Nodes: []int32{0, 4, 1}, Weights: []float64{1, 0.5, 2}}
	assert.NoError(t, ok.Check(5))
	assert.Equal(t, 3, ok.Len())
	n, w := ok.Row(0)
	assert.Equal(t, []int32{0, 4}, n)
	assert.Equal(t, []float64{1, 0.5}, w)
	n, w = NewNodes{Offsets: []int{0, 1}, Nodes: []int32{3}}.Row(0)
	assert.Equal(t, []int32{3}, n)
	assert.Nil(t, w)
	assert.ErrorContains(t, ok.Check(4), "new node 0, edge 1: fitted node 4 is out of range [0, 4)")
	for _, bad := range []NewNodes{
		{},
		{Offsets: []int{1, 1}},
		{Offsets: []int{0, 2, 1, 3}, Nodes: []int32{0, 1, 2}},
		{Offsets: []int{0, 1}, Nodes: []int32{0}, Weights: []float64{}},
		{Offsets: []int{0, 1}, Nodes: []int32{0}, Weights: []float64{math.NaN()}},
		{Offsets: []int{0, 1}, Nodes: []int32{0}, Weights: []float64{math.Inf(1)}},
		{Offsets: []int{0, 1}, Nodes: []int32{-1}},
	} {
		assert.Error(t, bad.Check(5), "%+v", bad)
	}
	assert.Equal(t, 0, NewNodes{}.Len())
}
