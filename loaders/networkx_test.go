package loaders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// networkxDir holds the files written by testdata/networkx/make.py.
var networkxDir = filepath.Join("..", "testdata", "networkx")

type expectedNetworkx struct {
	Int, Weighted, Names struct {
		Edges [][3]any
		Nodes []string
	}
	Labels   map[string]*string
	Features struct {
		Nodes  []string
		Values []float64
		Dims   []int
	}
}

func readExpectedNetworkx(t *testing.T) expectedNetworkx {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(networkxDir, "expected.json"))
	require.NoError(t, err)
	var e expectedNetworkx
	require.NoError(t, json.Unmarshal(raw, &e))
	return e
}

// nxEdgeSet returns the edges of ds by the user's ids, "u v" with u < v as
// text, and their weights.
func nxEdgeSet(ds *NodeDataset) map[[2]string]float64 {
	out := make(map[[2]string]float64)
	ds.Graph.ForEachEdge(func(u, v int, w float64) {
		a, b := ds.IDs.ID(u), ds.IDs.ID(v)
		if a > b {
			a, b = b, a
		}
		out[[2]string{a, b}] = w
	})
	return out
}

func wantEdgeSet(edges [][3]any) map[[2]string]float64 {
	out := make(map[[2]string]float64)
	for _, e := range edges {
		a, b := e[0].(string), e[1].(string)
		if a > b {
			a, b = b, a
		}
		out[[2]string{a, b}] = e[2].(float64)
	}
	return out
}

// TestNetworkxFixtures reads every file NetworkX and pandas wrote with
// LoadNodes and compares the graph with the one they were written from.
func TestNetworkxFixtures(t *testing.T) {
	want := readExpectedNetworkx(t)
	for file, edges := range map[string][][3]any{
		"int_data.edgelist":       want.Int.Edges,
		"int_weight.edgelist":     want.Int.Edges, // write_edgelist(data=["weight"]): "u v" and "u v w" rows mixed
		"weighted.edgelist":       want.Weighted.Edges,
		"names_data.edgelist":     want.Names.Edges,
		"names_weighted.edgelist": want.Names.Edges,
		"edges.csv":               want.Names.Edges,
		"edges_bom.csv":           want.Names.Edges,
		"edges_crlf.csv":          want.Names.Edges,
		"edges.csv.gz":            want.Names.Edges,
		"edges.tsv":               want.Names.Edges,
	} {
		ds, err := LoadNodes(NodeFiles{Edges: filepath.Join(networkxDir, file), Graph: UserGraphOptions()})
		require.NoError(t, err, file)
		checkGraph(t, ds.Graph)
		assert.Equal(t, wantEdgeSet(edges), nxEdgeSet(ds), file)
	}
	// Without weights every edge weighs 1.
	ds, err := LoadNodes(NodeFiles{Edges: filepath.Join(networkxDir, "int_nodata.edgelist"), Graph: UserGraphOptions()})
	require.NoError(t, err)
	unit := wantEdgeSet(want.Int.Edges)
	for k := range unit {
		unit[k] = 1
	}
	assert.Equal(t, unit, nxEdgeSet(ds))

	// Labels with class names and blanks.
	ds, err = LoadNodes(NodeFiles{
		Edges:  filepath.Join(networkxDir, "edges.csv"),
		Labels: filepath.Join(networkxDir, "labels.csv"),
		Graph:  UserGraphOptions(),
	})
	require.NoError(t, err)
	require.Len(t, ds.Labels, len(want.Names.Nodes))
	for i, l := range ds.Labels {
		name, ok := want.Labels[ds.IDs.ID(i)]
		if !ok || name == nil {
			assert.Equal(t, -1, l, "node %s is unlabelled", ds.IDs.ID(i))
			continue
		}
		require.GreaterOrEqual(t, l, 0)
		assert.Equal(t, *name, ds.ClassNames[l])
	}
	assert.Equal(t, 3, ds.Classes)

	// Features in the order of nodes.txt, as written by numpy.
	x, err := ReadNPY(filepath.Join(networkxDir, "features.npy"))
	require.NoError(t, err)
	r, c := x.Dims()
	assert.Equal(t, want.Features.Dims, []int{r, c})
	assert.Equal(t, want.Features.Values, x.RawMatrix().Data)
	nodes, err := readFile(filepath.Join(networkxDir, "nodes.txt"), func(lr *lineReader) ([]string, error) {
		var out []string
		return out, lr.eachLine("", blankTrailing, func(s string) error { out = append(out, s); return nil })
	})
	require.NoError(t, err)
	assert.Equal(t, want.Features.Nodes, nodes)
}
