//go:build amd64 && !noasm && !gccgo && !safe

package krylov

// dotLanes is the number of partial sums of gonum's floats.Dot, whose amd64
// assembly (internal/asm/f64 DotUnitary) adds element i into sum i mod 4 for
// the first ⌊n/4⌋·4 elements and the rest into sum 0.
const dotLanes = 4

// laneSum combines the partial sums as DotUnitary does.
func laneSum(l []float64) float64 { return (l[0] + l[2]) + (l[1] + l[3]) }
