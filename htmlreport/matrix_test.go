package htmlreport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/mat"
)

func TestCountAndMatrixTables(t *testing.T) {
	c := CountTable("cap", "a \\ b", []string{"x", "y"}, []string{"p", "q", "r"}, [][]int{{1, 2, 3}, {4, 5, 60}})
	assert.Equal(t, Table{Caption: "cap", Header: []string{"a \\ b", "p", "q", "r"},
		Rows: [][]string{{"x", "1", "2", "3"}, {"y", "4", "5", "60"}}}, c)
	m := MatrixTable("m", "class", []string{"0", "1"}, []string{"0", "1"}, mat.NewDense(2, 2, []float64{0.5, 1.0 / 3, -2, 1e-9}))
	assert.Equal(t, [][]string{{"0", "0.5000", "0.3333"}, {"1", "-2.0000", "0.0000"}}, m.Rows)
	assert.Equal(t, []string{"class", "0", "1"}, m.Header)
}
