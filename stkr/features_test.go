package stkr

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/propagate"
)

func TestFeatureKernelAgainstDense(t *testing.T) {
	const n, d = 20, 5
	rng := rand.New(rand.NewPCG(4, 4))
	var edges []graph.Edge
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < 0.25 {
				edges = append(edges, graph.Edge{U: u, V: v, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	xs := &loaders.Sparse{Rows: n, Cols: d, Indptr: []int{0}}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if i != 2 && rng.Float64() < 0.5 {
				xs.Indices = append(xs.Indices, int32(j))
				xs.Values = append(xs.Values, rng.NormFloat64())
			}
		}
		xs.Indptr = append(xs.Indptr, len(xs.Indices))
	}
	xd := xs.Dense(nil)
	// Reference: (S + γ X̂X̂ᵀ/N)/(1+γ) with X̂ the row-normalised dense X.
	gk, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := gk.s.Dense()
	xh := mat.DenseCopyOf(xd)
	for i := 0; i < n; i++ {
		row := xh.RawRowView(i)
		nr := math.Sqrt(mat.Dot(mat.NewVecDense(d, row), mat.NewVecDense(d, row)))
		if nr > 0 {
			for j := range row {
				row[j] /= nr
			}
		}
	}
	const gamma = 0.7
	var kf, want mat.Dense
	kf.Mul(xh, xh.T())
	kf.Scale(gamma/n, &kf)
	want.Add(s, &kf)
	want.Scale(1/(1+gamma), &want)
	var es mat.EigenSym
	require.True(t, es.Factorize(mat.NewSymDense(n, want.RawMatrix().Data), false))
	for _, v := range es.Values(nil) {
		require.LessOrEqual(t, math.Abs(v), 1+1e-12, "spectrum within Radius")
	}
	x := mat.NewDense(n, 3, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	var ref mat.Dense
	ref.Mul(&want, x)
	for name, f := range map[string]propagate.Features{"sparse": {Sparse: xs}, "dense": {Dense: xd}} {
		k, err := NewFeatureKernel(g, f, gamma)
		require.NoError(t, err)
		got := mat.NewDense(n, 3, nil)
		k.MulBlockTo(got, x)
		// a few rounding errors per entry of O(1) sums
		require.True(t, mat.EqualApprox(&ref, got, 1e-12), name)
		v := make([]float64, n)
		k.MulVecTo(v, mat.Col(nil, 1, x))
		require.InDeltaSlice(t, mat.Col(nil, 1, &ref), v, 1e-12, name)
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 0.1}
		y := mat.NewDense(4, 1, []float64{1, 0, 1, 0})
		require.NoError(t, r.FitIndexed(context.Background(), k, []int{0, 1, 5, 9}, y), name)
	}
	_, err = NewFeatureKernel(g, propagate.Features{Sparse: xs}, -1)
	require.Error(t, err)
}
