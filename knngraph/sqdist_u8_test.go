package knngraph

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSqDistU8 checks every byte kernel that runs here (AVX-512 VNNI on
// widened differences and on one dot product with tables, AVX2, portable
// Go) against SquaredDistance of the same values in float64, on
// random and extreme bytes: full sums without a bound, and with a bound a
// result that is the full sum when that is below the bound and otherwise a
// partial sum at least the bound and at most the full sum, the same partial
// sum as the portable kernel's.
func TestSqDistU8(t *testing.T) {
	type kernel struct {
		name     string
		vnni, v2 bool
	}
	kernels := []kernel{{"go", false, false}}
	if hasU8AVX2 {
		kernels = append(kernels, kernel{"avx2", false, true})
	}
	if hasU8VNNI {
		kernels = append(kernels, kernel{"vnni", true, true})
	} else {
		t.Log("no AVX-512 VNNI here: its kernel is not tested")
	}
	defer func(vnni, v2 bool) { hasU8VNNI, hasU8AVX2 = vnni, v2 }(hasU8VNNI, hasU8AVX2)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kn := range kernels {
		hasU8VNNI, hasU8AVX2 = kn.vnni, kn.v2
		for _, n := range []int{32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 448, 480, 512, 544, 704, 736, 800, 1024, 1056, 4096, 1 << 15} {
			for trial := 0; trial < 20; trial++ {
				a, b := make([]uint8, n), make([]uint8, n)
				fa, fb := make([]float64, n), make([]float64, n)
				for i := range a {
					switch trial {
					case 0:
						a[i], b[i] = 255, 0
					case 1:
						a[i], b[i] = 0, 255
					case 2:
						a[i], b[i] = 0, 0
					case 3:
						a[i], b[i] = 255, 255
					default:
						a[i], b[i] = uint8(rng.IntN(256)), uint8(rng.IntN(256))
					}
					fa[i], fb[i] = float64(a[i]), float64(b[i])
				}
				want := SquaredDistance(fa, fb)
				ta, tb := make([]uint8, 8*len(u8Checks(n))), make([]uint8, 8*len(u8Checks(n)))
				u8Tables(ta, a)
				u8Tables(tb, b)
				if got := sqDistU8Below(a, b, math.MaxUint32); float64(got) != want {
					t.Fatalf("%s, n = %d, trial %d: sqDistU8Below(∞) = %d, want %v", kn.name, n, trial, got, want)
				}
				for _, bound := range []uint32{0, 1, uint32(want / 7), uint32(want / 2), uint32(want), uint32(want) + 1} {
					got := sqDistU8Below(a, b, bound)
					if float64(bound) > want && float64(got) != want || float64(got) > want || got < min(bound, uint32(want)) {
						t.Fatalf("%s, n = %d, trial %d, bound %d: sqDistU8Below = %d, full sum %v", kn.name, n, trial, bound, got, want)
					}
					// The kernels check at the same places (u8FirstCheck, u8CheckEvery).
					if ref := sqDistU8BelowGo(a, b, bound); got != ref {
						t.Fatalf("%s, n = %d, trial %d, bound %d: sqDistU8Below = %d, the portable kernel %d", kn.name, n, trial, bound, got, ref)
					}
					// The dot-product kernel checks at its own places.
					ref := got
					if kn.vnni {
						ref = sqDistU8BelowAt(a, b, bound, dotFirstCheck, dotCheckEvery)
					}
					if dot := sqDistU8Dot(a, b, ta, tb, bound); dot != ref {
						t.Fatalf("%s, n = %d, trial %d, bound %d: sqDistU8Dot = %d, want %d", kn.name, n, trial, bound, dot, ref)
					}
				}
			}
		}
	}
}

// TestDotU8I16 checks every dot-product kernel that runs here against the
// sum in int64, on random bytes and weights and on the extremes whose sums
// still fit an int32 (at most 256 coordinates of 255·(2¹⁵ − 1)).
func TestDotU8I16(t *testing.T) {
	defer func(vnni, v2 bool) { hasU8VNNI, hasU8AVX2 = vnni, v2 }(hasU8VNNI, hasU8AVX2)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, kn := range []struct{ vnni, v2 bool }{{false, false}, {false, hasU8AVX2}, {hasU8VNNI, hasU8AVX2}} {
		hasU8VNNI, hasU8AVX2 = kn.vnni, kn.v2
		for _, n := range []int{32, 64, 96, 128, 160, 256, 736} {
			for trial := range 20 {
				if trial < 2 && n > 256 {
					continue
				}
				x, w := make([]uint8, n), make([]int16, n)
				var want int64
				for i := range x {
					switch trial {
					case 0:
						x[i], w[i] = 255, math.MaxInt16
					case 1:
						x[i], w[i] = 255, -math.MaxInt16
					default:
						x[i], w[i] = uint8(rng.IntN(256)), int16(rng.IntN(511)-255)
					}
					want += int64(x[i]) * int64(w[i])
				}
				if got := dotU8I16(x, w); int64(got) != want {
					t.Fatalf("vnni %v, avx2 %v, n = %d, trial %d: dotU8I16 = %d, want %d", kn.vnni, kn.v2, n, trial, got, want)
				}
			}
		}
	}
}
