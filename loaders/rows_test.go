package loaders

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowSplitter checks the exported splitter against fields written out
// by hand: quoting, a networkx dictionary holding commas, white space.
func TestRowSplitter(t *testing.T) {
	for _, c := range []struct {
		line  string
		delim byte
		want  []string
	}{
		{`"a ""b""", c ,2`, ',', []string{`a "b"`, "c", "2"}},
		{`0,1,{'weight': 0.5, 'c': 1}`, ',', []string{"0", "1", "{'weight': 0.5, 'c': 1}"}},
		{"0\t1\t2.5", '\t', []string{"0", "1", "2.5"}},
		{`0  "x y" {'weight': 2}`, ' ', []string{"0", "x y", "{'weight': 2}"}},
	} {
		sp := NewRowSplitter(TableOptions{})
		got, err := sp.SplitRow(c.line)
		require.NoError(t, err, c.line)
		require.Equal(t, c.want, got, c.line)
		require.Equal(t, c.delim, sp.Delimiter(), c.line)
	}
	_, err := NewRowSplitter(TableOptions{Delimiter: ','}).SplitRow(`"a"b,c`)
	require.EqualError(t, err, `text after a closing quote: "b,c"`)
}

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
	require.True(t, IsHeader([]string{"Source", "target", "weight"}))
	require.True(t, IsHeaderAbove([]string{"a", "b"}, []string{"0", "1"}))
	require.False(t, IsHeaderAbove([]string{"a", "1"}, []string{"0", "1"}))
}
