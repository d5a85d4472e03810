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

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/modelfile"
)

// TestKernelRidgeModelRoundTrip: a KernelRidge read back (from bytes and
// through gob) scores new items' kernel rows bitwise as before; JSON is
// refused; every flipped byte is an error.
func TestKernelRidgeModelRoundTrip(t *testing.T) {
	x, labels := threeMoons(t, 40, 8)
	xt, _ := threeMoons(t, 15, 9)
	k := kernel.Gaussian{Sigma: 0.5}
	g, err := kernel.Gram(k, x, x)
	require.NoError(t, err)
	r := &KernelRidge{Ridge: 0.05}
	_, err = r.MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	require.NoError(t, r.Fit(context.Background(), SubGram(g, seq(0, 40)), labels))
	b, err := r.MarshalBinary()
	require.NoError(t, err)
	got := &KernelRidge{}
	require.NoError(t, got.UnmarshalBinary(b))
	var viaGob KernelRidge
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(r))
	require.NoError(t, gob.NewDecoder(&buf).Decode(&viaGob))
	cross, err := kernel.Gram(k, xt, x)
	require.NoError(t, err)
	s0, err := r.Scores(cross)
	require.NoError(t, err)
	for _, m := range []*KernelRidge{got, &viaGob} {
		s1, err := m.Scores(cross)
		require.NoError(t, err)
		for i, v := range s0.RawMatrix().Data {
			require.Equal(t, math.Float64bits(v), math.Float64bits(s1.RawMatrix().Data[i]))
		}
		assert.Equal(t, []any{r.Ridge, r.Classes(), r.Items()}, []any{m.Ridge, m.Classes(), m.Items()})
	}
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x01
		require.Error(t, (&KernelRidge{}).UnmarshalBinary(d), "byte %d", i)
	}
	f, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	assert.ErrorIs(t, (&SVC{}).ReadModelFile(f), modelfile.ErrKind)
	_, err = json.Marshal(r)
	assert.ErrorIs(t, err, estimator.ErrJSON)
}
