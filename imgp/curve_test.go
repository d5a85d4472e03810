package imgp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestSyntheticCurve(t *testing.T) {
	x, y, xt, yt, err := SyntheticCurve(50, 7, 4)
	require.NoError(t, err)
	r, c := x.Dims()
	assert.Equal(t, [2]int{50, 10}, [2]int{r, c})
	r, _ = xt.Dims()
	assert.Equal(t, 7, r)
	assert.Len(t, y, 50)
	assert.Len(t, yt, 7)
	for _, v := range append(append([]float64(nil), y...), yt...) {
		assert.LessOrEqual(t, math.Abs(v), 1.0)
	}
	// Points lie near the unit-size curve: norms within the noise of [0.15, 1].
	for i := 0; i < 50; i++ {
		nrm := mat.Norm(x.RowView(i), 2)
		assert.True(t, nrm > 0.1 && nrm < 1.1, "point %d at norm %v", i, nrm)
	}
	x2, _, _, _, err := SyntheticCurve(50, 7, 4)
	require.NoError(t, err)
	assert.True(t, mat.Equal(x, x2), "seeded")
	for _, n := range []int{-5, 0, 1, MaxCurvePoints + 1} {
		_, _, _, _, err := SyntheticCurve(n, 7, 0)
		require.ErrorContains(t, err, "curve points is invalid", "n = %d", n)
	}
	_, _, _, _, err = SyntheticCurve(10, 0, 0)
	require.ErrorContains(t, err, "test points is invalid")
}
