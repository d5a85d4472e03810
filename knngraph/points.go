package knngraph

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
)

// FromRows copies a point cloud given as rows into an n×d matrix. It returns
// an error naming the first row whose length differs from row 0's, or the
// first coordinate that is NaN or infinite.
func FromRows(rows [][]float64) (*mat.Dense, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("knngraph: no points")
	}
	d := len(rows[0])
	if d == 0 {
		return nil, fmt.Errorf("knngraph: point 0 has no coordinates")
	}
	data := make([]float64, 0, len(rows)*d)
	for i, r := range rows {
		if len(r) != d {
			return nil, fmt.Errorf("knngraph: point %d has %d coordinates, point 0 has %d; all points must have the same dimension", i, len(r), d)
		}
		data = append(data, r...)
	}
	x := mat.NewDense(len(rows), d, data)
	if err := checkFinite("point", x); err != nil {
		return nil, err
	}
	return x, nil
}

// maxCoordinate bounds the magnitude of coordinates: squared distances of
// up to 2³¹ such coordinates stay far below the float64 overflow at 1.8e308.
const maxCoordinate = estimator.MaxMagnitude

// checkFinite returns an error naming the first NaN or infinite coordinate
// (or one beyond maxCoordinate), scanning chunks of rows in parallel.
func checkFinite(what string, x *mat.Dense) error {
	raw := x.RawMatrix()
	const size = 1024
	errs := make([]error, parallel.NumChunks(raw.Rows, size))
	parallel.Chunks(raw.Rows, size, func(c, lo, hi int) {
		for i := lo; i < hi; i++ {
			for t, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
				if !(math.Abs(v) <= maxCoordinate) {
					errs[c] = coordinateError(what, i, t, v)
					return
				}
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func coordinateError(what string, i, t int, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("knngraph: %s %d, coordinate %d is %v; coordinates must be finite", what, i, t, v)
	}
	return fmt.Errorf("knngraph: %s %d, coordinate %d is %v; coordinates must be at most %g in magnitude so that squared distances stay finite", what, i, t, v, maxCoordinate)
}

// checkPoints validates a point matrix and k for a search over n points.
func checkPoints(what string, x *mat.Dense) (n, d int, err error) {
	if x == nil || x.IsEmpty() {
		return 0, 0, fmt.Errorf("knngraph: no %ss", what)
	}
	n, d = x.Dims()
	if n > math.MaxInt32 {
		return 0, 0, fmt.Errorf("knngraph: %d %ss; at most %d are supported (int32 indices)", n, what, math.MaxInt32)
	}
	return n, d, checkFinite(what, x)
}

// SquaredDistance returns Σ_t (x_t − y_t)² in float64: the distance every
// search in this package ranks by, exactly. The terms are summed in four
// interleaved partial sums (t mod 4), combined as (s0 + s1) + (s2 + s3); for
// integer-valued coordinates (pixels) the result is the exact integer.
func SquaredDistance(x, y []float64) float64 { return squaredDistance(x, y) }

func squaredDistance[T float32 | float64](x, y []T) T {
	y = y[:len(x)]
	var s0, s1, s2, s3 T
	t := 0
	for ; t+4 <= len(x); t += 4 {
		d0, d1, d2, d3 := x[t]-y[t], x[t+1]-y[t+1], x[t+2]-y[t+2], x[t+3]-y[t+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	switch len(x) - t {
	case 3:
		d := x[t+2] - y[t+2]
		s2 += d * d
		fallthrough
	case 2:
		d := x[t+1] - y[t+1]
		s1 += d * d
		fallthrough
	case 1:
		d := x[t] - y[t]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// row returns row i of a dense matrix without copying.
func row(raw []float64, stride, cols, i int) []float64 {
	return raw[i*stride : i*stride+cols]
}
