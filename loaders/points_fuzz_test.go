package loaders

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzPointTable: a table either parses into finite values with one id per
// row, or is a ParseError; memory stays within a constant times the input
// (one float per field at most).
func FuzzPointTable(f *testing.F) {
	f.Add([]byte("id,a,b\nu1,1,2\nu2,3,4\n"), "id")
	f.Add([]byte("7 1 2\n8 3 4\n"), "1")
	f.Add([]byte("1,2\n3\n"), "")
	f.Add([]byte("a,b\n"), "2")
	f.Add([]byte(",\n,\n"), "1")
	f.Add([]byte("x,1e999\n"), "1")
	f.Fuzz(func(t *testing.T, data []byte, ids string) {
		lr, err := lines(data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		tb, err := decodePointTable(lr, ids)
		if err != nil {
			requireFileError(t, err)
			return
		}
		r, c := tb.X.Dims()
		require.Positive(t, r)
		require.LessOrEqual(t, r*c, len(data))
		require.Len(t, tb.Lines, r)
		if tb.IDs != nil {
			require.Len(t, tb.IDs, r)
		}
		for _, v := range tb.X.RawMatrix().Data {
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0))
		}
	})
}

// FuzzValueColumn: values parse with one line each, or a ParseError; the
// classes are numbered densely however large a label is.
func FuzzValueColumn(f *testing.F) {
	f.Add([]byte("label\ncat\ndog\n"), "")
	f.Add([]byte("node,target\na,1\nb,\n"), "node")
	f.Add([]byte("2147483647\n-5\n"), "")
	f.Add([]byte("1\n\n2\n"), "")
	f.Add([]byte("a,1\nb\n"), "1")
	f.Fuzz(func(t *testing.T, data []byte, ids string) {
		lr, err := lines(data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		c, err := decodeValueColumn(lr, ids)
		if err != nil {
			requireFileError(t, err)
			return
		}
		require.Len(t, c.Lines, len(c.Values))
		cls, names := c.Classes()
		require.LessOrEqual(t, len(names), len(c.Values))
		for _, k := range cls {
			require.True(t, k >= -1 && k < len(names))
		}
	})
}
