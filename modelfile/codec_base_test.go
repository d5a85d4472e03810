package modelfile

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

// wrapped is a model stored as another model's file with one section
// added (Codec.Base), as confidence.Classifier is.
type wrapped struct {
	inner *File
	extra []float64
}

var wrappedCodec = Codec[wrapped, struct{}]{Kind: "test.Wrapped",
	Fitted: func(m *wrapped) bool { return m.inner != nil },
	Base:   func(m *wrapped) (*File, error) { return Unmarshal(mustMarshal(m.inner)) },
	Put: func(m *wrapped, f *File) (struct{}, error) {
		f.PutFloat64s("extra", m.extra)
		return struct{}{}, nil
	},
	Get: func(f *File, _ struct{}, dst *wrapped) error {
		v, err := f.Float64s("extra")
		if err != nil {
			return errors.New("wrapped: no extra section")
		}
		dst.inner, dst.extra = f, v
		return nil
	},
}

func mustMarshal(f *File) []byte {
	b, err := f.MarshalBinary()
	if err != nil {
		panic(err)
	}
	return b
}

// TestCodecBase: a wrapper's file is its base's file (kind, version and
// metadata kept) with its sections added, byte for byte what adding them
// by hand gives; it reads back from any kind, and Get's error is returned
// as it is with the model unchanged.
func TestCodecBase(t *testing.T) {
	inner := New("test.Inner", 3)
	require.NoError(t, inner.SetMetadata(map[string]int{"k": 7}))
	inner.PutFloat64s("w", []float64{1, 2})
	m := &wrapped{inner: inner, extra: []float64{0.5}}
	got, err := wrappedCodec.Marshal(m)
	require.NoError(t, err)

	byHand, err := Unmarshal(mustMarshal(inner))
	require.NoError(t, err)
	byHand.PutFloat64s("extra", []float64{0.5})
	require.True(t, bytes.Equal(got, mustMarshal(byHand)), "the base's file with the section added")

	var back wrapped
	require.NoError(t, wrappedCodec.Unmarshal(got, &back))
	require.Equal(t, "test.Inner", back.inner.Kind)
	require.Equal(t, 3, back.inner.KindVersion)
	require.JSONEq(t, `{"k":7}`, string(back.inner.Metadata))
	require.Equal(t, []float64{0.5}, back.extra)

	plain := mustMarshal(inner)
	require.EqualError(t, wrappedCodec.Unmarshal(plain, &back), "wrapped: no extra section")
	require.Equal(t, []float64{0.5}, back.extra, "unchanged on an error")

	_, err = wrappedCodec.Marshal(&wrapped{})
	require.ErrorIs(t, err, estimator.ErrNotFitted)
}
