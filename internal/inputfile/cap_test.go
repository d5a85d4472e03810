//go:build unix

package inputfile

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SetCap changes the cap of Open; a cap < 1 restores DefaultCap.
func TestSetCap(t *testing.T) {
	t.Cleanup(Release)
	t.Cleanup(func() { SetCap(0, "") })
	SetCap(500, "--max-memory")
	assert.Equal(t, int64(500), Cap())
	_, err := Open(pipePath(t, make([]byte, 501)))
	var tl *TooLargeError
	require.True(t, errors.As(err, &tl), "%v", err)
	assert.Equal(t, int64(500), tl.Cap)
	assert.Contains(t, err.Error(), "of more than 500 bytes, the cap on a stream read as an input (--max-memory)")
	f, err := Open(pipePath(t, make([]byte, 500)))
	require.NoError(t, err)
	f.Close()
	SetCap(0, "x")
	assert.Equal(t, DefaultCap, Cap())
}

// A stream's copy stops DiskReserve short of filling the temporary
// folder, with an error naming the folder, whatever the cap.
func TestStreamCopyLeavesDiskReserve(t *testing.T) {
	t.Cleanup(Release)
	t.Cleanup(func() { freeSpace = diskFree })
	free := DiskReserve + 300
	freeSpace = func(string) (int64, bool) { return free, true }
	_, err := OpenCap(pipePath(t, make([]byte, 301)), 1000)
	var tl *TooLargeError
	require.True(t, errors.As(err, &tl), "%v", err)
	assert.Equal(t, int64(300), tl.Cap)
	assert.Equal(t, os.TempDir(), tl.TempDir)
	assert.Contains(t, err.Error(), "the room left in the temporary folder")

	f, err := OpenCap(pipePath(t, make([]byte, 300)), 1000)
	require.NoError(t, err, "a stream that fits the room left")
	f.Close()

	free = 10 // less than the reserve: no room at all
	_, err = OpenCap(pipePath(t, []byte("a")), 1000)
	require.True(t, errors.As(err, &tl), "%v", err)
	assert.Equal(t, int64(0), tl.Cap)
}
