package loaders

import (
	"bufio"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// WriteMatrixText writes m as text, one row per line, values separated by
// one space, each with the fewest digits that read back (strconv.ParseFloat)
// to the same float64: the form numpy.loadtxt and most tools read.
func WriteMatrixText(w io.Writer, m mat.Matrix) error {
	bw := bufio.NewWriter(w)
	r, c := m.Dims()
	buf := make([]byte, 0, 32)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j > 0 {
				bw.WriteByte(' ')
			}
			bw.Write(strconv.AppendFloat(buf[:0], m.At(i, j), 'g', -1, 64))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
