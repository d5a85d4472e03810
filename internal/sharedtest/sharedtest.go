// Package sharedtest finds the project's shared folder (data sets, peer
// benchmarks' splits and ground truth) for tests that read it.
//
// The folder is $GSSL_SHARED when set, else the first "shared" directory
// holding ALGORITHMS.md found beside the checkout (walking up from the test's
// working directory). A user's clone has none: tests that need it skip with
// one line saying so. CI sets GSSL_REQUIRE_SHARED=1, under which a missing
// folder fails the test instead, so the tests that read it always run there.
package sharedtest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once sync.Once
	root string
)

func find() string {
	if d := os.Getenv("GSSL_SHARED"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		cand := filepath.Join(dir, "shared")
		if _, err := os.Stat(filepath.Join(cand, "ALGORITHMS.md")); err == nil {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Root returns the shared folder, or skips the test (fails it under
// GSSL_REQUIRE_SHARED=1) when there is none.
func Root(tb testing.TB) string {
	tb.Helper()
	once.Do(func() { root = find() })
	if root == "" {
		missing(tb, "the shared folder (set GSSL_SHARED, or clone next to shared/)")
	}
	return root
}

// Path returns rel inside the shared folder, skipping (or failing) as Root
// does, and also when rel itself is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Root(tb), rel)
	if _, err := os.Stat(p); err != nil {
		missing(tb, p)
	}
	return p
}

// Data returns shared/data/name.
func Data(tb testing.TB, name string) string {
	tb.Helper()
	return Path(tb, filepath.Join("data", name))
}

func missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("GSSL_REQUIRE_SHARED") != "" {
		tb.Fatalf("needs %s, absent, and GSSL_REQUIRE_SHARED is set", what)
	}
	tb.Skipf("skipping: needs %s, which is absent", what)
}
