package loaders

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/modelfile"
)

// userFormatsDir holds the files written by testdata/userformats/make.py
// with networkx, numpy and pandas; expected.json holds the graphs as
// networkx reads them back.
var userFormatsDir = filepath.Join("..", "testdata", "userformats")

type expectedUserFormats map[string]struct {
	Edges [][3]any
	Nodes []string
	Club  map[string]string
}

func readExpectedUserFormats(t *testing.T) expectedUserFormats {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(userFormatsDir, "expected.json"))
	require.NoError(t, err)
	var e expectedUserFormats
	require.NoError(t, json.Unmarshal(raw, &e))
	return e
}

func userFile(name string) string { return filepath.Join(userFormatsDir, name) }

// TestGraphFormatsMatchNetworkx reads every graph file networkx and numpy
// wrote and compares its edges and weights with networkx's reading of the
// same file.
func TestGraphFormatsMatchNetworkx(t *testing.T) {
	want := readExpectedUserFormats(t)
	for _, tc := range []struct {
		file, expect, format, weight string
		nodes                        int
	}{
		{"karate.graphml", "karate", "graphml", "", 35},
		{"karate.graphml.gz", "karate", "graphml", "", 35},
		{"karate.gml", "karate", "gml", "", 35},
		{"karate.adjlist", "karate_adjlist", "adjlist", "", 35},
		{"karate.multiline.adjlist", "karate", "multiline-adjlist", "", 35},
		{"edge_index_2xE.npy", "edge_index", "edge-index", "", 10},
		{"edge_index_Ex2.npy", "edge_index", "edge-index", "", 10},
		{"edge_index_fortran.npy", "edge_index", "edge-index", "", 10},
		{"edge_index.npz", "edge_index_weighted", "edge-index", "", 10},
		{"count.csv", "count", "edge-table", "count", 34},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ds, err := LoadNodes(NodeFiles{Edges: userFile(tc.file), Weight: tc.weight, Graph: UserGraphOptions()})
			require.NoError(t, err)
			assert.Equal(t, wantEdgeSet(want[tc.expect].Edges), nxEdgeSet(ds))
			assert.Equal(t, tc.nodes, ds.Graph.Nodes())
			require.NotEmpty(t, ds.Reports)
			assert.Equal(t, tc.format, ds.Reports[0].Format)
			if nodes := want[tc.expect].Nodes; nodes != nil {
				var got []string
				for i := 0; i < ds.Graph.Nodes(); i++ {
					got = append(got, ds.IDs.ID(i))
				}
				assert.ElementsMatch(t, nodes, got)
			}
		})
	}
}

func TestGraphMLDirectedAndWeightKey(t *testing.T) {
	ds, err := LoadNodes(NodeFiles{Edges: userFile("directed.graphml"), Graph: UserGraphOptions()})
	require.NoError(t, err)
	// networkx wrote a→b 0.5, b→c 2, c→a without a weight (1).
	assert.Equal(t, map[[2]string]float64{{"a", "b"}: 0.5, {"b", "c"}: 2, {"a", "c"}: 1}, nxEdgeSet(ds))
	assert.Contains(t, ds.Reports[0].Note, "directed")
	_, err = LoadNodes(NodeFiles{Edges: userFile("directed.graphml"), Weight: "capacity", Graph: UserGraphOptions()})
	requireParseError(t, err, 0, `no edge key has attr.name "capacity"`)
	ds, err = LoadNodes(NodeFiles{Edges: userFile("directed.graphml"), Weight: "none", Graph: UserGraphOptions()})
	require.NoError(t, err)
	assert.Equal(t, map[[2]string]float64{{"a", "b"}: 1, {"b", "c"}: 1, {"a", "c"}: 1}, nxEdgeSet(ds))
}

// TestLabelColumnChosen reads pandas' name,age,club table: without
// --label-column the label column would be a guess (an error naming the
// flag); with it, the classes are the clubs networkx holds.
func TestLabelColumnChosen(t *testing.T) {
	want := readExpectedUserFormats(t)["members"].Club
	files := NodeFiles{Edges: userFile("karate.graphml"), Labels: userFile("members.csv"), Graph: UserGraphOptions()}
	_, err := LoadNodes(files)
	requireParseError(t, err, 0, "pass --label-column")
	files.LabelColumn = "club"
	ds, err := LoadNodes(files)
	require.NoError(t, err)
	got := map[string]string{}
	for i, l := range ds.Labels {
		if l >= 0 {
			got[ds.IDs.ID(i)] = ds.ClassNames[l]
		}
	}
	assert.Equal(t, want, got)
	rep := ds.Reports[1]
	assert.Equal(t, "labels", rep.Role)
	assert.Equal(t, `"name" (column 1)`, rep.ID)
	assert.Equal(t, `"club" (column 3)`, rep.Label)
	assert.Equal(t, []string{`"age" (column 2)`}, rep.Ignored)
	// By position, and the id column by name too.
	files.LabelColumn, files.IDColumn = "3", "name"
	ds2, err := LoadNodes(files)
	require.NoError(t, err)
	assert.Equal(t, ds.Labels, ds2.Labels)
}

func TestLabelArrayLengthMustMatchNodes(t *testing.T) {
	files := NodeFiles{Edges: userFile("edge_index_2xE.npy"), Labels: userFile("labels_short.npy"), Graph: UserGraphOptions()}
	_, err := LoadNodes(files)
	requireParseError(t, err, 0, "9 entries for the 10 nodes of the graph")
	files.Labels = userFile("labels_full.npy")
	ds, err := LoadNodes(files)
	require.NoError(t, err)
	for i, l := range ds.Labels {
		assert.Equal(t, i%3, l)
	}
}

// TestTableRulesRefuse lists the tables that used to be misread without a
// word and must now be errors naming the line and the flag that decides.
func TestTableRulesRefuse(t *testing.T) {
	for _, tc := range []struct {
		name, edges, labels string
		files               NodeFiles
		line                int
		want                string
	}{
		{name: "unknown-header-over-text", edges: "character1,character2\nValjean,Myriel\nMyriel,Napoleon\n", line: 1, want: "--header yes"},
		{name: "count-column", edges: "source,target,count\na,b,3\nb,c,1\n", want: "--weight count"},
		{name: "extra-column-beside-weight", edges: "source,target,weight,time\na,b,3,1\n", want: "--weight weight to keep"},
		{name: "four-fields-no-header", edges: "a b 1 2\nb c 1 2\n", want: "--source, --target and --weight"},
		{name: "repeated-header", edges: "source,target\na,b\nb,c\nsource,target\nc,d\n", line: 4, want: "repeats the header of line 1"},
		{name: "header-in-headerless", edges: "0 1\n1 2\nsource target\n2 3\n", line: 3, want: "names columns in the middle"},
		{name: "bom-mid-file", edges: "source,target\na,b\n\ufeffb,c\n", line: 3, want: "byte-order mark"},
		{name: "mm-without-banner", edges: "% written by hand\n3 3 2\n1 2 1\n2 3 1\n", line: 2, want: "Matrix Market file without its banner"},
		{name: "labels-guess", edges: "0 1\n1 2\n", labels: "name,age,club\n0,31,A\n1,22,B\n", want: "--label-column"},
		{name: "labels-id-guess", edges: "0 1\n1 2\n", labels: "who,age,club\n0,31,A\n1,22,B\n", want: "--id-column"},
		{name: "labels-unknown-header", edges: "a b\nb c\n", labels: "character,group\na,x\nb,y\n", line: 1, want: "--header yes"},
		{name: "label-column-missing", edges: "0 1\n", labels: "id,label\n0,a\n", files: NodeFiles{LabelColumn: "club"}, want: `--label-column column "club" is not in the header`},
		{name: "source-column-missing", edges: "u,v\n0,1\n", files: NodeFiles{Source: "from"}, want: `--source column "from" is not in the header`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f := tc.files
			f.Edges = writeFile(t, dir, "e.csv", []byte(tc.edges))
			if tc.labels != "" {
				f.Labels = writeFile(t, dir, "l.csv", []byte(tc.labels))
			}
			f.Graph = UserGraphOptions()
			_, err := LoadNodes(f)
			requireParseError(t, err, tc.line, tc.want)
		})
	}
}

// TestTableRulesAccept: the same files, with the flag the error named, or
// in the form the rules accept.
func TestTableRulesAccept(t *testing.T) {
	for _, tc := range []struct {
		name, edges string
		files       NodeFiles
		want        map[string]float64
		header      string
	}{
		{name: "unknown-header-forced", edges: "character1,character2\nValjean,Myriel\nMyriel,Napoleon\n", files: NodeFiles{Table: TableOptions{Header: HeaderYes}},
			want: map[string]float64{"Myriel Valjean": 1, "Myriel Napoleon": 1}, header: "forced by --header yes"},
		{name: "unknown-header-over-numbers", edges: "user,friend\n1,2\n", want: map[string]float64{"1 2": 1}, header: "text above numbers"},
		{name: "first-row-is-data", edges: "Valjean,Myriel\nMyriel,Napoleon\n", want: map[string]float64{"Myriel Valjean": 1, "Myriel Napoleon": 1}, header: "none"},
		{name: "count-as-weight", edges: "source,target,count\na,b,3\n", files: NodeFiles{Weight: "count"}, want: map[string]float64{"a b": 3}},
		{name: "extra-column-named", edges: "source,target,time,weight\np,q,2020,0.5\n", files: NodeFiles{Weight: "weight"}, want: map[string]float64{"p q": 0.5}},
		{name: "extra-column-none", edges: "source,target,time\np,q,2020\n", files: NodeFiles{Weight: "none"}, want: map[string]float64{"p q": 1}},
		{name: "columns-by-position", edges: "a,b,c\nx,1,y\n", files: NodeFiles{Source: "1", Target: "3", Weight: "2", Table: TableOptions{Header: HeaderYes}}, want: map[string]float64{"x y": 1}},
		{name: "cr-only", edges: "source,target,weight\ra,b,2\rb,c,3\r", want: map[string]float64{"a b": 2, "b c": 3}, header: "recognised by its column names"},
		{name: "bom-at-start", edges: "\ufeffsource,target\na,b\n", want: map[string]float64{"a b": 1}},
		{name: "percent-comments-not-mm", edges: "% sym unweighted\n1 2\n2 3\n", want: map[string]float64{"1 2": 1, "2 3": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.files
			f.Edges = tempFile(t, "e.csv", tc.edges)
			f.Graph = UserGraphOptions()
			ds, err := LoadNodes(f)
			require.NoError(t, err)
			assert.Equal(t, tc.want, edgeSet(t, ds))
			require.Len(t, ds.Reports, 1)
			assert.Contains(t, ds.Reports[0].Header, tc.header)
		})
	}
}

func TestGraphFormatRefusals(t *testing.T) {
	dir := t.TempDir()
	model := writeFile(t, dir, "m.gssl", append([]byte(modelfile.Magic), make([]byte, 64)...))
	edges := writeFile(t, dir, "e.txt", []byte("0 1\n1 2\n"))
	mtx := writeFile(t, dir, "g.mtx", []byte("3 3 2\n1 2 1\n2 3 1\n"))
	for _, tc := range []struct {
		name  string
		files NodeFiles
		want  string
	}{
		{"model-as-edges", NodeFiles{Edges: model}, "gssl model file"},
		{"model-as-labels", NodeFiles{Edges: edges, Labels: model}, "gssl model file"},
		{"model-as-features", NodeFiles{Edges: edges, Features: model}, "gssl model file"},
		{"mtx-name-without-banner", NodeFiles{Edges: mtx}, "without the Matrix Market banner"},
		{"edge-index-2x2-ambiguous", NodeFiles{Edges: userFile("edge_index_2x2_ambiguous.npy")}, "two give different edges"},
		{"edge-index-float", NodeFiles{Edges: userFile("edge_index_float.npy")}, "holds integer node ids"},
		{"labels-npy-as-edges", NodeFiles{Edges: userFile("labels_full.npy")}, "shape (2, E) or (E, 2)"},
		{"binary-labels", NodeFiles{Edges: edges, Labels: writeFile(t, dir, "z.csv", make([]byte, 64))}, "NUL byte"},
		{"xml-not-graphml", NodeFiles{Edges: writeFile(t, dir, "x.xml", []byte("<?xml version='1.0'?>\n<svg></svg>\n"))}, "not GraphML"},
		{"gml-edge-before-node", NodeFiles{Edges: writeFile(t, dir, "g.gml", []byte("graph [\n edge [ source 0 target 1 ]\n]\n"))}, "no node above declares"},
		{"gml-unclosed", NodeFiles{Edges: writeFile(t, dir, "u.gml", []byte("graph [\n node [ id 0 ]\n"))}, "a ] is missing"},
		{"graphml-negative-weight", NodeFiles{Edges: writeFile(t, dir, "n.graphml", []byte(`<?xml version="1.0"?><graphml><key id="w" for="edge" attr.name="weight" attr.type="double"/><graph><node id="a"/><node id="b"/><edge source="a" target="b"><data key="w">-1</data></edge></graph></graphml>`))}, "negative"},
		{"multiline-short", NodeFiles{Edges: writeFile(t, dir, "m.adjlist", []byte("#x\n# GMT now\n# g\na 2\nb {}\n"))}, "file ends after 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files.Graph = UserGraphOptions()
			_, err := LoadNodes(tc.files)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestLongLineLinear reads one long line from a gzip stream, which
// inflates 32 KiB per read: the line splitter must search each byte a
// bounded number of times, not once per read (quadratic).
func TestLongLineLinear(t *testing.T) {
	const n = 16 << 20
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write(bytes.Repeat([]byte("a"), n))
	require.NoError(t, err)
	_, err = zw.Write([]byte(" b\n0 1\n"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	lr, err := newLineReader(bytes.NewReader(z.Bytes()), "long.txt.gz")
	require.NoError(t, err)
	count := 0
	for lr.next() {
		count++
	}
	require.NoError(t, lr.err())
	assert.Equal(t, 2, count)
	// Every byte is searched once, plus what a read hands over after the
	// last newline of a block.
	assert.LessOrEqual(t, lr.splitter.scanned, int64(2*n), "searched %d bytes for a %d-byte input", lr.splitter.scanned, n)
}

// TestStreamCap reads a pipe (a file of unknown length) past the cap.
func TestStreamCap(t *testing.T) {
	old := streamCap
	streamCap = 1 << 16
	defer func() { streamCap = old }()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	go func() {
		line := []byte("0 1\n")
		for i := 0; i < 1<<16; i++ {
			if _, err := pw.Write(line); err != nil {
				break
			}
		}
		pw.Close()
	}()
	lr, err := newLineReader(pr, "pipe")
	require.NoError(t, err)
	for lr.next() {
	}
	err = lr.err()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a regular file")
}

// deflatedNPZ writes a .npz whose one member, deflated, is a uint8 array
// of n zeros: a few KB on disk for n bytes of array.
func deflatedNPZ(t *testing.T, n int) string {
	t.Helper()
	header := fmt.Sprintf("{'descr': '|u1', 'fortran_order': False, 'shape': (%d,), }", n)
	for (10+len(header)+1)%64 != 0 {
		header += " "
	}
	header += "\n"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "x.npy", Method: zip.Deflate})
	require.NoError(t, err)
	pre := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(pre[8:], uint16(len(header)))
	_, err = w.Write(append(pre, header...))
	require.NoError(t, err)
	zero := make([]byte, 1<<20)
	for left := n; left > 0; left -= len(zero) {
		_, err = w.Write(zero[:min(left, len(zero))])
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return writeFile(t, t.TempDir(), "x.npz", buf.Bytes())
}

// TestNPZInflationBounded: an honest array of 64 MiB in a small .npz is
// refused by the limit before its elements are allocated, and read within
// it otherwise.
func TestNPZInflationBounded(t *testing.T) {
	path := deflatedNPZ(t, 64<<20)
	var err error
	got := allocated(func() { _, _, err = readNPZFeatures(path, 32<<20) })
	requireParseError(t, err, 0, "more than the memory limit")
	assert.Less(t, got, uint64(4<<20), "allocated %d bytes before refusing", got)
	small := deflatedNPZ(t, 1<<20)
	_, d, err := readNPZFeatures(small, 32<<20)
	if err == nil {
		t.Fatalf("a 1-D array is not a feature matrix, got %v", d)
	}
	ys, err := ReadNPZVector(small, "")
	require.NoError(t, err)
	assert.Len(t, ys, 1<<20)
}

// TestLoadNodesMaxMemory: the limit reaches the feature reader.
func TestLoadNodesMaxMemory(t *testing.T) {
	path := deflatedNPZ(t, 64<<20)
	edges := tempFile(t, "e.txt", "0 1\n")
	_, err := LoadNodes(NodeFiles{Edges: edges, Features: path, MaxMemory: 32 << 20, Graph: UserGraphOptions()})
	requireParseError(t, err, 0, "--max-memory")
}

func TestReportString(t *testing.T) {
	ds, err := LoadNodes(NodeFiles{Edges: tempFile(t, "e.csv", ",source,target,weight\n0,a,b,2\n"), Graph: UserGraphOptions()})
	require.NoError(t, err)
	s := ds.Reports[0].String()
	for _, want := range []string{"edge-table", "comma-separated", `source = "source" (column 2)`, `weight = "weight" (column 4)`, "pandas' index"} {
		assert.Contains(t, s, want)
	}
}

// TestEdgeIndexSelfLoopPolicy: edge_index rows go through the same graph
// options as a table's.
func TestEdgeIndexSelfLoopPolicy(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "loop.npy", npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", int64Bytes(0, 1, 2, 1, 2, 2)))
	_, err := LoadNodes(NodeFiles{Edges: p, Graph: graph.Options{SelfLoops: graph.SelfLoopError}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "self loop")
	ds, err := LoadNodes(NodeFiles{Edges: p, Graph: graph.Options{SelfLoops: graph.SelfLoopDrop}})
	require.NoError(t, err)
	assert.Equal(t, map[[2]string]float64{{"0", "1"}: 1, {"1", "2"}: 1}, nxEdgeSet(ds))
}

func int64Bytes(v ...int64) []byte {
	var b bytes.Buffer
	for _, x := range v {
		_ = binary.Write(&b, binary.LittleEndian, x)
	}
	return b.Bytes()
}

func TestCROnlyDetection(t *testing.T) {
	assert.True(t, crOnly([]byte("a,b\r1,2\r")))
	assert.False(t, crOnly([]byte("a,b\r\n1,2\r\n")))
	// The first line of a CRLF file fills the sniffed bytes up to its CR.
	assert.False(t, crOnly([]byte(strings.Repeat("x", 100)+"\r")))
	assert.False(t, crOnly([]byte("no line end")))
}
