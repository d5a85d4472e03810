package loaders

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFastReaderBOMAcrossPieces: a byte-order mark in a file read in
// several pieces stays on the fast path, with the graph of the serial
// reader (the bytes after the first piece used to be carried from the
// wrong offset, three bytes early, which made a one-field line).
func TestFastReaderBOMAcrossPieces(t *testing.T) {
	withPiece(t, 64)
	var b strings.Builder
	b.WriteString("\ufeff")
	for i := 0; i < 50; i++ {
		b.WriteString("10 11\n")
	}
	b.WriteString("11 12\n")
	path := tempFile(t, "bom.txt", b.String())
	g, ids, err := ReadIntEdgesParallel(path, UserGraphOptions())
	require.NoError(t, err)
	require.Equal(t, 3, g.Nodes())
	require.Equal(t, "10", ids.ID(0))
	require.Equal(t, 2, g.Edges())
}

// TestFastReaderLongLine: a line longer than the block and the piece is
// found whole by each block it spans, and the file is refused by the fast
// reader (one field) for the general reader to report.
func TestFastReaderLongLine(t *testing.T) {
	withBlock(t, 64)
	withPiece(t, 16)
	path := tempFile(t, "long.txt", "0 1\n# "+strings.Repeat("7", 5000)+"\n1 2\n")
	g, _, err := ReadIntEdgesParallel(path, UserGraphOptions())
	require.NoError(t, err)
	require.Equal(t, 3, g.Nodes())
	require.Equal(t, 2, g.Edges())
	_, _, err = ReadIntEdgesParallel(tempFile(t, "one.txt", "0 1\n"+strings.Repeat("7", 5000)+"\n"), UserGraphOptions())
	require.ErrorIs(t, err, ErrNotFast)
}
