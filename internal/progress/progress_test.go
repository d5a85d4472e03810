package progress

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// Without a terminal a stage prints one line when it ends, if it took
// LineAfter or more, and nothing otherwise.
func TestLineWithoutTerminal(t *testing.T) {
	var b bytes.Buffer
	p := New(&b, 10, "knn")
	p.Add(10)
	p.Finish()
	require.Empty(t, b.String())

	p = New(&b, 10, "knn")
	p.start = p.start.Add(-2 * LineAfter)
	p.Add(4)
	p.Add(6)
	p.Finish()
	p.Finish()
	require.Regexp(t, `^gssl: knn: 10 of 10 done in 2\.\d s\n$`, b.String())
}

// Steps without a terminal: one line per new, non-empty stage message.
func TestStepsLines(t *testing.T) {
	var b bytes.Buffer
	s := NewSteps(&b, 4, "cmd")
	s.To(1, 4, "seed %d of %d done", 1, 4)
	s.To(1, 4, "seed %d of %d done", 1, 4)
	s.To(2, 4, "")
	s.To(3, 4, "seed %d of %d done", 3, 4)
	s.Finish()
	require.Equal(t, "cmd: seed 1 of 4 done\ncmd: seed 3 of 4 done\n", b.String())
}
