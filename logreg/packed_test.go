package logreg

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// TestPackedProducts checks the packed design's X·W and Xᵀ·R against
// gonum's Dgemm (Dense) on shapes around the panel widths (6 rows of A, 8
// of B), including a row-space-like square design, and that they do not
// depend on the number of workers (bitwise).
func TestPackedProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	random := func(r, c int) *mat.Dense {
		a := mat.NewDense(r, c, nil)
		for i := range r {
			for j := range c {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		return a
	}
	for _, s := range []struct{ m, d, c int }{{1, 1, 1}, {5, 3, 2}, {7, 9, 7}, {13, 20, 8}, {140, 140, 7}, {97, 300, 9}, {250, 31, 17}} {
		x := random(s.m, s.d)
		w, r := random(s.d, s.c), random(s.m, s.c)
		p := newPacked(Dense{X: x})
		var want mat.Dense
		got := mat.NewDense(s.m, s.c, nil)
		for range 2 { // the second product reuses the packed W
			p.MulTo(got, w)
			want.Mul(x, w)
			requireClose(t, &want, got, s.d)
		}
		gotT := mat.NewDense(s.d, s.c, nil)
		p.TMulTo(gotT, r)
		want.Reset()
		want.Mul(x.T(), r)
		requireClose(t, &want, gotT, s.m)

		prev := parallel.Current()
		require.NoError(t, parallel.Configure(parallel.Config{Workers: 1}))
		one, oneT := mat.NewDense(s.m, s.c, nil), mat.NewDense(s.d, s.c, nil)
		p.MulTo(one, w)
		p.TMulTo(oneT, r)
		require.NoError(t, parallel.Configure(prev))
		require.True(t, mat.Equal(one, got), "%v: X·W with one worker", s)
		require.True(t, mat.Equal(oneT, gotT), "%v: Xᵀ·R with one worker", s)
	}
}

// requireClose checks got against want entry by entry within the rounding
// of a k-term dot product of standard normals.
func requireClose(t *testing.T, want, got *mat.Dense, k int) {
	t.Helper()
	r, c := want.Dims()
	for i := range r {
		for j := range c {
			require.InDelta(t, want.At(i, j), got.At(i, j), 1e-13*float64(k)*math.Max(1, math.Abs(want.At(i, j))), "entry (%d, %d)", i, j)
		}
	}
}
