package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entries lists the names in dir, to see that no temporary file is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	require.NoError(t, Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "first", string(b))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "second"); return err }))
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "second", string(b))
	st, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "replacing keeps the permission bits")
	assert.Equal(t, []string{"out.txt"}, entries(t, dir))
}

func TestWriteErrorLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		_, _ = io.WriteString(w, "partial")
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), p)
	_, err = os.Stat(p)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Empty(t, entries(t, dir))
}

func TestWriteErrorKeepsExistingFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(p, []byte("precious content"), 0o644))
	err := Write(p, func(w io.Writer) error {
		_, _ = io.WriteString(w, "x")
		return errors.New("failed half way")
	})
	require.Error(t, err)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "precious content", string(b), "an existing file is neither truncated nor replaced")
	assert.Equal(t, []string{"out.txt"}, entries(t, dir))
}

func TestCreateCommitAbort(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.bin")
	f, err := Create(p)
	require.NoError(t, err)
	_, err = f.Write([]byte("....body"))
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("head"), 0)
	require.NoError(t, err)
	_, err = os.Stat(p)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing at the path before Commit")
	require.NoError(t, f.Commit())
	assert.NoError(t, f.Abort(), "Abort after Commit does nothing")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "headbody", string(b))
	_, err = f.Write([]byte("more"))
	assert.Error(t, err)
	assert.Error(t, f.Commit())

	g, err := Create(p)
	require.NoError(t, err)
	_, err = g.Write([]byte("replacement"))
	require.NoError(t, err)
	require.NoError(t, g.Abort())
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "headbody", string(b))
	assert.Equal(t, []string{"s.bin"}, entries(t, dir))
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Create(filepath.Join(dir, "no", "such", "dir", "f"))
	assert.Error(t, err)
	_, err = Create(dir)
	assert.ErrorContains(t, err, "not a regular file")
}

// TestProtect: a protected input cannot be replaced through its path, a
// symbolic link or a hard link; other files can.
func TestProtect(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(in, []byte("input"), 0o644))
	sym, hard := filepath.Join(dir, "sym"), filepath.Join(dir, "hard")
	require.NoError(t, os.Symlink(in, sym))
	require.NoError(t, os.Link(in, hard))
	Protect(in, filepath.Join(dir, "absent"))
	for _, p := range []string{in, sym, hard} {
		err := Write(p, func(w io.Writer) error { _, err := w.Write([]byte("output")); return err })
		require.Error(t, err, p)
		assert.Contains(t, err.Error(), "never replaces an input")
	}
	b, err := os.ReadFile(in)
	require.NoError(t, err)
	assert.Equal(t, "input", string(b))
	require.NoError(t, Write(filepath.Join(dir, "out.txt"), func(w io.Writer) error { return nil }))
}
