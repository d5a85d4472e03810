package spectral

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// nystromTol bounds the difference between a fitted node's coordinates and
// its Nyström extension from its own graph row: they are equal in exact
// arithmetic up to the eigenpairs' residual (solveTol) divided by μ.
const nystromTol = 1e-7

// TestTransformOwnRows checks both node transformers against the identity
// that defines their Nyström extension: a fitted node given as a new node
// with its own graph row gets its fitted coordinates back.
func TestTransformOwnRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	g, _ := plantedPartition(rng, 3, 30, 0.4, 0.05)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		m    estimator.NodeTransformer
	}{
		{"eigenmap", &LaplacianEigenmap{Dim: 2, Eigen: Settings{Tol: solveTol}}},
		{"kpca", &KernelPCA{Dim: 3, Eigen: Settings{Tol: solveTol}}},
	} {
		_, err := tc.m.Transform(ctx, estimator.FittedNodes)
		require.True(t, errors.Is(err, estimator.ErrNotFitted), tc.name)
		require.NoError(t, tc.m.Fit(ctx, estimator.Nodes{Graph: g}), tc.name)
		fitted, err := tc.m.Transform(ctx, estimator.FittedNodes)
		require.NoError(t, err)
		got, err := tc.m.Transform(ctx, estimator.NodeQuery{New: ptr(ownRows(g))})
		require.NoError(t, err)
		assert.True(t, mat.EqualApprox(fitted, got, nystromTol), "%s:\n%v\n%v", tc.name, mat.Formatted(fitted.Slice(0, 3, 0, 2)), mat.Formatted(got.Slice(0, 3, 0, 2)))
		assert.Positive(t, tc.m.Info().Products, tc.name)
	}
	// KernelPCA's Transform is Extend row by row.
	p := &KernelPCA{Dim: 3, Eigen: Settings{Tol: solveTol}}
	require.NoError(t, p.Fit(ctx, estimator.Nodes{Graph: g}))
	nn := estimator.NewNodes{Offsets: []int{0, 2}, Nodes: []int32{0, 5}, Weights: []float64{1, 2.5}}
	got, err := p.Transform(ctx, estimator.NodeQuery{New: &nn})
	require.NoError(t, err)
	want, err := p.Extend([]int{0, 5}, []float64{1, 2.5})
	require.NoError(t, err)
	assert.InDeltaSlice(t, want, got.RawRowView(0), 1e-14)
}

func TestSpectralClones(t *testing.T) {
	sc := &SpectralClustering{Clusters: 4, Isolated: 2, Eigen: Settings{Tol: 1e-8, Seed: 3}, KMeans: KMeansSettings{Restarts: 2, MaxIter: 9, Seed: 5}}
	assert.Equal(t, sc, sc.Clone())
	e := &LaplacianEigenmap{Dim: 3, Isolated: 1, Eigen: Settings{Seed: 4}}
	assert.Equal(t, e, e.Clone())
	p := &KernelPCA{Dim: 5, Isolated: 2, Eigen: Settings{MaxRestarts: 4}}
	assert.Equal(t, p, p.Clone())
	require.ErrorContains(t, (&SpectralClustering{Clusters: 2, KMeans: KMeansSettings{Restarts: -1}}).Validate(), "KMeans.Restarts = -1 is invalid")
	require.ErrorContains(t, (&LaplacianEigenmap{Eigen: Settings{Tol: 2}}).Validate(), "Tol = 2 is invalid")
}

// TestOrthogonality checks Result.Orthogonality against max |VᵀMV − I|
// computed with dense products.
func TestOrthogonality(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v := mat.NewDense(7, 3, nil)
	m := make([]float64, 7)
	for i := 0; i < 7; i++ {
		m[i] = rng.Float64() + 0.5
		for j := 0; j < 3; j++ {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	r := &Result{Vectors: v}
	for _, w := range [][]float64{nil, m} {
		d := mat.NewDiagDense(7, nil)
		for i := 0; i < 7; i++ {
			d.SetDiag(i, 1)
			if w != nil {
				d.SetDiag(i, w[i])
			}
		}
		var vm, g mat.Dense
		vm.Mul(v.T(), d)
		g.Mul(&vm, v)
		var want float64
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				x := g.At(a, b)
				if a == b {
					x--
				}
				want = max(want, math.Abs(x))
			}
		}
		assert.InDelta(t, want, r.Orthogonality(w), 1e-12)
	}
}
