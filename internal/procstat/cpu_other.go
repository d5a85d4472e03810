//go:build !unix

package procstat

// CPUSeconds is not measured on this system.
func CPUSeconds() float64 { return 0 }
