package loaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestReadDense(t *testing.T) {
	want := mat.NewDense(3, 2, []float64{1, 2, 3.5, -4, 5e-3, 0})
	for name, content := range map[string]string{
		"csv":             "1,2\n3.5,-4\n5e-3,0\n",
		"csv with header": "x, y\n1, 2\n3.5, -4\n5e-3, 0\n",
		"tsv with header": "# points\nx\ty\n1\t2\n3.5\t-4\n\n5e-3\t0\n",
		"whitespace":      "  1   2\n3.5 -4\r\n5e-3 0",
		"quoted header":   "\"a\",\"b\"\n1,2\n3.5,-4\n5e-3,0\n",
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ReadDense(tempFile(t, "points.csv", content))
			require.NoError(t, err)
			assert.True(t, mat.Equal(want, got), "got\n%v", mat.Formatted(got))
		})
	}
	got, err := ReadDense(writeFile(t, t.TempDir(), "points.csv", gzipped(t, []byte("1,2\n3.5,-4\n5e-3,0\n"))))
	require.NoError(t, err)
	assert.True(t, mat.Equal(want, got))
}

func TestReadDenseBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		line    int
		want    string
	}{
		{"ragged", "1,2,3\n4,5,6\n7,8\n", 3, "row has 2 values, want 3 like line 1"},
		{"ragged after header", "a,b\n# c\n1,2\n3\n", 4, "row has 1 values, want 2 like line 3"},
		{"header width", "a,b,c\n1,2\n", 2, "row has 2 values but the header on line 1 names 3 columns"},
		{"NaN", "1,2\n3,NaN\n", 2, "column 2: value NaN is not finite"},
		{"Inf", "1 2\n+Inf 3\n", 2, "column 1: value +Inf is not finite"},
		{"text in data", "1,2\n3,x\n", 2, `column 2: value "x" is not a number`},
		{"empty field", "1,2\n3,\n", 2, `column 2: value "" is not a number`},
		{"second header", "a,b\nc,d\n", 2, `column 1: value "c" is not a number`},
		{"empty file", "", 0, "empty file"},
		{"only header", "a,b\n", 0, "no data rows"},
		{"only comments", "# x\n\n", 0, "no data rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDense(tempFile(t, "points.csv", tc.content))
			requireParseError(t, err, tc.line, tc.want)
		})
	}
}
