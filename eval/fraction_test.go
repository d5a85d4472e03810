package eval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRandomLabelled(t *testing.T) {
	lab, err := RandomLabelled(100, 0.1, 3)
	require.NoError(t, err)
	assert.Len(t, lab, 10)
	seen := map[int]bool{}
	for _, i := range lab {
		assert.False(t, seen[i])
		assert.True(t, i >= 0 && i < 100)
		seen[i] = true
	}
	_, err = RandomLabelled(100, 0.001, 3)
	require.ErrorContains(t, err, "labels no point")
	_, err = RandomLabelled(100, -1, 3)
	require.ErrorContains(t, err, "fraction -1 is invalid")
}
