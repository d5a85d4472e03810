package nodefolder

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAppendPyRepr compares with CPython 3's repr of the same doubles
// (printed by python3 -c "print(repr(v))").
func TestAppendPyRepr(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{1, "1.0"},
		{0.5, "0.5"},
		{0.0001, "0.0001"},
		{1e-05, "1e-05"},
		{0.00012345, "0.00012345"},
		{1234567890123456, "1234567890123456.0"},
		{1e16, "1e+16"},
		{1.5e16, "1.5e+16"},
		{-2.5, "-2.5"},
		{123456, "123456.0"},
		{1e6, "1000000.0"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{-3.0000001e-7, "-3.0000001e-07"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
	} {
		assert.Equal(t, c.want, string(AppendPyRepr(nil, c.v)), "%v", c.v)
	}
}
