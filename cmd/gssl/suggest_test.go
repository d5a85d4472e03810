package main

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"edge", "edges", 1}, {"kitten", "sitting", 3}, {"alpha", "aplha", 1}, {"ca", "abc", 3}, {"", "abc", 3}} {
		assert.Equal(t, c.d, editDistance(c.a, c.b), "%q %q", c.a, c.b)
		assert.Equal(t, c.d, editDistance(c.b, c.a), "%q %q", c.b, c.a)
	}
}

// TestUnknownFlagSuggests runs the real command line: a misspelt flag is a
// usage error that names the flag the user meant.
func TestUnknownFlagSuggests(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"labelprop", "--edge", "x.csv"}, "did you mean --edges?"},
		{[]string{"labelprop", "--alhpa", "0.5"}, "did you mean --alpha?"},
		{[]string{"info", "--jsno"}, "did you mean --json?"},
		{[]string{"labelprop", "--zzzzzzzz"}, "gssl labelprop --help lists the flags"},
	} {
		root := newRoot()
		var out, errw bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&errw)
		root.SetArgs(c.args)
		err := root.Execute()
		require.Error(t, err, "%v", c.args)
		assert.True(t, errors.As(err, new(usageError)), "%v: %v", c.args, err)
		assert.Contains(t, err.Error(), c.want, "%v", c.args)
	}
}
