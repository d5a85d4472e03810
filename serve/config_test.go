package serve

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

// Config.Validate names the field of a negative limit in an
// *estimator.FieldError and lets the zero values (the defaults) pass.
func TestConfigValidateNamesTheField(t *testing.T) {
	require.NoError(t, Config{}.Validate())
	var fe *estimator.FieldError
	err := Config{MaxGraphEdges: -3}.Validate()
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "MaxGraphEdges", fe.Field)
	assert.EqualError(t, err, fmt.Sprintf("serve: MaxGraphEdges = -3 is invalid: it must be ≥ 1 (0 means %d)", DefaultMaxGraphEdges))
	require.True(t, errors.As(Config{MaxBody: -1}.Validate(), &fe))
	assert.Equal(t, "MaxBody", fe.Field)
	assert.ErrorContains(t, Config{Token: "a b"}.Validate(), "white space")
}
