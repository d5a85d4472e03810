package modelfile

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCheckDistributions: valid tables pass (sums off by rounding of many
// classes included); each way a row can fail is named with its row and,
// for an entry, its column.
func TestCheckDistributions(t *testing.T) {
	third := 1.0 / 3
	many := make([]float64, 1000)
	for i := range many {
		many[i] = 1.0 / 1000
	}
	for _, ok := range [][]float64{{0.25, 0.75, 1, 0}, {third, third, third}, many} {
		cols := 2
		if len(ok) != 4 {
			cols = len(ok)
		}
		if err := CheckDistributions(ok, cols, SumTol); err != nil {
			t.Errorf("%v refused: %v", ok[:min(len(ok), 4)], err)
		}
	}
	for _, c := range []struct {
		v    []float64
		cols int
		want string
	}{
		{[]float64{0.5, 0.5, 0.43, 0}, 2, "row 1 sums to 0.43, not 1"},
		{[]float64{0.5, 0.5, 1.5, -0.5}, 2, "row 1 has -0.5 in column 1"},
		{[]float64{0.5, 0.5, math.NaN(), 1}, 2, "row 1 has NaN in column 0"},
		{[]float64{math.Inf(1), 0}, 2, "has +Inf in column 0"},
		{[]float64{0.2, 0.2}, 2, "sums to 0.4, not 1"},
		{[]float64{0.5, 0.5 + 2e-9}, 2, "sums to 1.0000000020000002, not 1"},
		{[]float64{1, 0, 0}, 2, "3 values are not rows of 2 columns"},
		{[]float64{1}, 0, "not rows of 0 columns"},
	} {
		err := CheckDistributions(c.v, c.cols, SumTol)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v (%d columns): got %v, want an error saying %q", c.v, c.cols, err, c.want)
		}
	}
	if err := CheckDistributions([]float64{0.5, 0.5 + 2e-9}, 2, 1e-6); err != nil {
		t.Errorf("a looser tolerance still refuses: %v", err)
	}
}

// TestDistributionSections writes tables through the encoder, bad values
// included, and reads them back: the good ones are returned as written,
// the bad ones refused with ErrFormat and the section and row named.
func TestDistributionSections(t *testing.T) {
	f := New("test.Model", 1)
	f.PutFloat64s("good", []float64{0.1, 0.9, 0.5, 0.5})
	f.PutFloat64s("bad", []float64{0.1, 0.9, 0.2, 0.23})
	f.PutFloat64s("prior", []float64{0.3, 0.3})
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := g.Distributions("good", 2, 2)
	if err != nil || d.At(1, 0) != 0.5 {
		t.Errorf("a good table: %v, %v", d, err)
	}
	_, err = g.Distributions("bad", 2, 2)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `model file, section "bad": row 1 sums to 0.43, not 1`) {
		t.Errorf("a bad table: %v", err)
	}
	if _, err := g.Distribution("good", 4); err == nil || !strings.Contains(err.Error(), "sums to 2, not 1") {
		t.Errorf("two rows read as one distribution: %v", err)
	}
	if _, err := g.Distribution("prior", 2); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `section "prior": sums to 0.6, not 1`) {
		t.Errorf("a bad prior: %v", err)
	}
	if _, err := g.Distributions("good", 3, 2); err == nil {
		t.Errorf("a table of the wrong shape is read")
	}
}
