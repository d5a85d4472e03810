package loaders

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestReadPointTable(t *testing.T) {
	// pandas' to_csv(index=False) with an id column, CRLF, a comment.
	p := tempFile(t, "x.csv", "# exported\r\nname,a,b\r\nu1,1,2.5\r\nu2,-3,4e-2\r\n")
	tb, err := ReadPointTable(p, "name")
	require.NoError(t, err)
	assert.Equal(t, []string{"u1", "u2"}, tb.IDs)
	assert.Equal(t, []string{"a", "b"}, tb.Columns)
	assert.True(t, mat.Equal(mat.NewDense(2, 2, []float64{1, 2.5, -3, 0.04}), tb.X))
	assert.Equal(t, []int{3, 4}, tb.Lines)

	// By position, no header, white space.
	p = tempFile(t, "x.txt", "7 0.5 1\n9 1.5 2\n")
	tb, err = ReadPointTable(p, "1")
	require.NoError(t, err)
	assert.Equal(t, []string{"7", "9"}, tb.IDs)
	assert.Nil(t, tb.Columns)
	assert.True(t, mat.Equal(mat.NewDense(2, 2, []float64{0.5, 1, 1.5, 2}), tb.X))

	// No id column: every field a value, as ReadDense.
	tb, err = ReadPointTable(p, "")
	require.NoError(t, err)
	assert.Nil(t, tb.IDs)
	r, c := tb.X.Dims()
	assert.Equal(t, [2]int{2, 3}, [2]int{r, c})
}

func TestReadPointTableBadInput(t *testing.T) {
	for _, c := range []struct {
		content, ids string
		line         int
		want         string
	}{
		{"a,b\n1,2\n3\n", "", 3, "row has 1 fields, want 2 like the header on line 1"},
		{"1,x\n", "", 1, `column 2: value "x" is not a number`},
		{"1,nan\n", "", 1, "not finite"},
		{"a,b\n1,2\n", "id", 1, `no column named "id"`},
		{"1,2\n", "3", 1, "id column 3 is beyond the 2 columns"},
		{"1,2\n\n3,4\n", "", 2, "blank line before more data"},
		{"# only a comment\n", "", 0, "no data rows"},
		{"id,a\n,1\n", "id", 2, "empty id"},
	} {
		_, err := ReadPointTable(tempFile(t, "x.csv", c.content), c.ids)
		requireParseError(t, err, c.line, c.want)
	}
	_, err := ReadPointTable(tempFile(t, "x.csv", "1,2\n"), "0")
	require.ErrorContains(t, err, "positions start at 1")
}

func TestReadValueColumn(t *testing.T) {
	// Class names with a header recognised by name, missing spellings.
	c, err := ReadValueColumn(tempFile(t, "y.csv", "label\ncat\n\ndog\n"), "")
	requireParseError(t, err, 3, "blank line before more data")
	c, err = ReadValueColumn(tempFile(t, "y.csv", "label\ncat\nNA\ndog\nsea lion\ncat\n"), "")
	require.NoError(t, err)
	assert.Equal(t, "label", c.Name)
	assert.Equal(t, []string{"cat", "", "dog", "sea lion", "cat"}, c.Values)
	cls, names := c.Classes()
	assert.Equal(t, []int{0, -1, 1, 2, 0}, cls)
	assert.Equal(t, []string{"cat", "dog", "sea lion"}, names)

	// Integer classes: ascending, "07" is 7; a huge value allocates nothing.
	c, err = ReadValueColumn(tempFile(t, "y.txt", "2147483647\n07\n7\n-1\n"), "")
	require.NoError(t, err)
	cls, names = c.Classes()
	assert.Equal(t, []int{2, 1, 1, 0}, cls)
	assert.Equal(t, []string{"-1", "7", "2147483647"}, names)

	// An unnamed header recognised by the numbers below it.
	c, err = ReadValueColumn(tempFile(t, "y.txt", "angle_deg\n1.5\n?\n"), "")
	require.NoError(t, err)
	assert.Equal(t, "angle_deg", c.Name)
	f, err := c.Floats("y.txt")
	require.NoError(t, err)
	assert.Equal(t, 1.5, f[0])
	assert.True(t, math.IsNaN(f[1]))

	// Ids by name, by position; the ids only in the features (one column).
	c, err = ReadValueColumn(tempFile(t, "y.csv", "node,target\na,1\nb,\n"), "node")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, c.IDs)
	assert.Equal(t, []string{"1", ""}, c.Values)
	c, err = ReadValueColumn(tempFile(t, "y.csv", "a,1\nb,2\n"), "1")
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, c.IDs)
	c, err = ReadValueColumn(tempFile(t, "y.csv", "1\n2\n"), "id")
	require.NoError(t, err)
	assert.Nil(t, c.IDs)
	assert.Equal(t, []string{"1", "2"}, c.Values)

	_, err = ReadValueColumn(tempFile(t, "y.csv", "1,2\n3\n"), "1")
	requireParseError(t, err, 2, "1 fields, want 2")
	_, err = ReadValueColumn(tempFile(t, "y.csv", "x\n"), "")
	require.NoError(t, err, "a lone class name is a value, not a header")
	c, _ = ReadValueColumn(tempFile(t, "y.csv", "5\nx\n"), "")
	_, err = c.Floats("y.csv")
	requireParseError(t, err, 2, `value "x" is not a number`)
}

func TestReadImageSet(t *testing.T) {
	dir := t.TempDir()
	px := make([]byte, 6*5) // six images of 5 pixels
	for i := range px {
		px[i] = byte(i)
	}
	writeFile(t, dir, "images_u8.bin.gz", gzipped(t, px))
	writeFile(t, dir, "labels.txt", []byte("0\n1\n0\n1\n2\n2\n"))
	writeFile(t, dir, "origin.txt", []byte("train 0\ntrain 1\ntest 0\ntrain 2\ntest 1\ntest 2\n"))
	set, err := ReadImageSet(dir, 0)
	require.NoError(t, err)
	assert.Equal(t, 5, set.Images.Pixels, "pixels from the decoded size and the label count")
	assert.Equal(t, 6, set.Images.Count)
	assert.Equal(t, []int{0, 1, 3}, set.Train)
	assert.Equal(t, []int{2, 4, 5}, set.Test)
	assert.Equal(t, []byte{10, 11, 12, 13, 14}, set.Images.Image(2))
	for n, want := range map[int]int{0: 6, 1: 1, 6: 6} {
		got, err := set.First(n)
		require.NoError(t, err)
		assert.Equal(t, want, got, "the first %d images", n)
	}
	var pe *ParamError
	for _, n := range []int{-1, 7} {
		_, err = set.First(n)
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, ParamError{"n", n, pe.Reason}, *pe)
	}
	assert.Contains(t, pe.Reason, "holds only 6 images")

	// A doubled labels.txt no longer divides the size: an error, not 12
	// images of 2.5 pixels (or of a size guessed from a gzip trailer).
	writeFile(t, dir, "labels.txt", []byte(strings.Repeat("0\n", 12)))
	_, err = ReadImageSet(dir, 0)
	require.Error(t, err)
	writeFile(t, dir, "labels.txt", []byte(strings.Repeat("0\n", 7)))
	_, err = ReadImageSet(dir, 0)
	require.ErrorContains(t, err, "do not make 7 equally sized images")
	// An explicit pixel count that disagrees with the labels.
	writeFile(t, dir, "labels.txt", []byte("0\n1\n0\n1\n2\n2\n"))
	_, err = ReadImageSet(dir, 10)
	require.ErrorContains(t, err, "6 labels for the 3 images of 10 pixels")
	writeFile(t, dir, "origin.txt", []byte("train 0\nvalid 1\n"))
	_, err = ReadImageSet(dir, 0)
	requireParseError(t, err, 2, `"valid 1": want "train j" or "test j"`)
	require.NoError(t, os.Remove(filepath.Join(dir, "origin.txt")))
	set, err = ReadImageSet(filepath.Join(dir, "images_u8.bin.gz"), 0)
	require.NoError(t, err, "a file: labels.txt beside it")
	assert.Nil(t, set.Train)
	_, err = ReadImageSet(dir, -1)
	require.ErrorContains(t, err, "-1 pixels per image is invalid")
}

func TestReadImageRegression(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "train_images_u8.bin.gz", gzipped(t, make([]byte, 3*4)))
	writeFile(t, dir, "test_images_u8.bin.gz", gzipped(t, make([]byte, 2*4)))
	writeFile(t, dir, "train_angles.txt", []byte("1\n2\n3\n"))
	writeFile(t, dir, "test_angles.txt", []byte("4\n5\n"))
	r, err := ReadImageRegression(dir)
	require.NoError(t, err)
	assert.Equal(t, 4, r.Pixels)
	assert.Equal(t, []float64{4, 5}, r.YTest)
	writeFile(t, dir, "test_angles.txt", []byte("4\n"))
	_, err = ReadImageRegression(dir)
	require.ErrorContains(t, err, "holds 2 images of 4 pixels but test_angles.txt 1 targets")
}

func TestReadFolds(t *testing.T) {
	p := tempFile(t, "f.txt", "# seed 0, seed 1\n0 1 0 1\n1,0,1,0\n0 0 1 1\n")
	f, err := ReadFolds(p, 4, 2)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{0, 1, 0, 1}, {1, 0, 1, 0}}, f)
	// A fold id of 10⁹ is refused, not allocated for.
	_, err = ReadFolds(tempFile(t, "f.txt", "0 1 1000000000 1\n"), 4, 1)
	requireParseError(t, err, 1, `fold id "1000000000" of item 2 is invalid: it must be an integer in [0, 4)`)
	_, err = ReadFolds(tempFile(t, "f.txt", "0 1 0\n"), 4, 1)
	requireParseError(t, err, 1, "3 fold ids, want 4")
	_, err = ReadFolds(p, 4, 5)
	requireParseError(t, err, 0, "3 fold assignments, fewer than the 5 needed")
}
