package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/parallel"
)

// TestSpinFlag: --spin wins over GSSL_SPIN, which is used when the flag is
// not given; 0 parks at once; invalid values name the flag or variable.
func TestSpinFlag(t *testing.T) {
	defer func(c parallel.Config) { require.NoError(t, parallel.Configure(c)) }(parallel.Current())
	for _, c := range []struct {
		spin  time.Duration
		given bool
		env   string
		want  time.Duration
	}{
		{parallel.DefaultSpin, false, "", parallel.DefaultSpin},
		{parallel.DefaultSpin, false, "1ms", time.Millisecond},
		{parallel.DefaultSpin, false, "0", -1},
		{50 * time.Microsecond, true, "1ms", 50 * time.Microsecond},
		{0, true, "", -1},
	} {
		require.NoError(t, configureParallel(c.spin, c.given, c.env))
		assert.Equal(t, c.want, parallel.Current().Spin, "%+v", c)
	}
	assert.ErrorContains(t, configureParallel(parallel.DefaultSpin, false, "fast"), `GSSL_SPIN="fast" is invalid`)
	assert.ErrorContains(t, configureParallel(parallel.DefaultSpin, false, "-1ms"), "GSSL_SPIN")
	assert.ErrorContains(t, configureParallel(-time.Millisecond, true, ""), "--spin=-1ms is invalid")
}
