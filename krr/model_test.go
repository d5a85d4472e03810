package krr

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/modelfile"
)

// saved is what the three expansions offer for the round trip.
type saved interface {
	MultiOutput
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

func TestModelRoundTrip(t *testing.T) {
	x, y := problem(5, 60, 3)
	xt, _ := problem(6, 9, 3)
	for _, c := range []struct {
		m, fresh saved
	}{
		{&Exact{Kernel: kernel.Gaussian{Sigma: 1.5}, Lambda: 1e-3}, &Exact{}},
		{&Exact{Kernel: kernel.Polynomial{Degree: 2, Gamma: 0.5, Coef0: 1}, Lambda: 1e-2, Precision: kernel.Float32}, &Exact{}},
		{&Nystrom{Kernel: kernel.Matern{Nu: 1.5, Length: 2}, Lambda: 1e-4, Centres: Centres{M: 20, Seed: 3}}, &Nystrom{}},
		{&Nystrom{Kernel: kernel.Laplacian{Sigma: 2}, Lambda: 1e-4, Centres: Centres{Sampler: Fixed{0, 5, 9, 11}}}, &Nystrom{}},
		{&Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-5, Centres: Centres{M: 25, Sampler: Leverage{Pilot: 30}}, Iterations: 15, Products: Streamed}, &Falkon{}},
		{&Falkon{Kernel: kernel.Linear{C: 1}, Lambda: 1e-3, Centres: Centres{M: 10, Sampler: Uniform{}}, BlockRows: 7}, &Falkon{}},
		{&RandomFeatures{Sigma: 1.2, D: 40, Lambda: 1e-4, Seed: 9}, &RandomFeatures{}},
		{&RandomFeatures{Lambda: 1e-3, FixedMap: func() *FourierMap { m, _ := NewFourierMap(0.8, 3, 17, 2); return m }()}, &RandomFeatures{}},
	} {
		require.NoError(t, c.m.FitTargets(context.Background(), x, y), "%T", c.m)
		b, err := c.m.MarshalBinary()
		require.NoError(t, err)
		require.NoError(t, c.fresh.UnmarshalBinary(b))
		want, err := c.m.PredictTargets(ctx, xt)
		require.NoError(t, err)
		got, err := c.fresh.PredictTargets(ctx, xt)
		require.NoError(t, err)
		w, g := want.RawMatrix().Data, got.RawMatrix().Data
		require.Len(t, g, len(w))
		for i := range w {
			require.Equal(t, math.Float64bits(w[i]), math.Float64bits(g[i]), "%T: prediction %d", c.m, i)
		}
		b2, err := c.fresh.MarshalBinary()
		require.NoError(t, err)
		assert.True(t, bytes.Equal(b, b2), "%T: a model read back encodes to the same bytes", c.m)
		switch m := c.m.(type) {
		case *Nystrom:
			g := c.fresh.(*Nystrom)
			assert.Equal(t, m.CentreIndices(), g.CentreIndices())
			assert.Equal(t, m.Centres, g.Centres)
			assert.Equal(t, m.JitterUsed(), g.JitterUsed())
		case *RandomFeatures:
			g := c.fresh.(*RandomFeatures)
			assert.Equal(t, []any{m.Sigma, m.D, m.Lambda, m.Seed, m.FixedMap != nil}, []any{g.Sigma, g.D, g.Lambda, g.Seed, g.FixedMap != nil})
			assert.Equal(t, m.Features(), g.Features())
			assert.Equal(t, m.Outputs(), g.Outputs())
		case *Falkon:
			g := c.fresh.(*Falkon)
			assert.Equal(t, m.Info(), g.Info())
			assert.Equal(t, m.Centres, g.Centres)
			assert.Equal(t, []any{m.Iterations, m.Tol, m.Products, m.BlockRows}, []any{g.Iterations, g.Tol, g.Products, g.BlockRows})
		}

		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(c.m))
		_, err = json.Marshal(c.m)
		assert.ErrorIs(t, err, estimator.ErrJSON)
		for i := 0; i < len(b); i += 5 {
			d := bytes.Clone(b)
			d[i] ^= 0x10
			require.Error(t, c.fresh.UnmarshalBinary(d), "%T byte %d", c.m, i)
		}
	}
	_, err := (&Exact{}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	b, err := (&Exact{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1}).ModelFile()
	assert.Nil(t, b)
	assert.ErrorIs(t, err, ErrNotFitted)
	e := &Exact{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3}
	require.NoError(t, e.FitTargets(context.Background(), x, y))
	raw, err := e.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, (&Falkon{}).UnmarshalBinary(raw), modelfile.ErrKind)
	assert.Equal(t, 3, e.Features())
	_, c := y.Dims()
	assert.Equal(t, c, e.Outputs())
	_ = mat.NewDense
}
