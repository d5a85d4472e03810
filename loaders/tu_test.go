package loaders

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// tuFiles is a small TU data set "TOY" of three graphs:
//
//	graph 1: nodes 1..3, a path 1-2-3 (both directions listed), label 1
//	graph 2: node 4 alone, label -1
//	graph 3: nodes 5..6, edge 5-6 listed one way only, and a self loop on 6, label 1
func tuFiles() map[string]string {
	return map[string]string{
		tuA:          "1, 2\n2, 1\n2, 3\n3, 2\n5, 6\n6, 6\n",
		tuIndicator:  "1\n1\n1\n2\n3\n3\n",
		tuGraphLabel: "1\n-1\n1\n",
		tuNodeLabel:  "0\n1\n0\n2\n1\n1\n",
		tuEdgeLabel:  "7\n7\n8\n8\n9\n5\n",
		tuNodeAttr:   "1.0, 2\n3, 4\n5, 6\n7, 8\n9, 10\n11, 12\n",
	}
}

// tuFolder writes the files, replaced or (with absent) removed by edits.
func tuFolder(t *testing.T, edits map[string]string) string {
	t.Helper()
	files := tuFiles()
	for k, v := range edits {
		files[k] = v
	}
	dir := filepath.Join(t.TempDir(), "TOY")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for suffix, content := range files {
		if content != absent {
			writeFile(t, dir, "TOY_"+suffix+".txt", []byte(content))
		}
	}
	return dir
}

func TestLoadTU(t *testing.T) {
	ds, err := LoadTU(tuFolder(t, nil))
	require.NoError(t, err)
	assert.Equal(t, "TOY", ds.Name)
	assert.Equal(t, []int{-1, 1}, ds.LabelValues)
	assert.Equal(t, 1, ds.SelfLoopsDropped, "the arc 6, 6")
	assert.Equal(t, []int{1, 0, 1}, ds.Classes())
	require.Len(t, ds.Graphs, 3)

	g1 := ds.Graphs[0]
	assert.Equal(t, 1, g1.Label)
	assert.Equal(t, 0, g1.FirstNode)
	assert.True(t, mat.Equal(mat.NewDense(3, 3, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0}), g1.Graph.Dense()))
	assert.Equal(t, []int{0, 1, 0}, g1.NodeLabels)
	assert.Equal(t, [][]int{{7}, {7, 8}, {8}}, g1.EdgeLabels)
	assert.True(t, mat.Equal(mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}), g1.Attributes))

	g2 := ds.Graphs[1]
	assert.Equal(t, -1, g2.Label)
	assert.Equal(t, 3, g2.FirstNode)
	assert.Equal(t, 1, g2.Graph.Nodes())
	assert.Zero(t, g2.Graph.Edges())
	assert.Equal(t, []int{2}, g2.NodeLabels)
	assert.Equal(t, [][]int{{}}, g2.EdgeLabels)

	g3 := ds.Graphs[2]
	assert.Equal(t, 4, g3.FirstNode)
	assert.True(t, mat.Equal(mat.NewDense(2, 2, []float64{0, 1, 1, 0}), g3.Graph.Dense()), "one direction makes an edge; self loops dropped")
	assert.Equal(t, [][]int{{9}, {9}}, g3.EdgeLabels)
	assert.True(t, mat.Equal(mat.NewDense(2, 2, []float64{9, 10, 11, 12}), g3.Attributes))
}

func TestLoadTUOptionalFiles(t *testing.T) {
	ds, err := LoadTU(tuFolder(t, map[string]string{tuNodeLabel: absent, tuEdgeLabel: absent, tuNodeAttr: absent}))
	require.NoError(t, err)
	for _, g := range ds.Graphs {
		assert.Nil(t, g.NodeLabels)
		assert.Nil(t, g.EdgeLabels)
		assert.Nil(t, g.Attributes)
	}
}

func TestLoadTUEmptyGraph(t *testing.T) {
	// Graph 2 has no nodes: the indicator jumps from 1 to 3.
	ds, err := LoadTU(tuFolder(t, map[string]string{
		tuA: "1, 2\n", tuIndicator: "1\n1\n3\n", tuNodeLabel: "0\n0\n0\n", tuEdgeLabel: "1\n", tuNodeAttr: "1\n2\n3\n",
	}))
	require.NoError(t, err)
	require.Len(t, ds.Graphs, 3)
	assert.Zero(t, ds.Graphs[1].Graph.Nodes())
	assert.Nil(t, ds.Graphs[1].Attributes)
	assert.Equal(t, 2, ds.Graphs[2].FirstNode)
}

func TestLoadTUBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits map[string]string
		file  string
		line  int
		want  string
	}{
		{"arc across graphs", map[string]string{tuA: "1, 2\n2, 1\n3, 4\n"}, tuA, 3, "arc (3, 4) joins node 3 of graph 1 and node 4 of graph 2"},
		{"node id zero", map[string]string{tuA: "0, 1\n"}, tuA, 1, "node id 0 out of range [1, 6]"},
		{"node id too large", map[string]string{tuA: "1, 2\n6, 7\n"}, tuA, 2, "node id 7 out of range [1, 6]"},
		{"malformed arc", map[string]string{tuA: "1, 2\n1 2 3\n"}, tuA, 2, `want "row, col", got "1 2 3"`},
		{"repeated arc", map[string]string{tuA: "1, 2\n2, 1\n2, 3\n3, 2\n1, 2\n5, 6\n"}, tuA, 5, "arc (1, 2) repeats line 1"},
		{"indicator zero", map[string]string{tuIndicator: "0\n1\n1\n2\n3\n3\n"}, tuIndicator, 1, "graph id 0 out of range [1, 3]"},
		{"indicator beyond labels", map[string]string{tuIndicator: "1\n1\n1\n2\n3\n4\n"}, tuIndicator, 6, "graph id 4 out of range [1, 3]"},
		{"indicator decreasing", map[string]string{tuIndicator: "1\n1\n2\n1\n3\n3\n"}, tuIndicator, 4, "graph id 1 after 2"},
		{"indicator not an integer", map[string]string{tuIndicator: "1\n1\n1.0\n2\n3\n3\n"}, tuIndicator, 3, `graph id "1.0" is not an integer`},
		{"node labels short", map[string]string{tuNodeLabel: "0\n1\n0\n2\n1\n"}, tuNodeLabel, 0, "5 lines, want 6"},
		{"edge labels long", map[string]string{tuEdgeLabel: "7\n7\n8\n8\n9\n5\n1\n"}, tuEdgeLabel, 0, "7 lines, want 6"},
		{"edge labels disagree", map[string]string{tuEdgeLabel: "7\n6\n8\n8\n9\n5\n"}, tuEdgeLabel, 2, "edge label 6 of arc (2, 1) differs from label 7 on line 1"},
		{"attributes short", map[string]string{tuNodeAttr: "1, 2\n3, 4\n"}, tuNodeAttr, 0, "2 lines, want 6"},
		{"attributes long", map[string]string{tuNodeAttr: "1,2\n1,2\n1,2\n1,2\n1,2\n1,2\n1,2\n"}, tuNodeAttr, 7, "more than 6 lines"},
		{"attributes ragged", map[string]string{tuNodeAttr: "1, 2\n3, 4, 5\n"}, tuNodeAttr, 2, "3 attributes, want 2 like line 1"},
		{"attribute NaN", map[string]string{tuNodeAttr: "1, 2\n3, nan\n5, 6\n7, 8\n9, 10\n11, 12\n"}, tuNodeAttr, 2, "column 2: attribute nan is not finite"},
		{"graph labels empty", map[string]string{tuGraphLabel: ""}, tuGraphLabel, 0, "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadTU(tuFolder(t, tc.edits))
			requireParseError(t, err, tc.line, tc.want)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "TOY_"+tc.file+".txt", filepath.Base(pe.Path))
		})
	}
}

func TestLoadTUMissingFiles(t *testing.T) {
	_, err := LoadTU(tuFolder(t, map[string]string{tuA: absent}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "TOY_A.txt")

	_, err = LoadTU(t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "found 0")

	dir := tuFolder(t, nil)
	writeFile(t, dir, "OTHER_graph_indicator.txt", []byte("1\n"))
	_, err = LoadTU(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "found 2")
}

// TestTUReports: every file read has its report, with the columns used and
// those read past (a node-label file of three columns keeps the first).
func TestTUReports(t *testing.T) {
	dir := tuFolder(t, map[string]string{tuNodeLabel: "0, 5, 6\n1, 5, 6\n0, 5, 6\n2, 5, 6\n1, 5, 6\n1, 5, 6\n", tuEdgeLabel: absent})
	d, err := LoadTU(dir)
	require.NoError(t, err)
	path := func(s string) string { return filepath.Join(dir, "TOY_"+s+".txt") }
	assert.Equal(t, []TableReport{
		{Path: path(tuA), Role: "edges", Format: "tu", Source: "column 1", Target: "column 2"},
		{Path: path(tuIndicator), Role: "graph indicator", Format: "tu", Note: "column 1: the graph of each node"},
		{Path: path(tuGraphLabel), Role: "graph labels", Format: "tu", Label: "column 1"},
		{Path: path(tuNodeLabel), Role: "node labels", Format: "tu", Label: "column 1", Ignored: []string{"columns 2..3"}},
		{Path: path(tuNodeAttr), Role: "node attributes", Format: "tu", Note: "2 attribute columns"},
	}, d.Reports)
	assert.Equal(t, []int{0, 1, 0}, d.Graphs[0].NodeLabels)
	assert.Equal(t, []string{"-1", "1"}, d.ClassNames(), "the graph labels of the classes, ascending")
	assert.Equal(t, "node labels "+path(tuNodeLabel)+": tu; label = column 1; ignored columns 2..3", d.Reports[3].String())
}
