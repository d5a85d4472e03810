package knngraph

import (
	"math/rand/v2"
	"testing"
)

// TestSqDistU8 checks the byte kernel (assembly where it runs) against
// SquaredDistance of the same values in float64, on random and extreme
// bytes.
func TestSqDistU8(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{32, 64, 96, 800, 4096} {
		for trial := 0; trial < 20; trial++ {
			a, b := make([]uint8, n), make([]uint8, n)
			fa, fb := make([]float64, n), make([]float64, n)
			for i := range a {
				switch trial {
				case 0:
					a[i], b[i] = 255, 0
				case 1:
					a[i], b[i] = 0, 255
				default:
					a[i], b[i] = uint8(rng.IntN(256)), uint8(rng.IntN(256))
				}
				fa[i], fb[i] = float64(a[i]), float64(b[i])
			}
			want := SquaredDistance(fa, fb)
			if got := sqDistU8(a, b); float64(got) != want {
				t.Fatalf("n = %d, trial %d: sqDistU8 = %d, want %v", n, trial, got, want)
			}
			if got := sqDistU8Go(a, b); float64(got) != want {
				t.Fatalf("n = %d, trial %d: sqDistU8Go = %d, want %v", n, trial, got, want)
			}
		}
	}
}
