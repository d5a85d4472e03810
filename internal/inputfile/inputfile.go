package inputfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// DefaultCap bounds what is read from one input of unknown length (a pipe,
// a FIFO, a character device such as /dev/zero): an endless stream must end
// in an error, not in a full disk.
const DefaultCap int64 = 256 << 20

// TooLargeError is the error of a stream longer than its cap.
type TooLargeError struct {
	Path string // the user's path
	Cap  int64  // the cap in bytes
	// CapName names the setting the cap came from (SetCap), if any.
	CapName string
	// TempDir, when set, is the temporary folder whose free space (less
	// DiskReserve) bounded the copy below the cap.
	TempDir string
}

func (e *TooLargeError) Error() string {
	if e.TempDir != "" {
		return fmt.Sprintf("%s is a stream (a pipe or a FIFO, of unknown length) of more than %d bytes, the room left in the temporary folder %s for its copy: save the data to a file and pass that, or point TMPDIR at a folder with more room", Display(e.Path), e.Cap, e.TempDir)
	}
	name := ""
	if e.CapName != "" {
		name = " (" + e.CapName + ")"
	}
	return fmt.Sprintf("%s is a stream (a pipe or a FIFO, of unknown length) of more than %d bytes, the cap on a stream read as an input%s: save the data to a file and pass that", Display(e.Path), e.Cap, name)
}

// DiskReserve is the free space of the temporary folder a stream's copy
// leaves untouched: the copy of an endless stream ends in an error before
// the disk is full.
const DiskReserve int64 = 64 << 20

// streamCap is the cap of Open and the setting it came from (SetCap).
type streamCap struct {
	bytes int64
	name  string
}

var defaultCap atomic.Pointer[streamCap]

// SetCap sets the cap Open applies to a stream (DefaultCap until set) and
// the name of the setting it comes from, which a stream over it names (a
// command sets them from its memory limit: "--max-memory"). A cap < 1
// restores DefaultCap.
func SetCap(limit int64, name string) {
	if limit < 1 {
		limit, name = DefaultCap, ""
	}
	defaultCap.Store(&streamCap{limit, name})
}

// Cap is the cap Open applies to a stream.
func Cap() int64 { return currentCap().bytes }

func currentCap() streamCap {
	if c := defaultCap.Load(); c != nil {
		return *c
	}
	return streamCap{bytes: DefaultCap}
}

// freeSpace returns the bytes free in folder dir, and whether it could
// tell (a variable, so that tests can make the disk small).
var freeSpace = diskFree

// Display names path in messages: "standard input" for "-", else the path
// as the user gave it.
func Display(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}

// IsStdin reports whether path names standard input: "-", /dev/stdin or
// /dev/fd/0.
func IsStdin(path string) bool {
	return path == Stdin || path == "/dev/stdin" || path == "/dev/fd/0"
}

// copyOf is the private copy of one stream.
type copyOf struct {
	once   sync.Once
	path   string      // the user's path
	stream fs.FileInfo // the stream's os.Stat (nil for "-")
	file   *os.File
	// reopen is a name that opens the copy again with its own offset:
	// /proc/self/fd/N where the copy is unlinked at once, else its name in
	// the temporary folder (removed by Release).
	reopen  string
	removal string // the temporary name still to remove, if any
	info    fs.FileInfo
	err     error
}

var (
	mu sync.Mutex
	// copies holds the copies of each path: a path such as /dev/fd/7 may
	// name one pipe now and another later, told apart by os.SameFile.
	copies = map[string][]*copyOf{}
)

// lookup returns the copy of the stream path names now, or nil; st is
// path's os.Stat, nil when it fails (the stream is gone, its latest copy
// stands for it). mu is held.
func lookup(path string, st fs.FileInfo) *copyOf {
	cs := copies[path]
	if path == Stdin || st == nil {
		if len(cs) > 0 {
			return cs[len(cs)-1]
		}
		return nil
	}
	for _, c := range cs {
		if c.stream != nil && os.SameFile(c.stream, st) {
			return c
		}
	}
	return nil
}

// statPath is os.Stat of path, nil for "-" or on failure.
func statPath(path string) fs.FileInfo {
	if path == Stdin {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return st
}

// Open opens the input path for reading. "-" is standard input. A regular
// file or a folder is opened with os.Open. Anything else is read once, up
// to Cap() bytes, into a private copy (see Stage); the returned file
// reads the copy from its start, with its own offset, and must be closed.
func Open(path string) (*os.File, error) {
	return openCap(path, currentCap())
}

// OpenCap is Open with the cap on a stream's length given; the first
// Open or Stage of a path reads it, and its cap is the one that applies.
func OpenCap(path string, limit int64) (*os.File, error) {
	return openCap(path, streamCap{bytes: limit})
}

func openCap(path string, limit streamCap) (*os.File, error) {
	c, err := stage(path, limit)
	if err != nil || c == nil {
		if err != nil {
			return nil, err
		}
		return os.Open(path)
	}
	f, err := os.Open(c.reopen)
	if err != nil {
		return nil, fmt.Errorf("reopening the copy of %s: %w", Display(path), err)
	}
	return f, nil
}

// Stage reads path now when it is a stream ("-", a pipe, a FIFO, a
// device), up to limit bytes, so that later Opens are served from the
// copy; a regular file or a folder is left alone. Reading the streams of a
// command up front lets a cap other than DefaultCap apply (--max-memory).
func Stage(path string, limit int64) error {
	_, err := stage(path, streamCap{bytes: limit})
	return err
}

// Stat is os.Stat of the input path: for a stream that was read, the
// information of its copy (a regular file); for "-" not yet read, that of
// standard input.
func Stat(path string) (fs.FileInfo, error) {
	mu.Lock()
	c := lookup(path, statPath(path))
	mu.Unlock()
	if c != nil {
		c.once.Do(func() {}) // wait for a copy under way
		if c.err != nil {
			return nil, c.err
		}
		return c.info, nil
	}
	if path == Stdin {
		return os.Stdin.Stat()
	}
	return os.Stat(path)
}

// IsStream reports whether path names an input that can be read once
// only: "-", a pipe or a socket.
func IsStream(path string) bool {
	if path == Stdin {
		return true
	}
	st := statPath(path)
	if st != nil && oneRead(st.Mode()) {
		return true
	}
	mu.Lock()
	defer mu.Unlock()
	return lookup(path, st) != nil
}

// Release closes and removes every copy. Later Opens of a stream's path
// fail, since the stream was read; main calls it before exiting.
func Release() {
	mu.Lock()
	defer mu.Unlock()
	for p, cs := range copies {
		for _, c := range cs {
			c.once.Do(func() {})
			if c.file != nil {
				c.file.Close()
			}
			if c.removal != "" {
				os.Remove(c.removal)
			}
		}
		delete(copies, p)
	}
}

// oneRead reports whether a file of this mode can be read only once: a
// pipe (a FIFO, a shell's <(…)) or a socket. A character device such as
// /dev/zero opens afresh every time and is read directly (its readers cap
// what they take from it).
func oneRead(m fs.FileMode) bool {
	return m&(fs.ModeNamedPipe|fs.ModeSocket) != 0
}

// stage returns the copy of path, making it on first use, or nil when path
// is a regular file, a folder or does not exist (os.Open then tells why).
func stage(path string, limit streamCap) (*copyOf, error) {
	st := statPath(path)
	mu.Lock()
	c := lookup(path, st)
	if c == nil {
		if path != Stdin && (st == nil || !oneRead(st.Mode())) {
			mu.Unlock()
			return nil, nil
		}
		c = &copyOf{path: path, stream: st}
		copies[path] = append(copies[path], c)
	}
	mu.Unlock()
	c.once.Do(func() { c.err = c.read(limit) })
	if c.err != nil {
		return nil, c.err
	}
	return c, nil
}

// read copies the stream into a temporary file.
func (c *copyOf) read(limit streamCap) error {
	var src io.Reader = os.Stdin
	if c.path == Stdin {
		// Standard input redirected from a regular file is that file.
		if st, err := os.Stdin.Stat(); err == nil && st.Mode().IsRegular() {
			if g, err := os.Open("/dev/stdin"); err == nil {
				if gs, err := g.Stat(); err == nil && os.SameFile(gs, st) {
					c.file, c.info, c.reopen = g, gs, "/dev/stdin"
					return nil
				}
				g.Close()
			}
		}
	} else {
		f, err := os.Open(c.path)
		if err != nil {
			return err
		}
		defer f.Close()
		src = f
	}
	tmp, err := os.CreateTemp("", "gssl-input-*")
	if err != nil {
		return fmt.Errorf("%s is not a regular file and no private copy of it can be made (%w): save it to a file and pass that", Display(c.path), err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	tooLarge := &TooLargeError{Path: c.path, Cap: limit.bytes, CapName: limit.name}
	if free, ok := freeSpace(filepath.Dir(tmp.Name())); ok && free-DiskReserve < limit.bytes {
		tooLarge = &TooLargeError{Path: c.path, Cap: max(free-DiskReserve, 0), TempDir: filepath.Dir(tmp.Name())}
	}
	n, err := io.Copy(tmp, io.LimitReader(src, tooLarge.Cap+1))
	switch {
	case err != nil:
		return fail(fmt.Errorf("reading %s: %w", Display(c.path), err))
	case n > tooLarge.Cap:
		return fail(tooLarge)
	}
	info, err := tmp.Stat()
	if err != nil {
		return fail(fmt.Errorf("copy of %s: %w", Display(c.path), err))
	}
	c.file, c.info, c.reopen, c.removal = tmp, info, tmp.Name(), tmp.Name()
	// Where /proc/self/fd reopens an unlinked file, the copy goes at once
	// and nothing is left behind whatever way the process ends.
	proc := "/proc/self/fd/" + strconv.Itoa(int(tmp.Fd()))
	if g, err := os.Open(proc); err == nil {
		if st, err := g.Stat(); err == nil && os.SameFile(st, info) && os.Remove(tmp.Name()) == nil {
			c.reopen, c.removal = proc, ""
		}
		g.Close()
	}
	return nil
}

// ReadFile is os.ReadFile of the input path, through Open.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
