package loaders

import (
	"os"
	"path/filepath"
	"strings"
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
