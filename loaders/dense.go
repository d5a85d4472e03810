package loaders

import (
	"errors"
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// ReadDense reads a point cloud, one point per line, into an n×d matrix.
// Values are separated by commas (CSV), or else by tabs or spaces; lines
// starting with '#' are comments and blank lines are skipped. The first data
// line is a header, and skipped, when none of its fields is a number; it must
// then name as many columns as the rows have. Every row must have the same
// length, and every value must be finite.
func ReadDense(path string) (*mat.Dense, error) {
	return readFile(path, decodeDense)
}

func decodeDense(lr *lineReader) (*mat.Dense, error) {
	var (
		data       []float64
		rows, cols int
		first      = true
		headerLine int
		headerLen  int
		colsLine   int
	)
	err := lr.eachLine("#", blankSkip, func(s string) error {
		f := splitFields(s)
		if first {
			first = false
			if isHeader(f) {
				headerLine, headerLen = lr.line, len(f)
				return nil
			}
		}
		if rows == 0 {
			cols, colsLine = len(f), lr.line
			if headerLine != 0 && headerLen != cols {
				return fmt.Errorf("row has %d values but the header on line %d names %d columns", cols, headerLine, headerLen)
			}
		} else if len(f) != cols {
			return fmt.Errorf("row has %d values, want %d like line %d", len(f), cols, colsLine)
		}
		for j, x := range f {
			v, err := parseFinite(x, "value")
			if err != nil {
				return fmt.Errorf("column %d: %v", j+1, err)
			}
			data = append(data, v)
		}
		rows++
		return nil
	})
	if err != nil {
		return nil, err
	}
	if rows == 0 {
		return nil, lr.fileErrorf("no data rows")
	}
	return mat.NewDense(rows, cols, data), nil
}

// isHeader reports whether no field of a line is a number.
func isHeader(f []string) bool {
	for _, x := range f {
		if _, err := strconv.ParseFloat(x, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return false
		}
	}
	return true
}
