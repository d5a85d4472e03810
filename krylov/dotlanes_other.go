//go:build !amd64 || noasm || gccgo || safe

package krylov

// dotLanes is the number of partial sums of gonum's floats.Dot, whose pure
// Go DotUnitary adds the elements in order into one sum.
const dotLanes = 1

// laneSum combines the partial sums as DotUnitary does.
func laneSum(l []float64) float64 { return l[0] }
