package procstat

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// PeakRSSMB returns the process's peak resident memory (VmHWM) in MiB, or 0
// where /proc is not available.
func PeakRSSMB() float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// ResetPeakRSS resets the process's resident-memory high-water mark (Linux
// ≥ 4.0) after a garbage collection, as shared/bench/peers/common.py does
// before a measured block, and reports whether it could.
func ResetPeakRSS() bool {
	runtime.GC()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}
