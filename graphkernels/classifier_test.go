package graphkernels

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/svm"
)

// shapes are cycles (class 0), paths (class 1) and stars (class 2) of
// several sizes, labelled by degree.
func shapes(t *testing.T, sizes []int) ([]Graph, []int) {
	var gs []Graph
	var labels []int
	for _, n := range sizes {
		for c, g := range []func() Graph{
			func() Graph { a := cycle(t, n); return Graph{Adj: a, Labels: DegreeLabels(a)} },
			func() Graph { a := path(t, n); return Graph{Adj: a, Labels: DegreeLabels(a)} },
			func() Graph { a := star(t, n-1); return Graph{Adj: a, Labels: DegreeLabels(a)} },
		} {
			gs, labels = append(gs, g()), append(labels, c)
		}
	}
	return gs, labels
}

func TestWLClassifierMatchesSVCAndSaves(t *testing.T) {
	train, labels := shapes(t, []int{4, 5, 6, 8, 9})
	test, truth := shapes(t, []int{7, 10, 12})
	rng := rand.New(rand.NewPCG(3, 3))
	test = append(test, randomGraphs(t, rng, 3, 8, 0.4, 3)...) // labels unseen in training
	c := &WLClassifier{H: 2, C: 10}
	_, err := c.Predict(context.Background(), test)
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	require.NoError(t, c.Fit(context.Background(), train, labels))
	pred, err := c.Predict(context.Background(), test)
	require.NoError(t, err)
	assert.Equal(t, truth, estimator.Argmax(pred)[:len(truth)], "cycles, paths and stars of new sizes")

	// The same machine through the kernel interface and package svm.
	wl := &WeisfeilerLehman{H: 2}
	k, err := FitGram(context.Background(), wl, train)
	require.NoError(t, err)
	s := &svm.SVC{C: 10}
	require.NoError(t, s.Fit(context.Background(), k, labels))
	cross, _, err := wl.Cross(context.Background(), test)
	require.NoError(t, err)
	want, err := s.Decision(cross)
	require.NoError(t, err)
	dec, err := c.Decision(context.Background(), test)
	require.NoError(t, err)
	assert.True(t, mat.Equal(want, dec))

	b, err := c.MarshalBinary()
	require.NoError(t, err)
	got := &WLClassifier{}
	require.NoError(t, got.UnmarshalBinary(b))
	d2, err := got.Decision(context.Background(), test)
	require.NoError(t, err)
	for i, v := range dec.RawMatrix().Data {
		require.Equal(t, math.Float64bits(v), math.Float64bits(d2.RawMatrix().Data[i]), "value %d", i)
	}
	p2, err := got.Predict(context.Background(), test)
	require.NoError(t, err)
	assert.Equal(t, pred, p2)
	assert.Equal(t, []any{c.H, c.C, c.Settings}, []any{got.H, got.C, got.Settings})
	b2, err := got.MarshalBinary()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(b, b2), "a read classifier writes the same bytes")
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(c))
	viaGob := &WLClassifier{}
	require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
	p3, err := viaGob.Predict(context.Background(), test)
	require.NoError(t, err)
	assert.Equal(t, pred, p3)
	_, err = json.Marshal(c)
	assert.ErrorIs(t, err, estimator.ErrJSON)
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x40
		require.Error(t, (&WLClassifier{}).UnmarshalBinary(d), "byte %d of %d", i, len(b))
	}
	_, err = (&WLClassifier{}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
}
