package loaders

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
)

// edgeSet returns the graph's edges as "idA idB w" strings in the user's
// ids, each pair ordered by id text, so graphs numbered differently compare.
func edgeSet(t *testing.T, ds *NodeDataset) map[string]float64 {
	t.Helper()
	out := make(map[string]float64)
	ds.Graph.ForEachEdge(func(u, v int, w float64) {
		a, b := ds.IDs.ID(u), ds.IDs.ID(v)
		if a > b {
			a, b = b, a
		}
		out[a+" "+b] = w
	})
	return out
}

func TestLoadNodesHeaderStringIDsAndLabels(t *testing.T) {
	dir := t.TempDir()
	edges := writeFile(t, dir, "e.csv", []byte("source,target\r\nuser_b,user_a\r\nuser_a,user_c\r\n# a comment\r\nuser_c,user_b\r\nuser_d,user_c\r\n"))
	labels := writeFile(t, dir, "l.csv", []byte("\ufeffid,label\nuser_a,cat\nuser_b,\nuser_c,dog\nuser_e,cat\n"))
	ds, err := LoadNodes(NodeFiles{Edges: edges, Labels: labels, Graph: UserGraphOptions()})
	require.NoError(t, err)
	require.Equal(t, 5, ds.Graph.Nodes(), "user_e is labelled, hence a node (isolated)")
	assert.Equal(t, []string{"user_b", "user_a", "user_c", "user_d", "user_e"}, ds.IDs.Strings(), "first appearance")
	assert.Equal(t, map[string]float64{"user_a user_b": 1, "user_a user_c": 1, "user_b user_c": 1, "user_c user_d": 1}, edgeSet(t, ds))
	assert.Equal(t, []string{"cat", "dog"}, ds.ClassNames)
	assert.Equal(t, 2, ds.Classes)
	want := map[string]int{"user_a": 0, "user_b": -1, "user_c": 1, "user_d": -1, "user_e": 0}
	for i := 0; i < 5; i++ {
		assert.Equal(t, want[ds.IDs.ID(i)], ds.Labels[i], ds.IDs.ID(i))
	}
	assert.Equal(t, []int{4}, ds.Graph.Isolated())
}

func TestLoadNodesIntegerIDsAscending(t *testing.T) {
	edges := tempFile(t, "e.txt", "10 30\n30 20\n")
	ds, err := LoadNodes(NodeFiles{Edges: edges, Graph: UserGraphOptions()})
	require.NoError(t, err)
	assert.Equal(t, []string{"10", "20", "30"}, ds.IDs.Strings())
	assert.True(t, ds.Graph.HasEdge(0, 2))
	assert.True(t, ds.Graph.HasEdge(1, 2))
	assert.False(t, ds.Graph.HasEdge(0, 1))
}

func TestLoadNodesHugeIDIsTwoNodes(t *testing.T) {
	edges := tempFile(t, "e.txt", "0 2000000000\n")
	ds, err := LoadNodes(NodeFiles{Edges: edges, Graph: UserGraphOptions()})
	require.NoError(t, err)
	assert.Equal(t, 2, ds.Graph.Nodes())
	assert.Equal(t, "2000000000", ds.IDs.ID(1))
}

func TestEdgeTableFormats(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          map[string]float64
	}{
		{"networkx-empty-dict", "0 1 {}\n1 2 {}\n", map[string]float64{"0 1": 1, "1 2": 1}},
		{"networkx-weight", "0 1 {'weight': 0.5}\n1 2 {'weight': 2, 'color': 'red'}\n", map[string]float64{"0 1": 0.5, "1 2": 2}},
		{"networkx-weighted", "a b 0.5\nb c 1.5\n", map[string]float64{"a b": 0.5, "b c": 1.5}},
		{"tsv-header-weight", "src\tdst\tweight\nx\ty\t3\n", map[string]float64{"x y": 3}},
		{"pandas-index", ",source,target,weight\n0,p,q,0.25\n1,q,r,4\n", map[string]float64{"p q": 0.25, "q r": 4}},
		{"semicolon", "from;to\n1;2\n2;3\n", map[string]float64{"1 2": 1, "2 3": 1}},
		{"quoted", "source,target\n\"a,1\",b\n", map[string]float64{"a,1 b": 1}},
		{"unknown-header-over-numbers", "user,friend\n1,2\n", map[string]float64{"1 2": 1}},
		{"percent-comment", "% comment\n1 2\n", map[string]float64{"1 2": 1}},
		{"weights-on-some-rows", "1 2\n2 3 0.5\n", map[string]float64{"1 2": 1, "2 3": 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := LoadNodes(NodeFiles{Edges: tempFile(t, "e.txt", tc.content), Graph: UserGraphOptions()})
			require.NoError(t, err)
			assert.Equal(t, tc.want, edgeSet(t, ds))
		})
	}
}

func TestEdgeTableGzip(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "e.csv.gz", gzipped(t, []byte("source,target\nA,B\n")))
	ds, err := LoadNodes(NodeFiles{Edges: p, Graph: UserGraphOptions()})
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"A B": 1}, edgeSet(t, ds))
}

func TestEdgeTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		line          int
		msg           string
	}{
		{"ragged", "1 2\n2 3 4 5\n", 2, "want 2 fields like line 1"},
		{"ragged-with-header", "u,v\n1,2\n2,3,4\n", 3, "want 2 fields like line 2"},
		{"bad-weight", "1 2 x\n", 1, "weight"},
		{"negative-weight", "1 2 -1\n", 1, "negative"},
		{"four-fields", "1 2 3 4\n", 0, "want \"u v\" or \"u v w\""},
		{"empty-id", "a,,1\n", 1, "empty node id"},
		{"only-comments", "# nothing\n", 0, "no edges"},
		{"unclosed-quote", "\"a,b\n", 1, "unclosed quote"},
		{"bad-dict", "0 1 {'weight': x}\n", 1, "weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadNodes(NodeFiles{Edges: tempFile(t, "e.txt", tc.content), Graph: UserGraphOptions()})
			requireParseError(t, err, tc.line, tc.msg)
		})
	}
}

func TestLabelTables(t *testing.T) {
	edges := tempFile(t, "e.txt", "0 1\n1 2\n2 3\n")
	t.Run("positional", func(t *testing.T) {
		ds, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.txt", "1\n-1\n0\n1\n"), Graph: UserGraphOptions()})
		require.NoError(t, err)
		assert.Equal(t, []int{1, -1, 0, 1}, ds.Labels)
		assert.Equal(t, []string{"0", "1"}, ds.ClassNames)
	})
	t.Run("positional-blank-line", func(t *testing.T) {
		_, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.txt", "1\n\n0\n1\n"), Graph: UserGraphOptions()})
		requireParseError(t, err, 2, "blank line")
	})
	t.Run("pandas-floats-and-nan", func(t *testing.T) {
		ds, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.csv", "node,label\n0,3.0\n1,\n2,10.0\n3,NaN\n"), Graph: UserGraphOptions()})
		require.NoError(t, err)
		assert.Equal(t, []string{"3", "10"}, ds.ClassNames, "numeric order, not text order")
		assert.Equal(t, []int{0, -1, 1, -1}, ds.Labels)
	})
	t.Run("sparse-label-values", func(t *testing.T) {
		ds, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.csv", "0,2147483647\n1,5\n"), Graph: UserGraphOptions()})
		require.NoError(t, err)
		assert.Equal(t, 2, ds.Classes, "classes are the distinct labels, not max + 1")
	})
	t.Run("duplicate", func(t *testing.T) {
		_, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.csv", "id,label\n0,a\n0,b\n"), Graph: UserGraphOptions()})
		requireParseError(t, err, 3, "already listed on line 2")
	})
	t.Run("fixed-nodes", func(t *testing.T) {
		_, err := LoadNodes(NodeFiles{Edges: edges, Labels: tempFile(t, "l.csv", "id,label\n0,a\n9,b\n"), Nodes: 4, Graph: UserGraphOptions()})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "--nodes 4")
	})
	t.Run("targets", func(t *testing.T) {
		ds, err := LoadNodes(NodeFiles{Edges: edges, Targets: tempFile(t, "y.csv", "id,target\n0,1.5\n2,\n3,-2\n"), Graph: UserGraphOptions()})
		require.NoError(t, err)
		assert.Equal(t, 1.5, ds.Targets[0])
		assert.True(t, math.IsNaN(ds.Targets[1]))
		assert.True(t, math.IsNaN(ds.Targets[2]))
		assert.Equal(t, -2.0, ds.Targets[3])
	})
}

func TestFeatureTables(t *testing.T) {
	edges := tempFile(t, "e.csv", "source,target\nb,a\n")
	t.Run("with-ids", func(t *testing.T) {
		ds, err := LoadNodes(NodeFiles{Edges: edges, Features: tempFile(t, "x.csv", "id,f1,f2\na,1,2\nb,3,4\n"), Graph: UserGraphOptions()})
		require.NoError(t, err)
		require.NotNil(t, ds.DenseFeatures)
		i, _ := ds.IDs.Lookup("a")
		assert.Equal(t, []float64{1, 2}, ds.DenseFeatures.RawRowView(i))
		i, _ = ds.IDs.Lookup("b")
		assert.Equal(t, []float64{3, 4}, ds.DenseFeatures.RawRowView(i))
	})
	t.Run("positional-needs-integer-ids", func(t *testing.T) {
		_, err := LoadNodes(NodeFiles{Edges: edges, Features: tempFile(t, "x.csv", "1,2\n3,4\n"), Graph: UserGraphOptions()})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no node ids")
	})
	t.Run("missing-row", func(t *testing.T) {
		_, err := LoadNodes(NodeFiles{Edges: edges, Features: tempFile(t, "x.csv", "id,f1\na,1\n"), Graph: UserGraphOptions()})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `no row for node "b"`)
	})
}

// TestLoadNodesCoraAsCSV writes the shipped Cora as the CSV a database
// export would give (string ids, class names, header) and checks that the
// graph, labels and features agree with the folder.
func TestLoadNodesCoraAsCSV(t *testing.T) {
	ref, err := LoadNodeDataset(filepath.Join("..", "testdata", "cora"))
	require.NoError(t, err)
	dir := t.TempDir()
	var e, l strings.Builder
	e.WriteString("source,target\n")
	// Reverse order, so that first appearance is not the folder's order.
	var pairs [][2]int
	ref.Graph.ForEachEdge(func(u, v int, _ float64) { pairs = append(pairs, [2]int{v, u}) })
	for k := len(pairs) - 1; k >= 0; k-- {
		fmt.Fprintf(&e, "paper_%d,paper_%d\n", pairs[k][0], pairs[k][1])
	}
	l.WriteString("id,label\n")
	for i, c := range ref.Labels {
		name := fmt.Sprintf("topic %c", 'A'+c)
		if i%3 == 0 {
			name = "" // unlabelled
		}
		fmt.Fprintf(&l, "paper_%d,%s\n", i, name)
	}
	ds, err := LoadNodes(NodeFiles{
		Edges:  writeFile(t, dir, "edges.csv", []byte(e.String())),
		Labels: writeFile(t, dir, "labels.csv", []byte(l.String())),
		Graph:  UserGraphOptions(),
	})
	require.NoError(t, err)
	require.Equal(t, ref.Graph.Nodes(), ds.Graph.Nodes())
	require.Equal(t, ref.Graph.NNZ(), ds.Graph.NNZ())
	for i := 0; i < ds.Graph.Nodes(); i++ {
		var r int
		_, err := fmt.Sscanf(ds.IDs.ID(i), "paper_%d", &r)
		require.NoError(t, err)
		cols, _ := ds.Graph.Row(i)
		refCols, _ := ref.Graph.Row(r)
		require.Equal(t, len(refCols), len(cols))
		for _, c := range cols {
			var rc int
			fmt.Sscanf(ds.IDs.ID(int(c)), "paper_%d", &rc)
			require.True(t, ref.Graph.HasEdge(r, rc))
		}
		if r%3 == 0 {
			require.Equal(t, -1, ds.Labels[i])
		} else {
			require.Equal(t, fmt.Sprintf("topic %c", 'A'+ref.Labels[r]), ds.ClassNames[ds.Labels[i]])
		}
	}
	assert.Equal(t, 7, ds.Classes)
}

func TestLoadNodesMatrixMarketFixesNodes(t *testing.T) {
	mm := tempFile(t, "g.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n")
	ds, err := LoadNodes(NodeFiles{Edges: mm, Labels: tempFile(t, "l.csv", "id,label\n0,x\n2,y\n"), Graph: graph.Options{}})
	require.NoError(t, err)
	assert.Equal(t, []int{0, -1, 1}, ds.Labels)
	_, err = LoadNodes(NodeFiles{Edges: mm, Labels: tempFile(t, "l.csv", "id,label\n0,x\n7,y\n")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "graph's 3 nodes")
}

func TestLoadNodesNumPyFeaturesWithIDList(t *testing.T) {
	dir := filepath.Join("..", "testdata", "networkx")
	ds, err := LoadNodes(NodeFiles{
		Edges:      filepath.Join(dir, "edges.csv"),
		Features:   filepath.Join(dir, "features.npy"),
		FeatureIDs: filepath.Join(dir, "nodes.txt"),
		Graph:      UserGraphOptions(),
	})
	require.NoError(t, err)
	ref, err := ReadNPY(filepath.Join(dir, "features.npy"))
	require.NoError(t, err)
	lines, err := readFile(filepath.Join(dir, "nodes.txt"), func(lr *lineReader) ([]string, error) {
		var out []string
		return out, lr.eachLine("#", blankSkip, func(s string) error { out = append(out, s); return nil })
	})
	require.NoError(t, err)
	require.NotNil(t, ds.DenseFeatures)
	for r, id := range lines {
		i, ok := ds.IDs.Lookup(id)
		require.True(t, ok, id)
		assert.Equal(t, ref.RawRowView(r), ds.DenseFeatures.RawRowView(i), id)
	}
	// Without the list the rows have no ids, which text ids cannot match.
	_, err = LoadNodes(NodeFiles{Edges: filepath.Join(dir, "edges.csv"), Features: filepath.Join(dir, "features.npy"), Graph: UserGraphOptions()})
	require.ErrorContains(t, err, "no node ids")
}

func TestLoadNodesNumPyLabelsAndScipyGraph(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats")
	g, err := ReadScipyGraph(filepath.Join(dir, "graph_sym_csr.npz"), graph.Options{})
	require.NoError(t, err)
	n := g.Nodes()
	var l strings.Builder
	l.WriteString("id,label\n")
	for i := 0; i < n; i += 2 {
		fmt.Fprintf(&l, "%d,c%d\n", i, i%3)
	}
	ds, err := LoadNodes(NodeFiles{Edges: filepath.Join(dir, "graph_sym_csr.npz"), Labels: tempFile(t, "l.csv", l.String())})
	require.NoError(t, err)
	require.Equal(t, n, ds.Graph.Nodes())
	assert.True(t, ds.IDs.IsIdentity())
	for i := 0; i < n; i++ {
		if i%2 == 1 {
			assert.Equal(t, -1, ds.Labels[i])
		} else {
			assert.Equal(t, fmt.Sprintf("c%d", i%3), ds.ClassNames[ds.Labels[i]])
		}
	}
}

func TestLoadNodesGraphFileKeepsIDs(t *testing.T) {
	dir := t.TempDir()
	src, err := LoadNodes(NodeFiles{Edges: writeFile(t, dir, "e.csv", []byte("source,target,weight\nzed,amy,2\namy,bob,0.5\n")), Graph: UserGraphOptions()})
	require.NoError(t, err)
	gsg := filepath.Join(dir, "g.gsg")
	require.NoError(t, graphfile.Write(gsg, src.Graph, src.IDs))
	ds, err := LoadNodes(NodeFiles{Edges: gsg, Labels: writeFile(t, dir, "l.csv", []byte("id,label\nbob,x\nzed,y\n"))})
	require.NoError(t, err)
	defer ds.Close()
	assert.Equal(t, src.IDs.Strings(), ds.IDs.Strings())
	assert.Equal(t, edgeSet(t, src), edgeSet(t, ds))
	i, _ := ds.IDs.Lookup("bob")
	assert.Equal(t, "x", ds.ClassNames[ds.Labels[i]])
	_, err = LoadNodes(NodeFiles{Edges: gsg, Labels: writeFile(t, dir, "l2.csv", []byte("id,label\ncarl,x\n"))})
	require.ErrorContains(t, err, `"carl" is not one of the graph's 3 nodes`)
}

// TestLoadNodesFastPathEqualsTable checks that an integer edge list read by
// the parallel reader (no column options) and by the table reader (columns
// named) give the same data set, also when a labels file adds isolated
// nodes between and after the edge list's ids, and text ids.
func TestLoadNodesFastPathEqualsTable(t *testing.T) {
	dir := t.TempDir()
	edges := writeFile(t, dir, "e.txt", []byte("10 30 0.5\n30 20 2\n50 10 1\n"))
	for _, labels := range []string{"id,label\n40,a\n10,b\n99,a\n", "id,label\nx,a\n10,b\n"} {
		l := writeFile(t, dir, "l.csv", []byte(labels))
		fast, err := LoadNodes(NodeFiles{Edges: edges, Labels: l, Graph: UserGraphOptions()})
		require.NoError(t, err)
		slow, err := LoadNodes(NodeFiles{Edges: edges, Labels: l, Source: "1", Target: "2", Graph: UserGraphOptions()})
		require.NoError(t, err)
		require.Equal(t, slow.IDs.Strings(), fast.IDs.Strings())
		require.Equal(t, slow.Graph.Dense(), fast.Graph.Dense())
		require.Equal(t, slow.Graph.Degrees(), fast.Graph.Degrees())
		require.Equal(t, slow.Labels, fast.Labels)
	}
}
