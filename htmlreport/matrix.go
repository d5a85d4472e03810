package htmlreport

import (
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// CountTable is a table of counts[i][j] with rowNames down its first
// column under corner and colNames across its header: a confusion matrix,
// clusters against classes.
func CountTable(caption, corner string, rowNames, colNames []string, counts [][]int) Table {
	t := Table{Caption: caption, Header: append([]string{corner}, colNames...)}
	for i, row := range counts {
		r := make([]string, 0, len(row)+1)
		r = append(r, rowNames[i])
		for _, v := range row {
			r = append(r, strconv.Itoa(v))
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// MatrixTable is a table of m with rowNames down its first column under
// corner and colNames across its header, each value with 4 decimals.
func MatrixTable(caption, corner string, rowNames, colNames []string, m mat.Matrix) Table {
	r, c := m.Dims()
	t := Table{Caption: caption, Header: append([]string{corner}, colNames...)}
	for i := 0; i < r; i++ {
		row := make([]string, 0, c+1)
		row = append(row, rowNames[i])
		for j := 0; j < c; j++ {
			row = append(row, strconv.FormatFloat(m.At(i, j), 'f', 4, 64))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
