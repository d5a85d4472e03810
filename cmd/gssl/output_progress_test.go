package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProgressLineWithoutTerminal: without a terminal a stage prints one
// line when it ends, if it took progressLineAfter or more, and nothing
// otherwise.
func TestProgressLineWithoutTerminal(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 10, "knn")
	p.Add(10)
	p.Finish()
	require.Empty(t, b.String())

	p = newProgress(&b, 10, "knn")
	p.start = p.start.Add(-2 * progressLineAfter)
	p.Add(4)
	p.Add(6)
	p.Finish()
	p.Finish()
	require.Regexp(t, `^gssl: knn: 10 of 10 done in 2\.\d s\n$`, b.String())
}
