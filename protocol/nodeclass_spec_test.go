package protocol

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/nodeclass"
)

func TestNodeClassSpecSearch(t *testing.T) {
	for _, name := range append(NodeClassModels, "cs") {
		s, err := NodeClassSpec{Classifier: name}.Search()
		require.NoError(t, err, name)
		want, err := NodeClassSearch(name, 0, false)
		require.NoError(t, err, name)
		assert.Equal(t, len(want.Grid(3)), len(s.Grid(3)), name)
		assert.Equal(t, want.Refine == nil, s.Refine == nil, name)
	}
	s, err := NodeClassSpec{Classifier: "stkr", FeatureWeight: 0.5}.Search()
	require.NoError(t, err)
	assert.Equal(t, 0.5, s.Grid(2)[0].(*nodeclass.STKR).FeatureWeight)
	s, err = NodeClassSpec{Classifier: "sgc", Embed: 4}.Search()
	require.NoError(t, err)
	assert.Equal(t, nodeclass.NoNormalization, s.Grid(2)[0].(*nodeclass.SGC).Normalization, "embedded features are not row-normalised")
}

func TestNodeClassSpecNamesTheField(t *testing.T) {
	for _, c := range []struct {
		spec  NodeClassSpec
		field string
	}{
		{NodeClassSpec{Classifier: "gcn"}, "Classifier"},
		{NodeClassSpec{Classifier: "sgc", FeatureWeight: 0.5}, "FeatureWeight"},
		{NodeClassSpec{Classifier: "stkr", FeatureWeight: -1}, "FeatureWeight"},
		{NodeClassSpec{Classifier: "stkr", FeatureWeight: math.Inf(1)}, "FeatureWeight"},
		{NodeClassSpec{Classifier: "stkr", FeatureWeight: math.NaN()}, "FeatureWeight"},
		{NodeClassSpec{Classifier: "auto", Embed: -1}, "Embed"},
	} {
		var fe *estimator.FieldError
		err := c.spec.Validate()
		require.True(t, errors.As(err, &fe), "%+v: %v", c.spec, err)
		assert.Equal(t, c.field, fe.Field, "%+v", c.spec)
	}
}
