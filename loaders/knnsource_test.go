package loaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
)

// TestKNNSourceSelect: the first N points keep their rows and ids; N
// beyond the file, a negative N and two sources are refused; points above
// a budget are refused by Check.
func TestKNNSourceSelect(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	ids, err := nodeids.FromStrings([]string{"a", "b", "c", "d"})
	require.NoError(t, err)
	p := &Points{X: x, IDs: ids, Report: TableReport{Path: "dir/pts.csv"}}
	got, err := KNNSource{Features: "dir/pts.csv", N: 3}.Select(p, memlimit.Budget{})
	require.NoError(t, err)
	assert.True(t, mat.Equal(x.Slice(0, 3, 0, 2), got.X))
	assert.Equal(t, []string{"a", "b", "c"}, []string{got.IDs.ID(0), got.IDs.ID(1), got.IDs.ID(2)})
	assert.Equal(t, "pts", got.Report.Dataset)
	assert.Equal(t, 3, got.Report.Nodes)
	assert.Equal(t, 1.0, got.Dist2Scale)

	_, err = KNNSource{Features: "dir/pts.csv", N: 5}.Select(p, memlimit.Budget{})
	assert.EqualError(t, err, "--n 5 is invalid: dir/pts.csv holds only 4 points")
	assert.EqualError(t, KNNSource{N: -1}.Validate(), "--n -1 is invalid: it must be ≥ 0 (0 means all images)")
	assert.ErrorContains(t, KNNSource{Images: "i", Features: "f"}.Validate(), "exclude each other")

	assert.ErrorIs(t, p.Check(memlimit.Budget{Bytes: 10, Name: "--max-memory"}), memlimit.ErrTooMuch)
	require.NoError(t, p.Check(memlimit.Budget{Bytes: 1 << 20}))
	empty := &Points{X: &mat.Dense{}, Report: TableReport{Path: "e.csv"}}
	assert.EqualError(t, empty.Check(memlimit.Budget{Bytes: 1 << 20}), "--features e.csv has no rows: a K-nearest-neighbour graph needs points")
}
