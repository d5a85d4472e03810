package nodeclass

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/propagate"
)

// trainingProbs returns the class probabilities of the training rows of d
// from the fit lr on d in its form: on the row-space design when reduced,
// else on the scaled rows.
func trainingProbs(t *testing.T, d *design, lr *logreg.Classifier) *mat.Dense {
	t.Helper()
	var on logreg.Design = logreg.Dense{X: d.scaled}
	if d.reduced != nil {
		on = logreg.Dense{X: d.reduced}
	}
	p, err := lr.Probabilities(on)
	require.NoError(t, err)
	return p
}

// TestDesignFormsAgree fits the penalty path of one training design (the
// training rows of a planted graph's features, more columns than rows) in
// each of its three forms, and checks every fit against logistic
// regression on the dense scaled rows in the primal, fitted alone to
// ‖∇J‖_∞ ≤ 1e-10 (gonum's products, no warm start, no preconditioning).
func TestDesignFormsAgree(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, _ := planted(t, 160, 3, 90, 3)
	var train, y []int
	for i, l := range labels {
		if l >= 0 {
			train, y = append(train, i), append(y, l)
		}
	}
	xn, err := normalize(Features{Sparse: xs}, RowSum)
	require.NoError(t, err)
	z, err := propagate.PowerRows(ctx, propagate.GCN(g), xn, 0, train)
	require.NoError(t, err)
	r, c := z.Dims()
	require.Greater(t, c, r, "the test needs more columns than rows")
	ref, err := newDesign(z)
	require.NoError(t, err)
	nnz := countNonZero(ref.scaled)
	require.Less(t, 2*nnz, r*c, "the test needs a sparse design (a fit on its sparse rows skips most entries)")
	for _, form := range []designForm{denseForm, sparseForm, rowSpaceForm} {
		d := &design{scaled: ref.scaled, scale: ref.scale, cols: c}
		require.NoError(t, d.as(form, nnz))
		for _, l2 := range []float64{1e-2, 1e-3, 1e-4} {
			lr, err := d.fit(ctx, L2Grid(), l2, 3, 0, y)
			require.NoError(t, err)
			want := logreg.Classifier{L2: l2, Classes: 3, Primal: true, GradTol: 1e-10, MaxIter: 5000}
			require.NoError(t, want.Fit(ctx, ref.scaled, y))
			pw, err := want.Probabilities(logreg.Dense{X: ref.scaled})
			require.NoError(t, err)
			got := trainingProbs(t, d, lr)
			// ‖∇J‖_∞ ≤ 1e-6 with curvature ≥ λ leaves ‖Δθ‖ ≤ √p·1e-6/λ.
			tol := math.Sqrt(float64((c+1)*3)) * 1e-6 / l2
			require.True(t, mat.EqualApprox(pw, got, tol), "form %d, L2 %g", form, l2)
			require.Equal(t, estimator.Argmax(pw), estimator.Argmax(got), "form %d, L2 %g", form, l2)
		}
	}
}

// TestRowSpaceCheaper checks the form newDesign picks at the sizes of
// Cora's training designs (140 rows, 1 433 columns, 10–30 % non-zero: the
// row space) and of squirrel's and actor's (1 053 × 2 089 and 3 648 × 932:
// the primal).
func TestRowSpaceCheaper(t *testing.T) {
	require.True(t, rowSpaceCheaper(140, 1433, 20000))
	require.True(t, rowSpaceCheaper(140, 1433, 140*1433))
	require.False(t, rowSpaceCheaper(1053, 2089, 286000))
	require.False(t, rowSpaceCheaper(1053, 2089, 1053*2089))
	require.False(t, rowSpaceCheaper(100, 110, 1000), "barely more columns than rows")
}

// TestSparseCheaper checks the primal form at the densities of actor's and
// squirrel's training designs: sparse at 3 % non-zero entries (actor,
// K = 1), dense at 33 % (actor, K = 2) and 52 % (squirrel, K = 2), where
// the sparse products took 3 to 4 times as long.
func TestSparseCheaper(t *testing.T) {
	require.True(t, sparseCheaper(3648, 932, 107446))
	require.False(t, sparseCheaper(3648, 932, 1135471))
	require.False(t, sparseCheaper(1053, 2089, 1146185))
	require.False(t, sparseCheaper(10, 10, 100), "no zero entry")
	require.True(t, sparseCheaper(10, 10, 0), "a zero design")
}

// TestSGCGridWorkers fits SGCGrid with one worker and with two, where
// fitPaths fits the paths of the three K side by side: every candidate's
// probabilities must be bitwise the same.
func TestSGCGridWorkers(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, _ := planted(t, 120, 3, 40, 5)
	x := estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}
	defer func(cfg parallel.Config) { require.NoError(t, parallel.Configure(cfg)) }(parallel.Current())
	var runs [2][]*mat.Dense
	for w := range runs {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: w + 1}))
		for _, cand := range SGCGrid(&SGC{Classes: 3}) {
			require.NoError(t, cand.Fit(ctx, x, labels))
			p, err := cand.Predict(ctx, estimator.FittedNodes)
			require.NoError(t, err)
			runs[w] = append(runs[w], p)
		}
	}
	for k := range runs[0] {
		require.Equal(t, runs[0][k].RawMatrix().Data, runs[1][k].RawMatrix().Data, "candidate %d", k)
	}
}
