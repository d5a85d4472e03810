package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// sharedData returns shared/data/name, found as the core's
// internal/sharedtest does ($GSSL_SHARED, else a "shared" folder holding
// ALGORITHMS.md beside the checkout, walking up), which this module cannot
// import. It skips with one line when absent, and fails instead under
// GSSL_REQUIRE_SHARED=1.
func sharedData(tb testing.TB, name string) string {
	tb.Helper()
	root := os.Getenv("GSSL_SHARED")
	if root == "" {
		dir, err := os.Getwd()
		for err == nil {
			cand := filepath.Join(dir, "shared")
			if _, e := os.Stat(filepath.Join(cand, "ALGORITHMS.md")); e == nil {
				root = cand
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	p := filepath.Join(root, "data", name)
	if _, err := os.Stat(p); root == "" || err != nil {
		if os.Getenv("GSSL_REQUIRE_SHARED") != "" {
			tb.Fatalf("needs shared/data/%s, absent, and GSSL_REQUIRE_SHARED is set", name)
		}
		tb.Skipf("skipping: needs shared/data/%s (set GSSL_SHARED, or clone next to shared/), which is absent", name)
	}
	return p
}
