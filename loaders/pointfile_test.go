package loaders

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

func pointTestFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func TestReadPointsIDs(t *testing.T) {
	for _, c := range []struct {
		name, body string
		ids        []string
	}{
		{"header id", "id,x,y\n7,1,2\n9,3,4\n", []string{"7", "9"}},
		{"names", "a,1,2\nb,3,4\n", []string{"a", "b"}},
		{"numbers", "1,2\n3,4\n", []string{"0", "1"}},
	} {
		p, err := ReadPoints(pointTestFile(t, "p.csv", c.body), "")
		require.NoError(t, err, c.name)
		r, d := p.X.Dims()
		require.Equal(t, []int{2, 2}, []int{r, d}, c.name)
		require.Equal(t, 3.0, p.X.At(1, 0), c.name)
		require.Equal(t, c.ids, p.IDs.Strings(), c.name)
	}
	ids := pointTestFile(t, "ids.txt", "u\nv\n")
	p, err := ReadPoints(pointTestFile(t, "p.csv", "1,2\n3,4\n"), ids)
	require.NoError(t, err)
	require.Equal(t, []string{"u", "v"}, p.IDs.Strings())
	_, err = ReadPoints(pointTestFile(t, "p.csv", "1,2\n3,4\n5,6\n"), ids)
	require.ErrorContains(t, err, "lists 2 ids for the 3 rows")
	_, err = ReadPoints(pointTestFile(t, "p.csv", "1,2\n3,nan\n"), "")
	require.Error(t, err)
}

func TestReadPointValues(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"a", "b", "c"})
	require.NoError(t, err)
	v, err := ReadPointValues(pointTestFile(t, "l.csv", "id,label\nc,x\na,y\n"), ids, "f.csv", true)
	require.NoError(t, err)
	require.Equal(t, []string{"y", "", "x"}, v)
	v, err = ReadPointValues(pointTestFile(t, "l.txt", "1\nx\n2\n"), ids, "f.csv", true)
	require.NoError(t, err)
	require.Equal(t, []string{"1", "x", "2"}, v)
	_, err = ReadPointValues(pointTestFile(t, "l.txt", "1\n2\n"), ids, "f.csv", true)
	require.ErrorContains(t, err, "2 values for the 3 rows")
	_, err = ReadPointValues(pointTestFile(t, "l.csv", "id,label\nz,x\n"), ids, "f.csv", true)
	require.ErrorContains(t, err, `id "z" names no row`)
	f, err := ParseTargets("t.txt", []string{"1.5", ""})
	require.NoError(t, err)
	require.Equal(t, 1.5, f[0])
	require.True(t, math.IsNaN(f[1]))
	_, err = ParseTargets("t.txt", []string{"1e200"})
	require.ErrorContains(t, err, "beyond")
}

func TestReadIDLines(t *testing.T) {
	got, err := ReadIDLines(pointTestFile(t, "ids.txt", "\ufeffa\r\nb\n\n"))
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b"}, got)
	_, err = ReadIDLines(pointTestFile(t, "ids.txt", "a\n\nb\n"))
	require.ErrorContains(t, err, "line 2: a blank line")
}

// TestWriteTableRoundTrip reads the CSV and JSON Lines WriteTable writes
// with encoding/csv and encoding/json.
func TestWriteTableRoundTrip(t *testing.T) {
	cols := []string{"id", "n", "x"}
	row := func(r int, rec []any) {
		rec[0], rec[1], rec[2] = []string{"a,b", "c"}[r], r, []float64{0.25, math.NaN()}[r]
	}
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, false, cols, 2, row))
	recs, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{cols, {"a,b", "0", "0.25"}, {"c", "1", ""}}, recs)
	b.Reset()
	require.NoError(t, WriteTable(&b, true, cols, 2, row))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 2)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &m))
	require.Equal(t, map[string]any{"id": "c", "n": 1.0, "x": nil}, m)
	require.True(t, IsJSONLines("p.ndjson"))
	require.False(t, IsJSONLines("p.csv"))
}

// TestWriteGraphRoundTrip writes a weighted graph with text ids in every
// format and reads it back with LoadNodes.
func TestWriteGraphRoundTrip(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"x", "y", "z"})
	require.NoError(t, err)
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}}, UserGraphOptions())
	require.NoError(t, err)
	for _, ext := range []string{"mtx", "gsg", "npz", "csv", "tsv", "txt"} {
		path := filepath.Join(t.TempDir(), "g."+ext)
		require.NoError(t, WriteGraph(path, g, ids), ext)
		ds, err := LoadNodes(NodeFiles{Edges: path, Graph: UserGraphOptions()})
		require.NoError(t, err, ext)
		require.Equal(t, 3, ds.Graph.Nodes(), ext)
		total := 0.0
		ds.Graph.ForEachEdge(func(u, v int, w float64) { total += w })
		require.Equal(t, 2.5, total, ext) // each edge once: 0.5 + 2
		ds.Close()
	}
	_, err = GraphFormat("g.png")
	require.ErrorContains(t, err, "unknown graph format")
}

// TestNodeDatasetSummary counts a small data set by hand.
func TestNodeDatasetSummary(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"b", "a", "c"})
	require.NoError(t, err)
	ds := &NodeDataset{IDs: ids, Labels: []int{1, -1, 1}, Classes: 2, ClassNames: []string{"p", "q"}, Targets: []float64{1, math.NaN(), 2}}
	s := ds.Summary()
	require.Equal(t, []int{0, 2}, s.ClassSizes)
	require.Equal(t, []string{"p", "q"}, s.ClassNames)
	require.Equal(t, 1, s.Unlabelled)
	require.Equal(t, 2, s.Targets)
	require.Equal(t, "text", s.IDs)
	require.Equal(t, []int{0, 2}, ds.Labelled())
	require.Equal(t, []int{1, 0, 2}, ds.IDOrder([]int{0, 1, 2}))
	_, err = ParseDirected("sideways")
	require.Error(t, err)
}

// TestLoadGraph reads an edge file with and without its self loop, and the
// .gsg file written from it.
func TestLoadGraph(t *testing.T) {
	p := pointTestFile(t, "e.txt", "a b 2\nb c 1\nc c 1\n")
	g, ids, err := LoadGraph(p, 0, false)
	require.NoError(t, err)
	require.Equal(t, 1, g.SelfLoops())
	require.Equal(t, []string{"a", "b", "c"}, ids.Strings())
	g2, _, err := LoadGraph(p, 0, true)
	require.NoError(t, err)
	require.Equal(t, 0, g2.SelfLoops())
	gsg := filepath.Join(t.TempDir(), "g.gsg")
	require.NoError(t, WriteGraph(gsg, g, ids))
	g3, ids3, err := LoadGraph(gsg, 0, false)
	require.NoError(t, err)
	require.Equal(t, g.Edges(), g3.Edges())
	require.Equal(t, ids.Strings(), ids3.Strings())
}

// TestWriteVectors writes the rows of a 2×2 matrix for nodes 2 and 0 of a
// 3-node data set and reads the CSV back: node 1 has empty cells.
func TestWriteVectors(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"a", "b", "c"})
	require.NoError(t, err)
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}}, UserGraphOptions())
	require.NoError(t, err)
	ds := &NodeDataset{Graph: g, IDs: ids}
	path := filepath.Join(t.TempDir(), "v.csv")
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	require.NoError(t, WriteVectors(path, ds, x, "v", []int{2, 0}, Column{Name: "row", Value: func(_, r int) any { return r }}))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{{"id", "row", "v1", "v2"}, {"a", "1", "3", "4"}, {"b", "-1", "", ""}, {"c", "0", "1", "2"}}, recs)
	require.Error(t, WriteVectors(path, ds, x, "v", []int{5, 0}))
}

// TestPointsDataset matches labels and targets to the rows by id.
func TestPointsDataset(t *testing.T) {
	p, err := ReadPoints(pointTestFile(t, "p.csv", "id,x\nu,1\nv,2\nw,3\n"), "")
	require.NoError(t, err)
	ds, err := PointsDataset(p, "p", pointTestFile(t, "l.csv", "id,label\nw,cat\nu,dog\n"), pointTestFile(t, "t.csv", "id,value\nv,2.5\n"))
	require.NoError(t, err)
	require.Equal(t, 2, ds.Classes)
	require.Equal(t, "dog", ds.ClassName(ds.Labels[0]))
	require.Equal(t, -1, ds.Labels[1])
	require.Equal(t, "cat", ds.ClassName(ds.Labels[2]))
	require.True(t, math.IsNaN(ds.Targets[0]))
	require.Equal(t, 2.5, ds.Targets[1])
	require.Equal(t, "features", ds.Reports[0].Role)
}
