package memlimit

import "testing"

func TestParseFlag(t *testing.T) {
	if v, err := ParseFlag("max-memory", "512MB"); err != nil || v != 512<<20 {
		t.Errorf("512MB: %d, %v; want %d", v, err, 512<<20)
	}
	def, _ := Parse(Format(Default())) // the default as the option shows it
	if v, err := ParseFlag("max-memory", ""); err != nil || v != def {
		t.Errorf("empty: %d, %v; want the default %d", v, err, def)
	}
	want := `--max-memory "lots" is invalid: give a positive size such as 8GB or 512MB`
	if _, err := ParseFlag("max-memory", "lots"); err == nil || err.Error() != want {
		t.Errorf("lots: %v; want %s", err, want)
	}
}
