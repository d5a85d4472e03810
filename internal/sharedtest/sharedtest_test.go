package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindHonoursEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GSSL_SHARED", dir)
	if got := find(); got != dir {
		t.Fatalf("find() = %q, want %q", got, dir)
	}
}

func TestFindWalksUp(t *testing.T) {
	base := t.TempDir()
	shared := filepath.Join(base, "shared")
	deep := filepath.Join(base, "main", "pkg", "sub")
	for _, d := range []string{shared, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(shared, "ALGORITHMS.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GSSL_SHARED", "")
	t.Chdir(deep)
	if got := find(); got != shared {
		t.Fatalf("find() = %q, want %q", got, shared)
	}
}
