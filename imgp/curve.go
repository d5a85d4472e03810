package imgp

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// MaxCurvePoints bounds the points SyntheticCurve draws, so that a size from
// a command line cannot ask for more memory than a laptop has.
const MaxCurvePoints = 10_000_000

// SyntheticCurve draws the benchmark curve of gssl imgp --synthetic: a
// flattened closed curve c(t) = (cos t, 0.15 sin t), whose two halves are
// 0.3|sin t| apart, rotated into R^10 by a seeded orthogonal matrix, with
// N(0, 0.01²) noise in every coordinate; t is uniform (so the sampling
// density along the curve is not). The target is sin(2π·s/ℓ), s the arc
// length from t = 0 and ℓ the length: it takes opposite values on the two
// close halves, so Euclidean proximity misleads and geodesic proximity does
// not. n training points and tests fresh test points of the same curve are
// drawn, in that order, from one generator seeded by seed.
func SyntheticCurve(n, tests int, seed uint64) (x *mat.Dense, y []float64, xt *mat.Dense, yt []float64, err error) {
	if n < 2 || n > MaxCurvePoints {
		return nil, nil, nil, nil, fmt.Errorf("imgp: %d curve points is invalid: it must be in [2, %d]", n, MaxCurvePoints)
	}
	if tests < 1 || tests > MaxCurvePoints {
		return nil, nil, nil, nil, fmt.Errorf("imgp: %d curve test points is invalid: it must be in [1, %d]", tests, MaxCurvePoints)
	}
	const dim, flat, noise = 10, 0.15, 0.01
	rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
	rot := mat.NewDense(dim, dim, nil)
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			rot.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(rot)
	var q mat.Dense
	qr.QTo(&q)
	// Arc length on a fine grid.
	const grid = 1 << 16
	arc := make([]float64, grid+1)
	for k := 1; k <= grid; k++ {
		t0, t1 := 2*math.Pi*float64(k-1)/grid, 2*math.Pi*float64(k)/grid
		arc[k] = arc[k-1] + math.Hypot(math.Cos(t1)-math.Cos(t0), flat*(math.Sin(t1)-math.Sin(t0)))
	}
	length := arc[grid]
	sample := func(m int) (*mat.Dense, []float64) {
		x := mat.NewDense(m, dim, nil)
		y := make([]float64, m)
		p := make([]float64, dim)
		for i := 0; i < m; i++ {
			t := 2 * math.Pi * rng.Float64()
			for j := range p {
				p[j] = noise * rng.NormFloat64()
			}
			p[0] += math.Cos(t)
			p[1] += flat * math.Sin(t)
			row := x.RawRowView(i)
			for a := 0; a < dim; a++ {
				var s float64
				for b := 0; b < dim; b++ {
					s += q.At(a, b) * p[b]
				}
				row[a] = s
			}
			pos := t / (2 * math.Pi) * grid
			k := min(int(pos), grid-1)
			s := arc[k] + (pos-float64(k))*(arc[k+1]-arc[k])
			y[i] = math.Sin(2 * math.Pi * s / length)
		}
		return x, y
	}
	x, y = sample(n)
	xt, yt = sample(tests)
	return x, y, xt, yt, nil
}
