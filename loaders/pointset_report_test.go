package loaders

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ReadPointSet says, per file, which columns it read as id and value and
// how it decided the header.
func TestPointSetReports(t *testing.T) {
	dir := t.TempDir()
	w := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	s, err := ReadPointSet(PointFiles{Features: w("x.csv", "name,a,b\np,1,2\nq,3,4\n"), Values: w("y.csv", "name,class\np,x\nq,\n"),
		TestFeatures: w("t.csv", "name,a,b\nr,5,6\n"), IDColumn: "name", Labels: true})
	require.NoError(t, err)
	require.Len(t, s.Reports, 3)
	f, v, tf := s.Reports[0], s.Reports[1], s.Reports[2]
	assert.Equal(t, "features", f.Role)
	assert.Equal(t, `"name" (column 1)`, f.ID)
	assert.Equal(t, "2 feature columns: a, b", f.Note)
	assert.Contains(t, f.Header, "line 1")
	assert.Equal(t, "labels", v.Role)
	assert.Equal(t, `"name" (column 1)`, v.ID)
	assert.Equal(t, `"class" (column 2)`, v.Label)
	assert.Equal(t, "test-features", tf.Role)
	assert.Equal(t, "2 feature columns: a, b", tf.Note)
	assert.Equal(t, `"name" (column 1)`, tf.ID)
}
