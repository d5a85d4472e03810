// Package atomicfile writes files so that readers see either the old content
// or the complete new content, never a partial file.
//
// The content goes to a temporary file in the destination's directory (so
// that the final rename stays on one file system), which is flushed to disk
// (fsync) and then renamed over the destination; rename(2) replaces a
// directory entry atomically on POSIX systems. The directory itself is then
// synced, as a best effort, so that the rename survives a crash. When writing
// fails the temporary file is removed and an existing destination is left as
// it was.
//
// A new file gets mode 0644; a file that replaces an existing one keeps that
// file's permission bits.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Write creates path with the bytes fn writes to w, atomically: on an error
// from fn (returned as is, wrapped with the path) or from the file system no
// file is created and an existing file at path is not modified.
func Write(path string, fn func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		_ = f.Abort()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Commit()
}

// File is a file being written that appears at its path only on Commit. It
// is not safe for concurrent use.
type File struct {
	f    *os.File
	path string
	mode os.FileMode
	done bool
}

// Create starts writing path: the bytes go to a temporary file next to it
// until Commit. Every successful Create must be followed by Commit or Abort;
// deferring Abort after Create is safe, since Abort after Commit does nothing.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("atomicfile: %s exists and is not a regular file", path)
		}
		if in := protectedAs(st); in != "" {
			return nil, fmt.Errorf("atomicfile: %s is the input %s: an output never replaces an input", path, in)
		}
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("atomicfile: %w", err)
	}
	return &File{f: f, path: path, mode: mode}, nil
}

// Name returns the destination path.
func (f *File) Name() string { return f.path }

// Write writes p to the temporary file.
func (f *File) Write(p []byte) (int, error) {
	if f.done {
		return 0, fmt.Errorf("atomicfile: %s: write after Commit or Abort", f.path)
	}
	return f.f.Write(p)
}

// WriteAt writes p at offset off of the temporary file, for formats whose
// header is filled in after the body.
func (f *File) WriteAt(p []byte, off int64) (int, error) {
	if f.done {
		return 0, fmt.Errorf("atomicfile: %s: write after Commit or Abort", f.path)
	}
	return f.f.WriteAt(p, off)
}

// Commit flushes the content to disk and renames it to the destination. On
// an error the temporary file is removed and the destination is unchanged.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("atomicfile: %s: Commit after Commit or Abort", f.path)
	}
	f.done = true
	tmp := f.f.Name()
	err := f.f.Chmod(f.mode)
	if err == nil {
		err = f.f.Sync()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("atomicfile: writing %s: %w", f.path, err)
	}
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort discards what was written. It returns nil after Commit or a previous
// Abort.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	tmp := f.f.Name()
	err := f.f.Close()
	if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("atomicfile: discarding %s: %w", f.path, err)
	}
	return nil
}

var protected struct {
	sync.Mutex
	files map[string]os.FileInfo
}

// Protect sets the files that Create must refuse to replace (a command's
// inputs), replacing those of an earlier call: a destination that is one
// of them, by path, symbolic link or hard link (os.SameFile), is an error.
// Paths that do not name a regular file are ignored; no paths clears the
// set.
func Protect(paths ...string) {
	protected.Lock()
	defer protected.Unlock()
	protected.files = nil
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if protected.files == nil {
			protected.files = make(map[string]os.FileInfo)
		}
		protected.files[p] = st
	}
}

// protectedAs returns the protected path that st is, or "".
func protectedAs(st os.FileInfo) string {
	protected.Lock()
	defer protected.Unlock()
	for p, in := range protected.files {
		if os.SameFile(st, in) {
			return p
		}
	}
	return ""
}

// syncDir makes a rename in dir durable where the platform allows it
// (opening a directory for sync fails on some systems; the rename itself is
// still atomic there).
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// Protected returns the path under which Protect registered the file that
// path names (the same file, a symbolic link or a hard link to it), or ""
// when path names no protected file.
func Protected(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return protectedAs(st)
}
