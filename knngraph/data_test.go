package knngraph

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/sharedtest"
)

// readImages reads the first n images of a uint8 image folder as raw pixel
// values (0..255) in float64, so squared distances are exact integers.
func readImages(t testing.TB, name string, n, d int) *mat.Dense {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedtest.Data(t, name), "images_u8.bin.gz"))
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
