package helpfile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParse checks the help format on a small file and its errors.
func TestParse(t *testing.T) {
	h, err := Parse("# gssl x\n\nShort line\n\nLong\ntext.\n\n## Examples\n\n```\n  gssl x --a 1\n```\n\n## Flags\n\n- `--a`: the a\n- `--b-c`: b: and `c`\n\n## Renamed flags\n\n- `--x`: --a\n")
	require.NoError(t, err)
	require.Equal(t, Help{Short: "Short line", Long: "Long\ntext.", Example: "  gssl x --a 1",
		Flags: map[string]string{"a": "the a", "b-c": "b: and `c`"}, Renamed: map[string]string{"x": "a"}}, h)
	_, err = Parse("# gssl x\n\nS\n\n## Renamed flags\n\n- `--x`: a\n")
	require.ErrorContains(t, err, "line 7")
	_, err = Parse("# gssl x\n\nS\n\n## Flags\n\n- --a: no quotes\n")
	require.ErrorContains(t, err, "line 7")
	_, err = Parse("# gssl x\n\nS\n\n## Flags\n\n- `--a`: one\n- `--a`: two\n")
	require.ErrorContains(t, err, "--a is described twice")
	_, err = Parse("no title\n")
	require.ErrorContains(t, err, "line 1")
}
