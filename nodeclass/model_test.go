package nodeclass

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/propagate"
)

type savedModel interface {
	Base
	fileModel
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

// TestModelFileRoundTrip: each feature model read back from its bytes (and
// through gob) predicts the fitted nodes and, where it can, a new graph
// bitwise as before; JSON is refused; a flipped byte is an error.
func TestModelFileRoundTrip(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, _ := planted(t, 40, 3, 6, 5)
	x := Features{Sparse: xs}
	for _, tc := range []struct {
		m, fresh  savedModel
		inductive bool
	}{
		{&SGC{K: 3, L2: 1e-2}, &SGC{}, true},
		{&APPNP{Alpha: 0.8, Normalization: NoNormalization, Propagation: propagateSettings()}, &APPNP{}, true},
		{&CorrectSmooth{Base: &APPNP{}, Scale: 0.5}, &CorrectSmooth{}, false},
	} {
		name := tc.m.(interface{ String() string }).String()
		_, err := tc.fresh.MarshalBinary()
		require.True(t, errors.Is(err, estimator.ErrNotFitted), name)
		require.NoError(t, tc.m.Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(x)}, labels), name)
		b, err := tc.m.MarshalBinary()
		require.NoError(t, err, name)
		require.NoError(t, tc.fresh.UnmarshalBinary(b), name)
		want, err := tc.m.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		got, err := tc.fresh.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		require.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data, name)
		if tc.inductive {
			type pg interface {
				predictGraph(context.Context, *graph.CSR, Features) (*mat.Dense, error)
			}
			pw, err := tc.m.(pg).predictGraph(ctx, g, Features{Dense: xs.Dense(nil)})
			require.NoError(t, err)
			pgot, err := tc.fresh.(pg).predictGraph(ctx, g, Features{Dense: xs.Dense(nil)})
			require.NoError(t, err)
			require.Equal(t, pw.RawMatrix().Data, pgot.RawMatrix().Data, name)
		}
		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(tc.m), name)
		viaGob := reflect.New(reflect.TypeOf(tc.fresh).Elem()).Interface().(savedModel)
		require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob), name)
		pg, err := viaGob.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		require.Equal(t, want.RawMatrix().Data, pg.RawMatrix().Data, name)
		_, err = json.Marshal(tc.m)
		assert.True(t, errors.Is(err, estimator.ErrJSON), name)
		for i := range b {
			d := bytes.Clone(b)
			d[i] ^= 0x01
			require.Error(t, tc.fresh.UnmarshalBinary(d), "%s: byte %d flipped", name, i)
		}
		// Another kind is refused by name.
		f, err := modelfile.Unmarshal(b)
		require.NoError(t, err)
		other := map[string]savedModel{SGCKind: &APPNP{}, APPNPKind: &CorrectSmooth{}, CorrectSmoothKind: &SGC{}}[f.Kind]
		assert.ErrorIs(t, other.ReadModelFile(f), modelfile.ErrKind, name)
	}
}

func propagateSettings() propagate.Settings { return propagate.Settings{Tol: 1e-5, MaxIter: 300} }

func ptrTo[T any](v T) *T { return &v }
