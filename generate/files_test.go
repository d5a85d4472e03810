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

// TestWrite: what Write reports is what the files hold, read back: the
// edge lines, the labels and their class sizes, the split's lines and the
// features' header; an R-MAT graph writes its edges only.
func TestWrite(t *testing.T) {
	ctx := context.Background()
	g, err := NewSBM(SBM{Nodes: 120, Classes: 3, Degree: 4, Seed: 2})
	require.NoError(t, err)
	f, err := NewFiles(filepath.Join(t.TempDir(), "s"), LayoutText, false)
	require.NoError(t, err)
	w, err := f.Write(ctx, g, SplitSizes{PerClass: 4, Val: 20, Test: 30}, 5, Features{Columns: 8})
	require.NoError(t, err)
	read := func(path string) []string {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	require.Equal(t, map[string]string{"edges": f.Edges, "labels": f.Labels, "split": f.Split, "features": f.Features}, w.Files)
	require.Len(t, read(f.Edges), int(w.Edges))
	sizes := make([]int, 3)
	for _, l := range read(f.Labels) {
		c, err := strconv.Atoi(l)
		require.NoError(t, err)
		sizes[c]++
	}
	require.Equal(t, sizes, w.Sizes)
	count := map[string]int{}
	for _, l := range read(f.Split) {
		count[strings.Fields(l)[0]]++
	}
	require.Equal(t, []int{12, 20, 30}, []int{w.Train, w.Val, w.Test})
	require.Equal(t, map[string]int{"train": 12, "val": 20, "test": 30}, count)
	require.Equal(t, []any{120, 3, 8}, []any{w.Nodes, w.Classes, w.Features})

	r, err := NewRMAT(RMAT{Scale: 5, EdgeFactor: 2, Seed: 1})
	require.NoError(t, err)
	f, err = NewFiles(filepath.Join(t.TempDir(), "r"), LayoutCSV, false)
	require.NoError(t, err)
	w, err = f.Write(ctx, r, SplitSizes{}, 1, Features{})
	require.NoError(t, err)
	require.Equal(t, Written{Nodes: 32, Edges: 64, Files: map[string]string{"edges": f.Edges}}, w)
	require.Len(t, read(f.Edges), 65) // and the header
}
