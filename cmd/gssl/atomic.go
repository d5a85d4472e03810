package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// atomicWrite creates path with what write writes, through a temporary file
// in the same folder that is flushed to disk and then renamed over path: an
// interrupted or failed run leaves the old file (or none), never half of
// one. (internal/atomicfile, once on main, does the same.)
func atomicWrite(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s exists and is not a regular file", path)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // best effort: the rename survives a crash
		d.Close()
	}
	return nil
}
