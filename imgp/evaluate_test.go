package imgp

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
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

func TestRandomLabelled(t *testing.T) {
	lab, err := RandomLabelled(100, 0.1, 3)
	require.NoError(t, err)
	assert.Len(t, lab, 10)
	seen := map[int]bool{}
	for _, i := range lab {
		assert.False(t, seen[i])
		assert.True(t, i >= 0 && i < 100)
		seen[i] = true
	}
	_, err = RandomLabelled(100, 0.001, 3)
	require.ErrorContains(t, err, "labels no point")
	_, err = RandomLabelled(100, -1, 3)
	require.ErrorContains(t, err, "fraction -1 is invalid")
}

// TestSweepMatchesOneFit: a sweep run is the fit of the template with that
// seed's labelled subset on the shared graph, scored by Score.
func TestSweepMatchesOneFit(t *testing.T) {
	x, y, xt, yt, err := SyntheticCurve(150, 40, 1)
	require.NoError(t, err)
	tmpl := Regressor{K: 8, Nu: 2, Eigenpairs: 15, Iterations: 3, Probes: 2}
	sw := Sweep{Model: tmpl, Fractions: []float64{0.2}, Seeds: 2}
	res, err := sw.Run(context.Background(), x, y, xt, yt)
	require.NoError(t, err)
	require.Len(t, res.Runs, 2)
	require.Len(t, res.Summary, 1)

	geo, err := BuildGraph(context.Background(), x, 8, nil)
	require.NoError(t, err)
	lab, err := RandomLabelled(150, 0.2, 1)
	require.NoError(t, err)
	ys := make([]float64, len(lab))
	for p, i := range lab {
		ys[p] = y[i]
	}
	r := tmpl
	r.Graph, r.Seed, r.Euclidean = geo, 1, &gp.Regressor{}
	require.NoError(t, r.FitIndexed(context.Background(), x, lab, ys))
	p, err := r.Predict(context.Background(), xt)
	require.NoError(t, err)
	want, err := eval.RMSE(p.Mean, yt)
	require.NoError(t, err)
	assert.InDelta(t, want, res.Runs[1].Scores.RMSE, 1e-12)
	mean, _ := eval.MeanStd([]float64{res.Runs[0].Scores.RMSE, res.Runs[1].Scores.RMSE})
	assert.InDelta(t, mean, res.Summary[0].RMSEMean, 1e-12)

	_, err = Sweep{Model: tmpl, Fractions: []float64{0.2}, Seeds: 0}.Run(context.Background(), x, y, xt, yt)
	require.ErrorContains(t, err, "0 seeds is invalid")
	_, err = Sweep{Model: tmpl, Seeds: 1}.Run(context.Background(), x, y, xt, yt)
	require.ErrorContains(t, err, "no labelled fractions")
}
