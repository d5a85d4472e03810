//go:build unix

package inputfile

import "golang.org/x/sys/unix"

// diskFree returns the bytes an unprivileged process may still write in
// folder dir (statfs's available blocks).
func diskFree(dir string) (int64, bool) {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
