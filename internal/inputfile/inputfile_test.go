//go:build unix

package inputfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pipePath returns a /dev/fd path that reads data from a pipe, as a shell's
// process substitution <(…) does.
func pipePath(t *testing.T, data []byte) string {
	t.Helper()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { pr.Close() })
	go func() {
		pw.Write(data)
		pw.Close()
	}()
	return "/dev/fd/" + strconv.Itoa(int(pr.Fd()))
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	f, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	return b
}

// TestOpenPipeTwice reads a pipe twice, and at two offsets at once: every
// open sees the whole stream, from its start.
func TestOpenPipeTwice(t *testing.T) {
	t.Cleanup(Release)
	data := bytes.Repeat([]byte("0 1\n1 2\n"), 100000)
	path := pipePath(t, data)
	require.True(t, IsStream(path))
	f, err := Open(path)
	require.NoError(t, err)
	defer f.Close()
	head := make([]byte, 5)
	_, err = io.ReadFull(f, head)
	require.NoError(t, err)
	assert.Equal(t, data, readAll(t, path), "a second open while the first is at byte 5")
	rest, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, data, append(head, rest...))
	st, err := Stat(path)
	require.NoError(t, err)
	assert.True(t, st.Mode().IsRegular())
	assert.Equal(t, int64(len(data)), st.Size())
}

// TestOpenFIFO reads a named pipe made by mkfifo twice.
func TestOpenFIFO(t *testing.T) {
	t.Cleanup(Release)
	path := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	data := []byte("a,b\nb,c\n")
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			w.Write(data)
			w.Close()
		}
	}()
	assert.Equal(t, data, readAll(t, path))
	assert.Equal(t, data, readAll(t, path))
}

// TestOpenStdin reads standard input ("-") twice.
func TestOpenStdin(t *testing.T) {
	t.Cleanup(Release)
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stdin
	os.Stdin = pr
	t.Cleanup(func() { os.Stdin = old; pr.Close() })
	data := []byte("x y\n")
	go func() { pw.Write(data); pw.Close() }()
	assert.Equal(t, data, readAll(t, Stdin))
	assert.Equal(t, data, readAll(t, Stdin))
	assert.Equal(t, "standard input", Display(Stdin))
	assert.Equal(t, "/dev/fd/63", Display("/dev/fd/63"))
}

// TestStreamCap refuses a stream longer than its cap, naming the path and
// the cap, and keeps refusing it.
func TestStreamCap(t *testing.T) {
	t.Cleanup(Release)
	path := pipePath(t, make([]byte, 1001))
	_, err := OpenCap(path, 1000)
	var tl *TooLargeError
	require.True(t, errors.As(err, &tl), "%v", err)
	assert.Contains(t, err.Error(), path)
	assert.Contains(t, err.Error(), "1000 bytes")
	_, err = Open(path)
	assert.ErrorAs(t, err, &tl)

	exact := pipePath(t, make([]byte, 1000))
	f, err := OpenCap(exact, 1000)
	require.NoError(t, err, "a stream of exactly the cap")
	f.Close()
}

// TestRegularAndDevice opens a regular file and a device as they are, with
// no copy.
func TestRegularAndDevice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	require.NoError(t, os.WriteFile(path, []byte("1 2\n"), 0o600))
	f, err := Open(path)
	require.NoError(t, err)
	assert.Equal(t, path, f.Name())
	f.Close()
	assert.False(t, IsStream(path))
	if _, err := os.Stat("/dev/zero"); err == nil {
		assert.False(t, IsStream("/dev/zero"))
		f, err := Open("/dev/zero")
		require.NoError(t, err)
		assert.Equal(t, "/dev/zero", f.Name())
		f.Close()
	}
	_, err = Open(filepath.Join(t.TempDir(), "absent"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestIsStdin(t *testing.T) {
	for _, p := range []string{"-", "/dev/stdin", "/dev/fd/0"} {
		assert.True(t, IsStdin(p), p)
	}
	for _, p := range []string{"", "--", "/dev/fd/63", "stdin"} {
		assert.False(t, IsStdin(p), p)
	}
}

// TestOpenConcurrent opens one pipe from many goroutines at once: one copy
// is made, and each reads all of it.
func TestOpenConcurrent(t *testing.T) {
	t.Cleanup(Release)
	data := bytes.Repeat([]byte("3 4\n"), 50000)
	path := pipePath(t, data)
	got := make([][]byte, 8)
	var wg sync.WaitGroup
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := Open(path)
			if err != nil {
				return
			}
			defer f.Close()
			got[k], _ = io.ReadAll(f)
		}()
	}
	wg.Wait()
	for k := range got {
		assert.Equal(t, data, got[k], "goroutine %d", k)
	}
	mu.Lock()
	assert.Len(t, copies[path], 1)
	mu.Unlock()
}
