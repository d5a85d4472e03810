package svm

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

// threeMoons is two moons with a third class: the points right of x = 1.2.
func threeMoons(t *testing.T, n int, seed uint64) (*mat.Dense, []int) {
	x, labels, err := TwoMoons(n, 0.2, seed)
	require.NoError(t, err)
	for i := range labels {
		if x.At(i, 0) > 1.2 {
			labels[i] = 2
		}
	}
	return x, labels
}

func TestPointSVCMatchesSVC(t *testing.T) {
	x, labels := threeMoons(t, 120, 1)
	xt, _ := threeMoons(t, 40, 2)
	k := kernel.Gaussian{Sigma: 0.5}
	p := &PointSVC{Kernel: k, C: 2}
	require.NoError(t, p.Fit(context.Background(), x, labels))
	g, err := kernel.Gram(k, x, x)
	require.NoError(t, err)
	all := seq(0, 120)
	s := &SVC{C: 2}
	require.NoError(t, s.Fit(context.Background(), SubGram(g, all), labels))
	cross, err := kernel.Gram(k, xt, x)
	require.NoError(t, err)
	want, err := s.Decision(cross)
	require.NoError(t, err)
	got, err := p.Decision(xt)
	require.NoError(t, err)
	require.Equal(t, 3, got.RawMatrix().Cols)
	for i, v := range want.RawMatrix().Data {
		assert.InDelta(t, v, got.RawMatrix().Data[i], 1e-9, "decision %d", i)
	}
	assert.Equal(t, s.SupportVectors(), p.SupportVectors())
	assert.Equal(t, s.Iterations(), p.Iterations())
	assert.Less(t, p.SupportVectors(), 120, "the model keeps only the support points")
	// The predicted class is the argmax of the votes, which is SVC's
	// prediction on the same kernel rows.
	votes, err := p.Predict(context.Background(), xt)
	require.NoError(t, err)
	svcPred, err := svcClasses(s, cross)
	require.NoError(t, err)
	assert.Equal(t, svcPred, estimator.Argmax(votes))
	for i := 0; i < 30; i++ {
		assert.Equal(t, 3.0, mat.Sum(votes.RowView(i)), "one vote per machine")
	}
	_, err = p.Predict(context.Background(), mat.NewDense(1, 3, nil))
	assert.ErrorContains(t, err, "the points have 3 coordinates, the model was fitted on 2")
	_, err = (&PointSVC{Kernel: k}).Predict(context.Background(), xt)
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	assert.ErrorContains(t, (&PointSVC{}).Fit(context.Background(), x, labels), "needs a Kernel")
}

func TestPointSVCModelRoundTrip(t *testing.T) {
	x, labels := threeMoons(t, 90, 3)
	xt, _ := threeMoons(t, 30, 4)
	for _, p := range []*PointSVC{
		{Kernel: kernel.Gaussian{Sigma: 0.7}, C: 1},
		{Kernel: kernel.Polynomial{Degree: 3, Gamma: 1, Coef0: 1}, C: 0.5, Settings: Settings{Tol: 1e-4}},
		{Kernel: kernel.Linear{}, C: 10},
	} {
		require.NoError(t, p.Fit(context.Background(), x, labels))
		b, err := p.MarshalBinary()
		require.NoError(t, err)
		got := &PointSVC{}
		require.NoError(t, got.UnmarshalBinary(b))
		d0, err := p.Decision(xt)
		require.NoError(t, err)
		d1, err := got.Decision(xt)
		require.NoError(t, err)
		for i, v := range d0.RawMatrix().Data {
			require.Equal(t, math.Float64bits(v), math.Float64bits(d1.RawMatrix().Data[i]), "%v decision %d", p.Kernel, i)
		}
		p0, _ := p.Predict(context.Background(), xt)
		p1, _ := got.Predict(context.Background(), xt)
		assert.Equal(t, p0, p1)
		assert.Equal(t, p.SupportIndices(), got.SupportIndices())
		assert.Equal(t, []any{p.Kernel, p.C, p.Settings, p.Classes(), p.Iterations()}, []any{got.Kernel, got.C, got.Settings, got.Classes(), got.Iterations()})
		b2, err := got.MarshalBinary()
		require.NoError(t, err)
		assert.True(t, bytes.Equal(b, b2))
		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(p))
		viaGob := &PointSVC{}
		require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
		p2, _ := viaGob.Predict(context.Background(), xt)
		assert.Equal(t, p0, p2)
		_, err = json.Marshal(p)
		assert.ErrorIs(t, err, estimator.ErrJSON)
		for i := 0; i < len(b); i += 7 {
			d := bytes.Clone(b)
			d[i] ^= 0x08
			require.Error(t, (&PointSVC{}).UnmarshalBinary(d), "byte %d", i)
		}
	}
	_, err := (&PointSVC{Kernel: kernel.Linear{}}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	f := modelfile.New("krr.Exact", 1)
	raw, _ := f.MarshalBinary()
	assert.ErrorIs(t, (&PointSVC{}).UnmarshalBinary(raw), modelfile.ErrKind)
}

func TestSVCKeepsLastIterate(t *testing.T) {
	x, labels := threeMoons(t, 80, 5)
	p := &PointSVC{Kernel: kernel.Gaussian{Sigma: 0.5}, C: 100, Settings: Settings{MaxIter: 2}}
	err := p.Fit(context.Background(), x, labels)
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, "SMO", nc.Method)
	pred, err := p.Predict(context.Background(), x)
	require.NoError(t, err, "a model that stopped at its cap predicts")
	r, _ := pred.Dims()
	assert.Equal(t, 80, r)
}

func TestSVCModelRoundTrip(t *testing.T) {
	x, labels := threeMoons(t, 60, 6)
	xt, _ := threeMoons(t, 20, 7)
	k := kernel.Gaussian{Sigma: 0.5}
	g, err := kernel.Gram(k, x, x)
	require.NoError(t, err)
	s := &SVC{C: 3, Settings: Settings{Tol: 1e-4}}
	require.NoError(t, s.Fit(context.Background(), SubGram(g, seq(0, 60)), labels))
	b, err := s.MarshalBinary()
	require.NoError(t, err)
	got := &SVC{}
	require.NoError(t, got.UnmarshalBinary(b))
	cross, err := kernel.Gram(k, xt, x)
	require.NoError(t, err)
	d0, err := s.Decision(cross)
	require.NoError(t, err)
	d1, err := got.Decision(cross)
	require.NoError(t, err)
	for i, v := range d0.RawMatrix().Data {
		require.Equal(t, math.Float64bits(v), math.Float64bits(d1.RawMatrix().Data[i]))
	}
	assert.Equal(t, []any{s.C, s.Settings, s.Classes(), s.Iterations(), s.Items()}, []any{got.C, got.Settings, got.Classes(), got.Iterations(), got.Items()})
	for i := 0; i < len(b); i += 3 {
		d := bytes.Clone(b)
		d[i] ^= 0x01
		require.Error(t, (&SVC{}).UnmarshalBinary(d), "byte %d", i)
	}
	_, err = (&SVC{}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = json.Marshal(s)
	assert.ErrorIs(t, err, estimator.ErrJSON)
}
