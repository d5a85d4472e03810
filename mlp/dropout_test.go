package mlp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDropoutMask checks DropoutMask against its rule written out with
// the 16-bit quarters taken by division (entry k is kept when quarter
// k mod 4 of draw ⌊k/4⌋ is ≥ the rounded threshold), and that the share
// of dropped entries is within 4 standard deviations of q and each
// entry's mean is 1.
func TestDropoutMask(t *testing.T) {
	for _, q := range []float64{0.5, 0.2, 0.1, 1.0 / 3, 0.999, 1e-9, 1 - 1e-9} {
		for _, n := range []int{1, 3, 4, 7, 100003} {
			got := make([]float64, n)
			DropoutMask(got, rand.NewPCG(4, 5), q)
			src := rand.NewPCG(4, 5)
			thr := math.Min(math.Round(q*65536), 65535)
			keep := 1 / (1 - thr/65536)
			var draw uint64
			dropped, sum := 0, 0.0
			for k, v := range got {
				if k%4 == 0 {
					draw = src.Uint64()
				}
				quarter := float64(draw / uint64(math.Pow(65536, float64(k%4))) % 65536)
				want := 0.0
				if quarter >= thr {
					want = keep
				}
				if v != want {
					t.Fatalf("q=%v n=%d entry %d: %v, want %v", q, n, k, v, want)
				}
				if v == 0 {
					dropped++
				}
				sum += v
			}
			if n < 1000 {
				continue
			}
			qt := thr / 65536
			if sd := math.Sqrt(float64(n) * qt * (1 - qt)); math.Abs(float64(dropped)-qt*float64(n)) > 4*sd+1 {
				t.Errorf("q=%v: %d of %d dropped, want %.0f ± %.0f", q, dropped, n, qt*float64(n), 4*sd)
			}
			if qt < 0.99 && math.Abs(sum/float64(n)-1) > 0.05 {
				t.Errorf("q=%v: mean entry %v, want 1", q, sum/float64(n))
			}
		}
	}
}
