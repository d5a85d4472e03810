package krylov

import "math"

// Column kernels: the reductions and updates of gonum's floats.Dot,
// floats.AddScaled and floats.Norm(·, 2), computed for several columns of a
// row-major block in one pass over its rows, with each column's sums taken in
// the order gonum takes them over a contiguous vector. MINRESColumns uses
// them so that every column's scalars are bitwise those of MINRES on that
// column. The products are rounded before they are added (float64(a*b)), as
// gonum's amd64 assembly does (MULPD, then ADDPD), so that no build fuses
// them into a multiply–add.

// laneOf returns the partial sum of floats.Dot that element i of an
// n-vector goes into; n4 = n − n mod dotLanes.
func laneOf(i, n4 int) int {
	if i < n4 {
		return i & (dotLanes - 1)
	}
	return 0
}

// dotAdd adds the product u·v to a partial sum.
func dotAdd(acc, u, v float64) float64 { return acc + float64(u*v) }

// axpy returns y + a·x as floats.AddScaled computes it.
func axpy(y, a, x float64) float64 { return y + float64(a*x) }

// normState is the running state of floats.Norm(·, 2) (gonum's
// L2NormUnitary: a scaled sum of squares, as in LAPACK's dnrm2).
type normState struct {
	scale, ssq float64
	nan        bool
}

func newNormState() normState { return normState{ssq: 1} }

// add takes the next element of the vector.
func (s *normState) add(v float64) {
	if v == 0 {
		return
	}
	a := math.Abs(v)
	if math.IsNaN(a) {
		s.nan = true
		return
	}
	if s.scale < a {
		t := s.scale / a
		s.ssq = float64(float64(s.ssq*t)*t) + 1
		s.scale = a
	} else {
		t := a / s.scale
		s.ssq += float64(t * t)
	}
}

// norm returns the norm of the elements added.
func (s *normState) norm() float64 {
	switch {
	case s.nan:
		return math.NaN()
	case math.IsInf(s.scale, 1):
		return math.Inf(1)
	}
	return float64(math.Sqrt(s.ssq) * s.scale)
}
