package modelfile

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SumTol is how far from 1 the sum of a stored distribution's row may be:
// a model writes rows normalised in float64, whose sums are 1 to within a
// few units in the last place per class; 1e-9 leaves room for a million
// classes and refuses any row a writer did not normalise.
const SumTol = 1e-9

// CheckDistributions reports the first row of v, a row-major table of
// cols columns, that is not a probability distribution: an entry that is
// not finite or is negative, or a sum farther than tol from 1. The message
// names the row (and the column of a bad entry), e.g. "row 17 sums to
// 0.43, not 1"; a table of one row is named by its entries alone ("sums
// to 0.43, not 1"). It returns nil for a valid table, and an error for
// cols < 1 or a length that is not a multiple of cols.
func CheckDistributions(v []float64, cols int, tol float64) error {
	if cols < 1 || len(v)%cols != 0 {
		return fmt.Errorf("%d values are not rows of %d columns", len(v), cols)
	}
	rows := len(v) / cols
	for i := 0; i < rows; i++ {
		where := fmt.Sprintf("row %d ", i)
		if rows == 1 {
			where = ""
		}
		sum := 0.0
		for j, p := range v[i*cols : (i+1)*cols] {
			if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
				return fmt.Errorf("%shas %v in column %d: a probability is finite and ≥ 0", where, p, j)
			}
			sum += p
		}
		if !(math.Abs(sum-1) <= tol) {
			return fmt.Errorf("%ssums to %s, not 1", where, sumString(sum))
		}
	}
	return nil
}

// sumString prints a row's sum in 6 digits, or in full where 6 digits
// would print 1.
func sumString(s float64) string {
	if short := fmt.Sprintf("%.6g", s); short != "1" {
		return short
	}
	return fmt.Sprint(s)
}

// Distributions returns the float64 section name as a rows×cols matrix
// (as Dense) whose rows are probability distributions (CheckDistributions
// with SumTol); a row that is not is an error naming the section, the row
// and what is wrong, e.g. `model file, section "probabilities": row 17
// sums to 0.43, not 1`.
func (f *File) Distributions(name string, rows, cols int) (*mat.Dense, error) {
	d, err := f.Dense(name, rows, cols)
	if err != nil {
		return nil, err
	}
	if err := CheckDistributions(d.RawMatrix().Data, cols, SumTol); err != nil {
		return nil, sectionError(name, err)
	}
	return d, nil
}

// Distribution returns the float64 section name, which must hold one
// probability distribution over n classes (a class prior, say).
func (f *File) Distribution(name string, n int) ([]float64, error) {
	v, err := f.Float64sLen(name, n)
	if err != nil {
		return nil, err
	}
	if err := CheckDistributions(v, n, SumTol); err != nil {
		return nil, sectionError(name, err)
	}
	return v, nil
}

func sectionError(name string, err error) error {
	return &Error{Offset: -1, Section: name, Msg: err.Error() + " (the file was written by another program, or damaged and its checksums recomputed)", Err: ErrFormat}
}
