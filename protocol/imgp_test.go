package protocol

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
)

// TestSweepMatchesOneFit: a sweep run is the fit of the template with that
// seed's labelled subset on the shared graph, scored by Score.
func TestSweepMatchesOneFit(t *testing.T) {
	x, y, xt, yt, err := imgp.SyntheticCurve(150, 40, 1)
	require.NoError(t, err)
	tmpl := &imgp.Regressor{K: 8, Nu: 2, Eigenpairs: 15, Iterations: 3, Probes: 2}
	sw := IMGPSweep{Model: tmpl, Fractions: []float64{0.2}, Seeds: 2}
	res, err := sw.Run(context.Background(), x, y, xt, yt)
	require.NoError(t, err)
	require.Len(t, res.Runs, 2)
	require.Len(t, res.Summary, 1)

	geo, err := imgp.BuildGraph(context.Background(), x, 8, nil)
	require.NoError(t, err)
	lab, err := eval.RandomLabelled(150, 0.2, 1)
	require.NoError(t, err)
	ys := make([]float64, len(lab))
	for p, i := range lab {
		ys[p] = y[i]
	}
	r := tmpl.Clone()
	r.Graph, r.Seed, r.Euclidean = geo, 1, &gp.Regressor{}
	require.NoError(t, r.FitIndexed(context.Background(), x, lab, ys))
	p, err := r.Predict(context.Background(), xt)
	require.NoError(t, err)
	// The scores are in the fit's standardised units.
	want, err := eval.RMSE(p.Mean, yt)
	require.NoError(t, err)
	assert.InDelta(t, want/r.TargetScaling().Scale, res.Runs[1].Scores.RMSE, 1e-12)
	mean, _ := eval.MeanStd([]float64{res.Runs[0].Scores.RMSE, res.Runs[1].Scores.RMSE})
	assert.InDelta(t, mean, res.Summary[0].RMSEMean, 1e-12)

	_, err = IMGPSweep{Model: tmpl, Fractions: []float64{0.2}, Seeds: 0}.Run(context.Background(), x, y, xt, yt)
	require.ErrorContains(t, err, "0 seeds is invalid")
	_, err = IMGPSweep{Model: tmpl, Seeds: 1}.Run(context.Background(), x, y, xt, yt)
	require.ErrorContains(t, err, "no labelled fractions")
}
