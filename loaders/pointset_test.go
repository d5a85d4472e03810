package loaders

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadPointSet reads features, labels and test files with an id column
// and compares every number with the one written.
func TestReadPointSet(t *testing.T) {
	dir := t.TempDir()
	f := PointFiles{
		Features:     writeFile(t, dir, "x.csv", []byte("id,a,b\nu0,1.5,-2\nu1,0,3e2\nu2,7,8\n")),
		Values:       writeFile(t, dir, "y.csv", []byte("id,label\nu0,cat\nu1,\nu2,07\n")),
		TestFeatures: writeFile(t, dir, "xt.csv", []byte("id,a,b\nt0,1,1\n")),
		TestValues:   writeFile(t, dir, "yt.csv", []byte("id,label\nt0,dog\n")),
		IDColumn:     "id", Labels: true,
	}
	s, err := ReadPointSet(f)
	require.NoError(t, err)
	want := [][]float64{{1.5, -2}, {0, 300}, {7, 8}}
	for i, row := range want {
		assert.Equal(t, row, s.X.RawRowView(i))
	}
	assert.Equal(t, []string{"cat", "", "07"}, s.Values)
	assert.Equal(t, []string{"u0", "u1", "u2"}, s.IDs)
	assert.Equal(t, []string{"t0"}, s.TestIDs)
	assert.Equal(t, []string{"dog"}, s.TestValues)
	assert.Nil(t, s.Targets, "labels are not parsed as numbers")

	// Regression without ids: targets parsed, NaN where blank, row numbers as ids.
	r := PointFiles{Features: writeFile(t, dir, "rx.csv", []byte("1\n2\n3\n")), Values: writeFile(t, dir, "ry.csv", []byte("0.5\nnan\n-1\n"))}
	s, err = ReadPointSet(r)
	require.NoError(t, err)
	assert.Equal(t, 0.5, s.Targets[0])
	assert.True(t, math.IsNaN(s.Targets[1]))
	assert.Equal(t, -1.0, s.Targets[2])
	assert.Equal(t, []string{"0", "1", "2"}, s.IDs)

	// Errors name the file and, through PointFileError, the field.
	bad := f
	bad.TestFeatures = writeFile(t, dir, "xt3.csv", []byte("id,a,b,c\nt0,1,1,1\n"))
	_, err = ReadPointSet(bad)
	var fe *PointFileError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "TestFeatures", fe.Field)
	assert.ErrorContains(t, err, "3 columns, but the features")
	bad = f
	bad.Values = writeFile(t, dir, "y2.csv", []byte("id,label\nu0,cat\nu2,dog\nu1,cat\n"))
	_, err = ReadPointSet(bad)
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, "Values", fe.Field)
	assert.ErrorContains(t, err, `id "u2", but point 1 of the features has id "u1"`)
	bad = f
	bad.Features = writeFile(t, dir, "big.csv", []byte("id,a,b\nu0,1,1e200\nu1,0,0\nu2,0,0\n"))
	_, err = ReadPointSet(bad)
	assert.ErrorContains(t, err, "row 1, column 2: 1e+200 is beyond")
	_, err = ReadPointSet(PointFiles{Features: f.Features, Values: f.Values, TestValues: f.TestValues})
	assert.ErrorContains(t, err, "TestValues needs TestFeatures")
	_, err = ReadPointSet(PointFiles{Features: r.Features, Values: writeFile(t, dir, "ry2.csv", []byte("1\n2\n"))})
	assert.ErrorContains(t, err, "2 values for 3 points")
	_, err = ReadPointSet(PointFiles{Features: r.Features, Values: writeFile(t, dir, "ry3.csv", []byte("1\nx\n2\n"))})
	assert.ErrorContains(t, err, "not a finite number")
}

// TestParseTargets: blanks are NaN, values beyond MaxMagnitude and
// infinities are refused with the point's index.
func TestParseTargets(t *testing.T) {
	v, err := ParseTargets("f", []string{"", "2.5", "-1e3"})
	require.NoError(t, err)
	assert.True(t, math.IsNaN(v[0]))
	assert.Equal(t, []float64{2.5, -1000}, v[1:])
	_, err = ParseTargets("f", []string{"1", "1e200"})
	assert.ErrorContains(t, err, "value 1e+200 of point 1 is beyond")
	_, err = ParseTargets("f", []string{"inf"})
	assert.ErrorContains(t, err, "not a finite number")
}

// TestReadLabelledPoints: the last column is the class, the rest the
// coordinates; a fractional class is refused with its data row.
func TestReadLabelledPoints(t *testing.T) {
	x, y, err := ReadLabelledPoints(tempFile(t, "p.csv", "0.5,1,2\n-1,3,0\n"))
	require.NoError(t, err)
	assert.Equal(t, []int{2, 0}, y)
	assert.Equal(t, []float64{0.5, 1}, x.RawRowView(0))
	assert.Equal(t, []float64{-1, 3}, x.RawRowView(1))
	_, _, err = ReadLabelledPoints(tempFile(t, "q.csv", "0.1,0.2,1\n0.3,0.1,0.5\n"))
	assert.ErrorContains(t, err, "data row 2: class 0.5 in the last column is not a non-negative integer")
}

// TestImageKNNDataset compares the graph with a brute-force K-nearest
// neighbour search (or-rule: i–j when either is among the other's K
// nearest, ties to the lower index) over the raw bytes.
func TestImageKNNDataset(t *testing.T) {
	const n, px, k = 12, 5, 3
	pix := make([]byte, n*px)
	labels := ""
	for i := range pix {
		pix[i] = byte((i*37 + i*i*11) % 251)
	}
	for i := 0; i < n; i++ {
		labels += strconv.Itoa(5*(i%2)) + "\n"
	}
	dir := t.TempDir()
	writeFile(t, dir, "images_u8.bin.gz", gzipped(t, pix))
	writeFile(t, dir, "labels.txt", []byte(labels))
	ds, err := ImageKNNDataset(context.Background(), dir, 0, k, nil)
	require.NoError(t, err)
	assert.Equal(t, filepath.Base(dir)+"-knn3", ds.Name)
	assert.Equal(t, []int{5}, ds.ClassValues[1:])
	want := make([]map[int]bool, n)
	for i := range want {
		want[i] = map[int]bool{}
	}
	for i := 0; i < n; i++ {
		d2 := func(j int) int {
			s := 0
			for p := 0; p < px; p++ {
				d := int(pix[i*px+p]) - int(pix[j*px+p])
				s += d * d
			}
			return s
		}
		var js []int
		for j := 0; j < n; j++ {
			if j != i {
				js = append(js, j)
			}
		}
		sort.SliceStable(js, func(a, b int) bool { return d2(js[a]) < d2(js[b]) })
		for _, j := range js[:k] {
			want[i][j], want[j][i] = true, true
		}
	}
	for i := 0; i < n; i++ {
		got := map[int]bool{}
		nb, w := ds.Graph.Row(i)
		for p, j := range nb {
			assert.Equal(t, 1.0, w[p])
			got[int(j)] = true
		}
		assert.Equal(t, want[i], got, "node %d", i)
	}
	_, err = ImageKNNDataset(context.Background(), dir, 0, n, nil)
	var pe *ParamError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, "k", pe.Name)
	_, err = ImageKNNDataset(context.Background(), dir, n+1, k, nil)
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, "n", pe.Name)
	npy := writeFile(t, dir, "x.npy", []byte("\x93NUMPY\x01\x00rest"))
	assert.ErrorContains(t, RefuseNumPyImages(npy), "is a NumPy array")
	assert.NoError(t, RefuseNumPyImages(dir))
}
