package protocol

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
)

// krrProblem draws n points in [−2, 2]^d with a smooth two-output target
// and noise 0.1.
func krrProblem(seed uint64, n, d int) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 4*rng.Float64()-2)
		}
		r := x.RawRowView(i)
		y.Set(i, 0, math.Sin(r[0])+0.5*r[1]*r[1%d]+0.1*rng.NormFloat64())
		y.Set(i, 1, math.Cos(r[0]*r[d-1])+0.1*rng.NormFloat64())
	}
	return x, y
}

// TestSweepCentresMatchesSeparateFits: every point of the sweep is the fit
// one would get by setting Centres.M by hand (bitwise: the same arithmetic),
// the uniform centre sets are nested, and the model given is not touched.
func TestSweepCentresMatchesSeparateFits(t *testing.T) {
	x, y := krrProblem(11, 300, 3)
	xt, _ := krrProblem(12, 40, 3)
	ms := []int{10, 40, 120}
	k := kernel.Gaussian{Sigma: 1.2}
	ctx := context.Background()
	for _, model := range []krr.MultiOutput{
		&krr.Falkon{Kernel: k, Lambda: 1e-4, Centres: krr.Centres{Seed: 3}, Iterations: 8},
		&krr.Nystrom{Kernel: k, Lambda: 1e-4, Centres: krr.Centres{Seed: 3}},
	} {
		pts, err := SweepCentres(ctx, model, ms, x, y, xt)
		require.NoError(t, err)
		require.Len(t, pts, len(ms))
		var prev []int
		for i, p := range pts {
			require.Equal(t, ms[i], p.M)
			require.Equal(t, ms[i], p.Centres)
			var one krr.MultiOutput
			var idx func() []int
			switch m := model.(type) {
			case *krr.Falkon:
				f := &krr.Falkon{Kernel: m.Kernel, Lambda: m.Lambda, Centres: m.Centres, Iterations: m.Iterations}
				f.Centres.M = ms[i]
				one, idx = f, func() []int { return f.Details().Centres }
				assert.Equal(t, 8, p.Info.Iterations)
			case *krr.Nystrom:
				s := &krr.Nystrom{Kernel: m.Kernel, Lambda: m.Lambda, Centres: m.Centres}
				s.Centres.M = ms[i]
				one, idx = s, s.CentreIndices
			}
			require.NoError(t, one.FitTargets(ctx, x, y))
			want, err := one.PredictTargets(ctx, xt)
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
	f := &krr.Falkon{Kernel: k, Lambda: 1e-4, Iterations: 8}
	_, err := SweepCentres(ctx, f, ms, x, y, nil)
	require.NoError(t, err)
	assert.Zero(t, f.Centres.M, "the model given is not modified")
	_, err = f.PredictTargets(ctx, xt)
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
}

func TestSweepCentresRefuses(t *testing.T) {
	x, y := krrProblem(11, 50, 2)
	k := kernel.Gaussian{Sigma: 1}
	for _, c := range []struct {
		model krr.MultiOutput
		ms    []int
		want  string
	}{
		{&krr.Falkon{Kernel: k, Lambda: 1e-3}, nil, "no value of M"},
		{&krr.Falkon{Kernel: k, Lambda: 1e-3}, []int{10, 0}, "M=0 (value 2) is invalid"},
		{&krr.Falkon{Kernel: k, Lambda: 1e-3}, []int{10, 51}, "M=51: krr: M=51 is invalid: it must be in [1, n=50]"},
		{&krr.Falkon{Kernel: k, Lambda: 1e-3, Centres: krr.Centres{Sampler: krr.Fixed{1, 2}}}, []int{2}, "Fixed centres hold one M"},
		{&krr.Exact{Kernel: k, Lambda: 1e-3}, []int{2}, "a *krr.Exact has no Nyström centres"},
	} {
		_, err := SweepCentres(context.Background(), c.model, c.ms, x, y, nil)
		require.ErrorContains(t, err, c.want)
	}
}
