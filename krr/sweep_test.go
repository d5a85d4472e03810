package krr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// TestSweepCentresMatchesSeparateFits: every point of the sweep is the fit
// one would get by setting Centres.M by hand (bitwise: the same arithmetic),
// the uniform centre sets are nested, and the model given is not touched.
func TestSweepCentresMatchesSeparateFits(t *testing.T) {
	x, y := problem(11, 300, 3)
	xt, _ := problem(12, 40, 3)
	ms := []int{10, 40, 120}
	k := kernel.Gaussian{Sigma: 1.2}
	for _, model := range []Regressor{
		&Falkon{Kernel: k, Lambda: 1e-4, Centres: Centres{Seed: 3}, Iterations: 8},
		&Nystrom{Kernel: k, Lambda: 1e-4, Centres: Centres{Seed: 3}},
	} {
		pts, err := SweepCentres(ctx, model, ms, x, y, xt)
		require.NoError(t, err)
		require.Len(t, pts, len(ms))
		var prev []int
		for i, p := range pts {
			require.Equal(t, ms[i], p.M)
			require.Equal(t, ms[i], p.Centres)
			var one Regressor
			var idx func() []int
			switch m := model.(type) {
			case *Falkon:
				f := *m
				f.Centres.M = ms[i]
				one, idx = &f, func() []int { return f.Info().Centres }
				assert.Equal(t, 8, p.Info.Iterations)
			case *Nystrom:
				s := *m
				s.Centres.M = ms[i]
				one, idx = &s, s.CentreIndices
			}
			require.NoError(t, one.Fit(ctx, x, y))
			want, err := one.Predict(xt)
			require.NoError(t, err)
			assert.True(t, mat.Equal(want, p.Prediction), "%T M=%d", model, p.M)
			assert.GreaterOrEqual(t, p.FitSeconds, 0.0)
			// Nested: the centres of a smaller M are among those of a larger.
			cur := idx()
			in := map[int]bool{}
			for _, c := range cur {
				in[c] = true
			}
			for _, c := range prev {
				assert.True(t, in[c], "%T: centre %d of the smaller M missing at M=%d", model, c, p.M)
			}
			prev = cur
		}
	}
	f := &Falkon{Kernel: k, Lambda: 1e-4, Iterations: 8}
	_, err := SweepCentres(ctx, f, ms, x, y, nil)
	require.NoError(t, err)
	assert.Zero(t, f.Centres.M, "the model given is not modified")
	_, err = f.Predict(xt)
	assert.ErrorIs(t, err, ErrNotFitted)
}

func TestSweepCentresRefuses(t *testing.T) {
	x, y := problem(11, 50, 2)
	k := kernel.Gaussian{Sigma: 1}
	for _, c := range []struct {
		model Regressor
		ms    []int
		want  string
	}{
		{&Falkon{Kernel: k, Lambda: 1e-3}, nil, "no value of M"},
		{&Falkon{Kernel: k, Lambda: 1e-3}, []int{10, 0}, "M=0 (value 2) is invalid"},
		{&Falkon{Kernel: k, Lambda: 1e-3}, []int{10, 51}, "M=51: krr: M=51 is invalid: it must be in [1, n=50]"},
		{&Falkon{Kernel: k, Lambda: 1e-3, Centres: Centres{Sampler: Fixed{1, 2}}}, []int{2}, "Fixed centres hold one M"},
		{&Exact{Kernel: k, Lambda: 1e-3}, []int{2}, "a *krr.Exact has no Nyström centres"},
	} {
		_, err := SweepCentres(ctx, c.model, c.ms, x, y, nil)
		require.ErrorContains(t, err, c.want)
	}
}
