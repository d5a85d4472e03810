package knngraph

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// sharedData finds ../shared/data/name above the package directory (CI has
// the checkout next to shared/; a worktree may sit one level deeper).
func sharedData(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "data", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("shared/data/%s not found above the package directory", name)
		}
		dir = parent
	}
}

// readImages reads the first n images of a uint8 image folder as raw pixel
// values (0..255) in float64, so squared distances are exact integers.
func readImages(t testing.TB, name string, n, d int) *mat.Dense {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedData(t, name), "images_u8.bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, n*d)
	if _, err := io.ReadFull(z, buf); err != nil {
		t.Fatal(err)
	}
	data := make([]float64, n*d)
	for i, b := range buf {
		data[i] = float64(b)
	}
	return mat.NewDense(n, d, data)
}
