package propagate

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestPPRRowsSeriesAgainstDense checks PPRRowsSeries against the dense LU
// solve of (1−a)(I − aS)^{-1}X: every row within the truncation bound of
// SeriesTerms (times ‖X‖ of the columns, at most 1 here) for tolerances
// 1e-4 and 1e-12, several alphas at once bitwise equal to each alone, the
// products those of the largest a, and bad input refused.
func TestPPRRowsSeriesAgainstDense(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 30, 3)
	xs, xd := testFeatures(30, 4, 5)
	s := GCN(g)
	sd := denseAdjacency(g, 1)
	alphas := []float64{0.5, 0.9, 0.99}
	rows := []int{29, 0, 11}
	for _, tol := range []float64{1e-4, 1e-12} {
		for name, f := range map[string]Features{"dense": {Dense: xd}, "sparse": {Sparse: xs}} {
			all, products, err := PPRRowsSeries(ctx, s, f, alphas, rows, tol)
			require.NoError(t, err)
			k, _, _ := SeriesTerms(0.99, tol)
			require.Equal(t, k, products)
			for j, a := range alphas {
				want := densePPR(t, sd, xd, a)
				// ‖(Π − Π_K)X e_c‖ ≤ bound·‖X e_c‖₂; the columns of X have norm ≤ √30.
				bound := tol * math.Sqrt(30) * mat.Norm(xd, math.Inf(1))
				for r, i := range rows {
					require.InDeltaSlice(t, want.RawRowView(i), all[j].RawRowView(r), bound, "%s tol %g a %v row %d", name, tol, a, i)
				}
				one, _, err := PPRRowsSeries(ctx, s, f, []float64{a}, rows, tol)
				require.NoError(t, err)
				require.True(t, mat.Equal(one[0], all[j]), "%s tol %g a %v alone", name, tol, a)
			}
		}
	}
	_, _, err := PPRRowsSeries(ctx, s, Features{Dense: xd}, []float64{1}, rows, 1e-4)
	require.ErrorContains(t, err, "open interval")
	_, _, err = PPRRowsSeries(ctx, s, Features{Dense: xd}, []float64{0.5}, rows, 0)
	require.ErrorContains(t, err, "Tol")
	_, _, err = PPRRowsSeries(ctx, s, Features{Dense: xd}, []float64{0.5}, []int{30}, 1e-4)
	require.ErrorContains(t, err, "outside")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = PPRRowsSeries(cctx, s, Features{Dense: xd}, []float64{0.9}, rows, 1e-4)
	require.ErrorIs(t, err, context.Canceled)
}
