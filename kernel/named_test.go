package kernel

import (
	"errors"
	"math"
	"testing"
)

// TestNamed checks each name against the kernel's closed form at one
// distance, and the errors of an unknown name and a bad width.
func TestNamed(t *testing.T) {
	x, y := []float64{0, 0}, []float64{3, 4} // distance 5
	const w = 2.0
	r := 5 / w
	want := map[string]float64{
		"gaussian":  math.Exp(-25 / (2 * w * w)),
		"Laplacian": math.Exp(-r),
		"matern12":  math.Exp(-r),
		"matern32":  (1 + math.Sqrt(3)*r) * math.Exp(-math.Sqrt(3)*r),
		"matern52":  (1 + math.Sqrt(5)*r + 5*r*r/3) * math.Exp(-math.Sqrt(5)*r),
	}
	for name, v := range want {
		k, err := Named(name, w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := k.Eval(x, y); math.Abs(got-v) > 1e-12 {
			t.Errorf("%s: k = %v, want %v", name, got, v)
		}
	}
	if _, err := Named("rbf", 1); !errors.Is(err, ErrUnknownName) {
		t.Errorf("rbf: err = %v, want ErrUnknownName", err)
	}
	if _, err := Named("gaussian", -1); err == nil || errors.Is(err, ErrUnknownName) {
		t.Errorf("σ = −1: err = %v, want a width error", err)
	}
}
