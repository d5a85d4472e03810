package loaders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEdgeColumnsMatchesReader checks that EdgeColumns refuses a column
// with the very error ReadEdgeTable gives for the same file.
func TestEdgeColumnsMatchesReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.csv")
	require.NoError(t, os.WriteFile(path, []byte("src,dst\n0,1\n"), 0o644))
	opt := EdgeTableOptions{Weight: "w"}
	_, want := ReadEdgeTable(path, opt, nil)
	require.Error(t, want)
	_, _, _, _, got := EdgeColumns(path, []string{"src", "dst"}, ',', opt, []string{"0", "1"})
	require.EqualError(t, got, want.Error())

	src, dst, w, dict, err := EdgeColumns(path, nil, ' ', EdgeTableOptions{}, []string{"a", "b", "{'weight': 3}"})
	require.NoError(t, err)
	require.Equal(t, []any{0, 1, 2, true}, []any{src, dst, w, dict})
}

// TestTableReader reads a small table through the exported reader: the
// byte-order mark, comment and blank lines, header and line numbers.
func TestTableReader(t *testing.T) {
	l, err := NewLines(strings.NewReader("\ufeffsource,target\n# c\n0,1\n\n2,3\n"), "e.csv")
	require.NoError(t, err)
	r := NewTableReader(l, TableOptions{}, "#")
	var rows [][]string
	var lines []int
	for {
		f, line, ok, err := r.Row()
		require.NoError(t, err)
		if !ok {
			break
		}
		rows, lines = append(rows, f), append(lines, line)
	}
	require.Equal(t, [][]string{{"0", "1"}, {"2", "3"}}, rows)
	require.Equal(t, []int{3, 5}, lines)
	require.Equal(t, []string{"source", "target"}, r.Header())
	require.Equal(t, byte(','), r.Delimiter())
	require.Equal(t, 1, r.HeaderIndex("dst", "target"))
	require.True(t, r.BlankBetween(3, 5))

	_, err = NewLines(strings.NewReader(""), "e.csv")
	require.EqualError(t, err, "loaders: e.csv: empty file")
}
