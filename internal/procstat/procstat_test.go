package procstat

import (
	"os"
	"testing"
)

// TestPeakRSS: after touching 64 MiB the peak resident memory is at least
// that (where /proc is available).
func TestPeakRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: PeakRSSMB is 0 here")
	}
	ResetPeakRSS()
	b := make([]byte, 64<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	if got := PeakRSSMB(); got < 64 {
		t.Errorf("peak RSS %.1f MiB after touching 64 MiB", got)
	}
	_ = b[len(b)-1]
}
