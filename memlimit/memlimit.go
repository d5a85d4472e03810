package memlimit

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// DefaultFraction of the machine's memory is the Default limit.
const DefaultFraction = 0.5

// Fallback is the Default limit where the machine's memory is unknown.
const Fallback = 4 << 30

// ErrTooMuch is the cause of Check's refusal (errors.Is).
var ErrTooMuch = errors.New("above the memory limit")

// Physical returns the machine's memory in bytes (MemTotal of
// /proc/meminfo), or 0 when unknown.
func Physical() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			if f := strings.Fields(rest); len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && kb > 0 {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// Default is DefaultFraction of the machine's memory, or of the process's
// address-space limit when that is smaller; Fallback when neither is known.
func Default() int64 {
	m := Physical()
	if as := addressSpace(); as > 0 && (m == 0 || as < m) {
		m = as
	}
	if m > 0 {
		return int64(DefaultFraction * float64(m))
	}
	return Fallback
}

// Parse reads a size: a positive number with an optional unit (B, K, KB,
// KiB, M, MB, MiB, G, GB, GiB, T, TB, TiB; any case; powers of 1024).
func Parse(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("memlimit: %q is invalid: give a positive size such as 8GB or 512MB", s)
	}
	return int64(v * mult), nil
}

// Format writes b bytes in GB or MB with one decimal, or in bytes below
// 1 MB; Parse reads it back to within the rounding.
func Format(b int64) string {
	switch {
	case b >= 1<<30:
		return strconv.FormatFloat(float64(b)/(1<<30), 'f', 1, 64) + "GB"
	case b >= 1<<20:
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + "MB"
	}
	return strconv.FormatInt(b, 10) + "B"
}

// Budget is a memory limit and the name the user sets it by (a flag such
// as "--max-memory", a setting), which refusals name.
type Budget struct {
	Bytes int64
	Name  string
}

// Check refuses an allocation of need bytes above the budget: what
// describes the allocation (a plural subject, "the dense kernel matrices
// …") and alternative what to do instead. The error wraps ErrTooMuch.
func (b Budget) Check(need int64, what, alternative string) error {
	if need <= b.Bytes {
		return nil
	}
	name, raise := b.Name, b.Name
	if name == "" {
		name, raise = "of", "the limit"
	}
	return fmt.Errorf("%s take %s, %w %s %s; %s (or raise %s)", what, Format(need), ErrTooMuch, name, Format(b.Bytes), alternative, raise)
}
