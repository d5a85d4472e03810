package generate

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewFilesLayouts(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g")
	f, err := NewFiles(p, LayoutCSV, true)
	require.NoError(t, err)
	require.Equal(t, Files{Edges: p + ".edges.csv.gz", Labels: p + ".labels.csv", Split: p + ".split.txt", Features: p + ".features.txt.gz", EdgeFormat: EdgesCSV, LabelFormat: LabelsCSV}, f)
	f, err = NewFiles(p, LayoutGraphFile, false)
	require.NoError(t, err)
	require.True(t, f.GraphFile)
	require.Equal(t, p+".gsg", f.Edges)
	f, err = NewFiles(p, LayoutFolder, false)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(p, "split_planetoid.txt"), f.Split)
	require.DirExists(t, p)
	_, err = NewFiles(p, "xml", false)
	require.Error(t, err)
}

// TestWriteClassFiles reads back the labels and the split written for a
// small SBM: one label per node as the generator drew them, and a split
// with --per-class training nodes of each class.
func TestWriteClassFiles(t *testing.T) {
	g, err := NewSBM(SBM{Nodes: 200, Classes: 4, Degree: 6, Seed: 3})
	require.NoError(t, err)
	f, err := NewFiles(filepath.Join(t.TempDir(), "s"), LayoutText, false)
	require.NoError(t, err)
	c, err := f.WriteClassFiles(context.Background(), g, SplitSizes{PerClass: 5, Val: 30, Test: 1000}, 1, Features{})
	require.NoError(t, err)
	require.Equal(t, ClassFiles{Train: 20, Val: 30, Test: 150}, c) // test capped to the 150 nodes left
	b, err := os.ReadFile(f.Labels)
	require.NoError(t, err)
	lines := strings.Fields(string(b))
	require.Len(t, lines, 200)
	for i, l := range lines {
		require.Equal(t, strconv.Itoa(g.Label(i)), l)
	}
	_, err = f.WriteClassFiles(context.Background(), g, SplitSizes{PerClass: 0}, 1, Features{})
	require.Error(t, err)
}

func TestMemoryEstimates(t *testing.T) {
	require.Equal(t, int64(1000*sbmBytesPerNode), SBMBytes(SBM{Nodes: 1000, Degree: 10}, 0, false))
	require.Equal(t, int64(1000*sbmBytesPerNode+1000*10/2*gsgBytesPerEdge), SBMBytes(SBM{Nodes: 1000, Degree: 10}, 0, true))
	require.Equal(t, int64(1024*rmatBytesPerNode), RMATBytes(RMAT{Scale: 10, EdgeFactor: 16}, false))
	require.Equal(t, int64(0), RMATBytes(RMAT{Scale: 0}, false))
}
