package memlimit

import (
	"errors"
	"strings"
	"testing"
)

// TestParseFormat checks Parse against sizes written out by hand, its
// refusals, and that Parse reads Format's output back.
func TestParseFormat(t *testing.T) {
	for s, want := range map[string]int64{"512": 512, "1k": 1024, "2KiB": 2048, "1.5MB": 3 << 19, " 8 gb ": 8 << 30, "1T": 1 << 40, "3B": 3} {
		got, err := Parse(s)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "lots", "-1GB", "0", "NaN", "1e30TB"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded", s)
		}
	}
	for _, b := range []int64{1 << 30, 3 << 29, 5 << 20} {
		got, err := Parse(Format(b))
		if err != nil || got != b {
			t.Errorf("Parse(Format(%d)) = %d, %v", b, got, err)
		}
	}
	if Format(1000) != "1000B" {
		t.Errorf("Format(1000) = %s", Format(1000))
	}
}

// TestBudget: at the limit passes, one byte more is refused with the name,
// both sizes and the alternative.
func TestBudget(t *testing.T) {
	b := Budget{Bytes: 1 << 30, Name: "--max-memory"}
	if err := b.Check(1<<30, "x", "y"); err != nil {
		t.Fatal(err)
	}
	err := b.Check(2<<30, "the matrices", "use fewer points")
	if !errors.Is(err, ErrTooMuch) {
		t.Fatalf("err = %v, want ErrTooMuch", err)
	}
	for _, want := range []string{"the matrices take 2.0GB", "above the memory limit --max-memory 1.0GB", "use fewer points (or raise --max-memory)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if Default() <= 0 {
		t.Errorf("Default() = %d", Default())
	}
}
