package loaders

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestWriteMatrixText: every value reads back bitwise with
// strconv.ParseFloat, in its row and column.
func TestWriteMatrixText(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{1.0 / 3, -2e-300, 75, math.Pi, 0, -1e300})
	var b bytes.Buffer
	require.NoError(t, WriteMatrixText(&b, m))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 2)
	for i, line := range lines {
		f := strings.Split(line, " ")
		require.Len(t, f, 3)
		for j, s := range f {
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			require.Equal(t, math.Float64bits(m.At(i, j)), math.Float64bits(v), "(%d, %d)", i, j)
		}
	}
	require.Equal(t, "75", strings.Fields(lines[0])[2])
}
