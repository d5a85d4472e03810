package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProtectedSeesLinks: a hard link and a symbolic link to a protected
// file are that file; another file is not.
func TestProtectedSeesLinks(t *testing.T) {
	dir := t.TempDir()
	in, other := filepath.Join(dir, "in.csv"), filepath.Join(dir, "other.csv")
	for _, p := range []string{in, other} {
		if err := os.WriteFile(p, []byte("a,b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard, soft := filepath.Join(dir, "hard.csv"), filepath.Join(dir, "soft.csv")
	if err := os.Link(in, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := os.Symlink(in, soft); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	Protect(in)
	defer Protect()
	for _, p := range []string{in, hard, soft} {
		if got := Protected(p); got != in {
			t.Errorf("Protected(%s) = %q, want %q", p, got, in)
		}
	}
	if got := Protected(other); got != "" {
		t.Errorf("Protected(%s) = %q, want none", other, got)
	}
}
