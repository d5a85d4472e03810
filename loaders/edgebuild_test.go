package loaders

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/nodeids"
)

// oldTableBuild is how LoadNodes built an edge table's graph before
// tableEdges, kept as the reference: the rows held in an EdgeTable (read by
// ReadEdgeTable), copied into a []graph.Edge with their lines, and
// graph.FromEdges, with edgeList.build naming the lines and the user's ids
// of rejected self loops and repeats.
func oldTableBuild(et *EdgeTable, ids *nodeids.Map, path string, n int, opt graph.Options) (*graph.CSR, error) {
	el := &edgeList{edges: make([]graph.Edge, et.Len()), lines: make([]int, et.Len()), maxID: n - 1, ids: ids}
	for k := range et.Src {
		w := 1.0
		if et.W != nil {
			w = et.W[k]
		}
		el.edges[k] = graph.Edge{U: int(et.Src[k]), V: int(et.Dst[k]), W: w}
		el.lines[k] = int(et.Lines[k])
	}
	return el.build(path, n, opt)
}

// oldTableGraph reads path the old way; extra are ids another file (labels,
// say) adds after the edge table. It also returns the rows, numbered.
func oldTableGraph(path string, opt EdgeTableOptions, gopt graph.Options, extra []string) (*graph.CSR, *nodeids.Map, *EdgeTable, error) {
	var b nodeids.Builder
	et, err := ReadEdgeTable(path, opt, &b)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, id := range extra {
		if _, err := b.Add(id); err != nil {
			return nil, nil, nil, err
		}
	}
	ids, perm := b.Finish()
	et.Remap(perm)
	g, err := oldTableBuild(et, ids, path, ids.Len(), gopt)
	return g, ids, et, err
}

// newTableGraph reads path as LoadNodes does now.
func newTableGraph(path string, opt EdgeTableOptions, gopt graph.Options, extra []string) (*graph.CSR, *nodeids.Map, error) {
	var b nodeids.Builder
	te, err := readTableEdges(path, opt, gopt.SelfLoops, &b, 0)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range extra {
		if _, err := b.Add(id); err != nil {
			return nil, nil, err
		}
	}
	ids, perm := b.Finish()
	g, err := te.build(ids, perm, ids.Len(), gopt)
	return g, ids, err
}

// denseFromRows is the brute-force reference: W from the numbered rows by
// the definitions of graph.Options, entry by entry (present says which
// entries are stored, zero weights included), or the name of the policy
// that rejects the rows.
func denseFromRows(et *EdgeTable, n int, opt graph.Options) (w [][]float64, present [][]bool, reject string) {
	type arc struct{ u, v int32 }
	groups := map[arc][]float64{}
	for k := range et.Src {
		u, v := et.Src[k], et.Dst[k]
		x := 1.0
		if et.W != nil {
			x = et.W[k]
		}
		if u == v {
			switch opt.SelfLoops {
			case graph.SelfLoopError:
				return nil, nil, "self loop"
			case graph.SelfLoopDrop:
				continue
			}
		}
		if opt.Symmetrize == graph.Undirected && u > v {
			u, v = v, u
		}
		groups[arc{u, v}] = append(groups[arc{u, v}], x)
	}
	merged := map[arc]float64{}
	for a, xs := range groups {
		if len(xs) > 1 && opt.Duplicates == graph.DuplicateError {
			return nil, nil, "duplicate"
		}
		m := xs[0]
		for _, x := range xs[1:] {
			if opt.Duplicates == graph.DuplicateSum {
				m += x // exact: the tests' weights are dyadic
			} else {
				m = math.Max(m, x)
			}
		}
		merged[a] = m
	}
	w, present = make([][]float64, n), make([][]bool, n)
	for i := range w {
		w[i], present[i] = make([]float64, n), make([]bool, n)
	}
	set := func(i, j int32, x float64) {
		w[i][j], w[j][i], present[i][j], present[j][i] = x, x, true, true
	}
	for a, x := range merged {
		if opt.Symmetrize == graph.Undirected || a.u == a.v {
			set(a.u, a.v, x)
			continue
		}
		t, back := merged[arc{a.v, a.u}]
		switch {
		case back && a.u > a.v:
			// the pair is written from its smaller end
		case back:
			switch opt.Symmetrize {
			case graph.DirectedMax:
				set(a.u, a.v, math.Max(x, t))
			case graph.DirectedSum:
				set(a.u, a.v, x+t)
			case graph.DirectedMean:
				set(a.u, a.v, (x+t)/2)
			case graph.DirectedMutual:
				set(a.u, a.v, math.Min(x, t))
			}
		case opt.Symmetrize == graph.DirectedMutual:
		case opt.Symmetrize == graph.DirectedMean:
			set(a.u, a.v, x/2)
		default:
			set(a.u, a.v, x)
		}
	}
	return w, present, ""
}

// requireSameTableGraph reads path both ways under opt and checks that the
// graphs are bitwise equal, the ids equal and the errors' texts equal, and
// that the graph is the brute-force one.
func requireSameTableGraph(t *testing.T, path string, topt EdgeTableOptions, opt graph.Options, extra []string, dense bool) {
	t.Helper()
	want, wantIDs, et, wantErr := oldTableGraph(path, topt, opt, extra)
	got, gotIDs, gotErr := newTableGraph(path, topt, opt, extra)
	if wantErr != nil {
		require.Error(t, gotErr, "%s %+v: the old path says %v", path, opt, wantErr)
		require.Equal(t, wantErr.Error(), gotErr.Error(), "%s %+v", path, opt)
		return
	}
	require.NoError(t, gotErr, "%s %+v", path, opt)
	require.Equal(t, wantIDs.Strings(), gotIDs.Strings())
	require.Equal(t, want.Arrays(), got.Arrays(), "%s %+v", path, opt)
	require.Equal(t, want.UnitWeights(), got.UnitWeights())
	require.Equal(t, want.SelfLoops(), got.SelfLoops())
	if !dense {
		return
	}
	w, present, reject := denseFromRows(et, got.Nodes(), opt)
	require.Empty(t, reject, "%s %+v: the graph was built, but the rows break the %s policy", path, opt, reject)
	for i := 0; i < got.Nodes(); i++ {
		cols, ws := got.Row(i)
		var wantCols []int32
		for j, ok := range present[i] {
			if ok {
				wantCols = append(wantCols, int32(j))
			}
		}
		require.Equal(t, len(wantCols), len(cols), "%s %+v: row %d", path, opt, i)
		if len(cols) > 0 {
			require.Equal(t, wantCols, slices.Clone(cols), "%s %+v: row %d", path, opt, i)
		}
		for k, j := range cols {
			require.Equal(t, w[i][j], ws[k], "%s %+v: W[%d][%d]", path, opt, i, j)
		}
	}
}

// allOptions are the 45 valid graph.Options.
func allOptions() []graph.Options {
	var out []graph.Options
	for b := uint8(0); b < 45; b++ {
		out = append(out, fuzzOptions(b))
	}
	return out
}

// TestTableEdgesFixtures: the fixtures of the networkx, cora and format
// tests, under every policy, read directly equal the old path.
func TestTableEdgesFixtures(t *testing.T) {
	var paths []string
	for _, name := range []string{"edges.csv", "edges.csv.gz", "edges.tsv", "edges_bom.csv", "edges_crlf.csv", "int_data.edgelist",
		"int_nodata.edgelist", "int_weight.edgelist", "names_data.edgelist", "names_weighted.edgelist", "weighted.edgelist"} {
		paths = append(paths, filepath.Join(networkxDir, name))
	}
	paths = append(paths, filepath.Join("..", "testdata", "cora", "edges.txt"))
	for k, s := range []string{
		"0 1 {}\n1 2 {}\n", "0 1 {'weight': 0.5}\n1 2 {'weight': 2, 'color': 'red'}\n", "a b 0.5\nb c 1.5\n",
		"src\tdst\tweight\nx\ty\t3\n", ",source,target,weight\n0,p,q,0.25\n1,q,r,4\n", "source,target,time,weight\np,q,2020,0.5\n",
		"from;to\n1;2\n2;3\n", "source,target\n\"a,1\",b\n", "user,friend\n1,2\n", "% comment\n1 2\n", "1 2\n2 3 0.5\n",
		"1 2\n2 3 4 5\n", "u,v\n1,2\n2,3,4\n", "1 2 x\n", "1 2 -1\n", "1 2 3 4\n", "a,,1\n", "# nothing\n", "\"a,b\n",
		"0 1 {'weight': x}\n", "a b\nb a\n", "a b\na a\nb b\n", "b a 2\na b 0.5\nc c 0\nc d 0\n",
	} {
		paths = append(paths, tempFile(t, fmt.Sprintf("f%d.txt", k), s))
	}
	for _, path := range paths {
		for _, opt := range allOptions() {
			requireSameTableGraph(t, path, EdgeTableOptions{}, opt, nil, !strings.Contains(path, "cora"))
		}
		requireSameTableGraph(t, path, EdgeTableOptions{}, UserGraphOptions(), []string{"99", "zz"}, false)
	}
}

// randomTextEdgeFile writes m rows over n ids, text ids mixed with integer
// ones (so that "7" and "007" are two nodes), with repeats in both
// directions, self loops, dyadic weights (or none, or networkx
// dictionaries, or on some rows only), comments, blank lines and a header,
// in one of the delimiters.
func randomTextEdgeFile(rng *rand.Rand, n, m int) string {
	ids := make([]string, n)
	for i := range ids {
		switch rng.IntN(4) {
		case 0:
			ids[i] = fmt.Sprint(rng.IntN(3 * n))
		case 1:
			ids[i] = fmt.Sprintf("%03d", rng.IntN(n))
		default:
			ids[i] = fmt.Sprintf("user_%d", rng.IntN(2*n))
		}
	}
	delim := []string{" ", ",", "\t", ";"}[rng.IntN(4)]
	weights := rng.IntN(4) // 0 none, 1 every row, 2 some rows, 3 dictionaries
	if delim == ";" && weights >= 2 {
		weights = 1 // mixed widths and dictionaries are for headerless networkx files
	}
	var b strings.Builder
	header := weights < 2 && rng.IntN(2) == 0
	if header {
		b.WriteString("source" + delim + "target")
		if weights == 1 {
			b.WriteString(delim + "weight")
		}
		b.WriteString("\n")
	}
	var prev [][2]string
	for k := 0; k < m; k++ {
		u, v := ids[rng.IntN(n)], ids[rng.IntN(n)]
		switch r := rng.IntN(10); {
		case r == 0 && len(prev) > 0:
			p := prev[rng.IntN(len(prev))]
			u, v = p[0], p[1]
		case r == 1 && len(prev) > 0:
			p := prev[rng.IntN(len(prev))]
			u, v = p[1], p[0]
		case r == 2:
			v = u
		}
		prev = append(prev, [2]string{u, v})
		b.WriteString(u + delim + v)
		w := float64(rng.IntN(9)) / 4
		switch {
		case weights == 1, weights == 2 && rng.IntN(2) == 0:
			fmt.Fprintf(&b, "%s%g", delim, w)
		case weights == 3:
			fmt.Fprintf(&b, "%s{'weight': %g}", delim, w)
		}
		b.WriteString("\n")
		if rng.IntN(20) == 0 {
			b.WriteString([]string{"# comment\n", "\n", "% c\n"}[rng.IntN(3)])
		}
	}
	return b.String()
}

// TestTableEdgesRandomFiles compares the direct path with the old one and
// with the dense reference on random text-id files, under every policy.
func TestTableEdgesRandomFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.IntN(30)
		m := 1 + rng.IntN(80)
		path := tempFile(t, "e.txt", randomTextEdgeFile(rng, n, m))
		if trial%4 == 0 {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			path = writeFile(t, t.TempDir(), "e.txt.gz", gzipped(t, data))
		}
		var extra []string
		if trial%3 == 0 {
			extra = []string{"user_new", "5"}
		}
		for _, opt := range allOptions() {
			requireSameTableGraph(t, path, EdgeTableOptions{}, opt, extra, true)
		}
	}
}

// TestTableEdgesLoadNodesErrors: LoadNodes (table path) gives the old
// path's error texts and lines for rejected self loops and repeats, also
// when a later line repeats an earlier pair first (the reported pair is the
// one whose second occurrence comes first, not the smallest).
func TestTableEdgesLoadNodesErrors(t *testing.T) {
	for _, tc := range []struct {
		content string
		opt     graph.Options
		line    int
		want    string
	}{
		{"p q\nq r\nr r\nr r\n", graph.Options{SelfLoops: graph.SelfLoopError}, 3, `self loop on node "r" (self-loop policy: error)`},
		{"c d\na b\nc e\nb a\nd c\n", graph.Options{}, 4, `edge ("b", "a") repeats line 2`},
		{"c d\na b\nc e\nb a\nd c\n", graph.Options{Symmetrize: graph.DirectedMax}, 0, ""},
		{"c d\na b\nc e\nb a\nd c\nc e\n", graph.Options{Symmetrize: graph.DirectedMean}, 6, `edge ("c", "e") repeats line 3`},
		{"a a\nb c\na a\nc b\n", graph.Options{SelfLoops: graph.SelfLoopDrop}, 4, `edge ("c", "b") repeats line 2`},
	} {
		path := tempFile(t, "e.txt", tc.content)
		_, _, _, wantErr := oldTableGraph(path, EdgeTableOptions{}, tc.opt, nil)
		_, err := LoadNodes(NodeFiles{Edges: path, Graph: tc.opt})
		if tc.want == "" {
			require.NoError(t, wantErr)
			require.NoError(t, err)
			continue
		}
		requireParseError(t, err, tc.line, tc.want)
		require.Equal(t, wantErr.Error(), err.Error())
	}
}

// TestTableEdgesFixedNodes: with Nodes set, the first line naming another
// node is reported (after the whole file is checked), and ids within are
// isolated nodes when no line names them.
func TestTableEdgesFixedNodes(t *testing.T) {
	path := tempFile(t, "e.txt", "0 1\n1 2\n3 7\n2 9\n")
	_, err := LoadNodes(NodeFiles{Edges: path, Nodes: 4, Graph: UserGraphOptions()})
	requireParseError(t, err, 3, "node id out of range [0, 4) set by --nodes")
	_, err = LoadNodes(NodeFiles{Edges: tempFile(t, "e.txt", "0 1\n1 9\n2 x y z\n"), Nodes: 4, Graph: UserGraphOptions()})
	requireParseError(t, err, 3, "want 2 fields like line 1, got 4")
	ds, err := LoadNodes(NodeFiles{Edges: tempFile(t, "e.txt", "2 1\n1 0\n"), Nodes: 5, Graph: UserGraphOptions()})
	require.NoError(t, err)
	require.True(t, ds.IDs.IsIdentity())
	require.Equal(t, 5, ds.Graph.Nodes())
	require.Equal(t, []int{3, 4}, ds.Graph.Isolated())
	require.True(t, ds.Graph.HasEdge(1, 2))
}

// TestTableEdgesChangedFile: a file rewritten between the two passes is an
// error, not a wrong graph.
func TestTableEdgesChangedFile(t *testing.T) {
	path := tempFile(t, "e.txt", "a b\nb c\n")
	var b nodeids.Builder
	te, err := readTableEdges(path, EdgeTableOptions{}, graph.SelfLoopKeep, &b, 0)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("a b\nb c\nc d\n"), 0o644))
	ids, perm := b.Finish()
	_, err = te.build(ids, perm, ids.Len(), graph.Options{})
	requireParseError(t, err, 0, "the file changed while it was read")
}

// TestTableEdgesPipe: a file that cannot be read twice (a named pipe) keeps
// its rows and gives the same graph and errors.
func TestTableEdgesPipe(t *testing.T) {
	t.Cleanup(inputfile.Release)
	const content = "source,target,weight\nb,a,2\na,b,0.5\nc,c,1\nc,d,1\n"
	file := tempFile(t, "e.csv", content)
	for _, opt := range allOptions() {
		pipe := filepath.Join(t.TempDir(), "pipe.csv")
		if err := syscall.Mkfifo(pipe, 0o600); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		go func() {
			f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
			if err == nil {
				f.WriteString(content)
				f.Close()
			}
		}()
		var b nodeids.Builder
		te, err := readTableEdges(pipe, EdgeTableOptions{}, opt.SelfLoops, &b, 0)
		require.NoError(t, err)
		// The pipe was read once into a private copy (package
		// internal/inputfile), which is read again like a regular file.
		require.Nil(t, te.rows)
		ids, perm := b.Finish()
		got, gotErr := te.build(ids, perm, ids.Len(), opt)
		want, _, _, wantErr := oldTableGraph(file, EdgeTableOptions{}, opt, nil)
		if wantErr != nil {
			require.Error(t, gotErr)
			require.Equal(t, strings.ReplaceAll(wantErr.Error(), file, pipe), gotErr.Error())
			continue
		}
		require.NoError(t, gotErr)
		require.Equal(t, want.Arrays(), got.Arrays())
	}
}

// TestRowReaderStops: an error early in a long table ends the reading
// goroutine (it does not read on to the end of the file), and so does the
// end of the table.
func TestRowReaderStops(t *testing.T) {
	var b strings.Builder
	b.WriteString("a b\na b x\n")
	for k := 0; k < 50*rowBatchRows; k++ {
		fmt.Fprintf(&b, "n%d n%d\n", k, k+1)
	}
	path := tempFile(t, "e.txt", b.String())
	before := runtime.NumGoroutine()
	_, err := ReadEdgeTable(path, EdgeTableOptions{}, &nodeids.Builder{})
	requireParseError(t, err, 2, `weight "x" is not a number`)
	lr, err := openLines(path)
	require.NoError(t, err)
	tb := newTable(lr, TableOptions{}, "#%")
	rr := readRows(tb)
	_, _, ok, err := rr.next()
	require.True(t, ok)
	require.NoError(t, err)
	rr.stop()
	require.Less(t, lr.line, 5*rowBatchRows, "lines read ahead of the caller")
	lr.close()
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	require.Equal(t, before, runtime.NumGoroutine())
}

// FuzzTableEdges compares the direct path with the old one on arbitrary
// input and policy: the same graph bit for bit, or the same error text.
func FuzzTableEdges(f *testing.F) {
	for k, s := range []string{
		"source,target\nuser_a,user_b\n", "0 1 {'weight': 0.5}\n1 0 {}\n", "\ufeff0\t1\t2\r\n", ",source,target\n0,a,b\n",
		"a b\nb a\n", "a a\na b 2\nb a 0.5\n", "x,y,w\np,q,1\nq,p,1e-400\n", "1 2\n2 3 0.5\n3 1\n",
	} {
		f.Add([]byte(s), uint8(k*7))
	}
	f.Fuzz(func(t *testing.T, data []byte, policy uint8) {
		path := writeFile(t, t.TempDir(), "e.txt", data)
		want, wantIDs, _, wantErr := oldTableGraph(path, EdgeTableOptions{}, fuzzOptions(policy), nil)
		got, gotIDs, gotErr := newTableGraph(path, EdgeTableOptions{}, fuzzOptions(policy), nil)
		if wantErr != nil {
			require.Error(t, gotErr)
			require.Equal(t, wantErr.Error(), gotErr.Error())
			return
		}
		require.NoError(t, gotErr)
		require.Equal(t, wantIDs.Strings(), gotIDs.Strings())
		require.Equal(t, want.Arrays(), got.Arrays())
	})
}
