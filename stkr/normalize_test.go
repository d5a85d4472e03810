package stkr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/mat"
)

func TestNormalize(t *testing.T) {
	s := mat.NewDense(3, 2, []float64{1, 3, -1, 2, 0, -1})
	p, pred, none := Normalize(s, []int{0, 0, 0, 1, -1})
	assert.Equal(t, []float64{0.25, 0.75, 0, 1, 0.75, 0.25}, p.RawMatrix().Data)
	assert.Equal(t, []int{1, 1, 0}, pred)
	assert.Equal(t, 1, none)
}
