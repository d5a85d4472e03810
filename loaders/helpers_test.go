package loaders

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeFile writes content to name inside dir and returns the path.
func writeFile(t testing.TB, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, content, 0o644))
	return path
}

// tempFile writes content to a fresh temporary file called name.
func tempFile(t testing.TB, name, content string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), name, []byte(content))
}

// gzipped returns data compressed as one gzip member.
func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// requireParseError checks that err is a *ParseError at line (0: the whole
// file) whose message contains want.
func requireParseError(t testing.TB, err error, line int, want string) {
	t.Helper()
	require.Error(t, err)
	var pe *ParseError
	require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
	require.Equal(t, line, pe.Line, "line of %q", err.Error())
	require.Contains(t, err.Error(), want)
}

// lines returns a line reader over data for the decode functions, or nil
// and the error when even opening fails (empty or corrupt input).
func lines(data []byte) (*lineReader, error) {
	return newLineReader(bytes.NewReader(data), "fuzz.txt")
}
