package figures

import (
	"image/color"
	"math"
	"testing"
)

// lab converts an sRGB colour to CIELAB (D65 white).
func lab(c color.Color) (l, a, b float64) {
	r, g, bl, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	R, G, B := lin(r), lin(g), lin(bl)
	x := (0.4124*R + 0.3576*G + 0.1805*B) / 0.95047
	y := 0.2126*R + 0.7152*G + 0.0722*B
	z := (0.0193*R + 0.1192*G + 0.9505*B) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return 116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))
}

func deltaE(p, q color.Color) float64 {
	l1, a1, b1 := lab(p)
	l2, a2, b2 := lab(q)
	return math.Sqrt((l1-l2)*(l1-l2) + (a1-a2)*(a1-a2) + (b1-b2)*(b1-b2))
}

// TestPaletteSeparatesTwentyClasses: the first 20 class colours differ
// pairwise, from the white background and from the grey of unlabelled
// nodes by at least minDeltaE in CIELAB (CIE76), about five times the
// difference an observer just notices.
func TestPaletteSeparatesTwentyClasses(t *testing.T) {
	const minDeltaE = 12
	for i := 0; i < 20; i++ {
		if d := deltaE(ClassColor(i), whiteColor); d < minDeltaE {
			t.Errorf("class %d is %.1f from white", i, d)
		}
		if d := deltaE(ClassColor(i), ClassColor(-1)); d < minDeltaE {
			t.Errorf("class %d is %.1f from the unlabelled grey", i, d)
		}
		for j := 0; j < i; j++ {
			if d := deltaE(ClassColor(i), ClassColor(j)); d < minDeltaE {
				t.Errorf("classes %d and %d are %.1f apart", i, j, d)
			}
		}
	}
	if ClassColor(20) != ClassColor(0) {
		t.Errorf("the palette does not repeat after 20 colours")
	}
}
