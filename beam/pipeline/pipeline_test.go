package pipeline

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/parquetio"
	"github.com/stretchr/testify/require"
	"github.com/xitongsys/parquet-go-source/local"
	"github.com/xitongsys/parquet-go/reader"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

func TestRounds(t *testing.T) {
	for _, a := range []float64{0.5, 0.9, 0.99} {
		for _, tol := range []float64{1e-3, 1e-6, 1e-9} {
			k := Rounds(a, tol)
			sk := math.Sqrt((1 + a) / (1 - a))
			rho := (sk - 1) / (sk + 1)
			require.LessOrEqual(t, 2*math.Pow(rho, float64(k)), tol, "a %g tol %g", a, tol)
			if k > 1 {
				require.Greater(t, 2*math.Pow(rho, float64(k-1)), tol, "a %g tol %g: K not the smallest", a, tol)
			}
			// At least labelprop's bound T_K(1/a) ≥ 1/tol.
			require.GreaterOrEqual(t, math.Cosh(float64(k)*math.Acosh(1/a)), 1/tol)
		}
	}
	require.Equal(t, 32, Rounds(0.9, 1e-6)) // labelprop: 32 for a = 0.9 and tol = 1e-6
}

// TestCoefficients checks the recurrence against the Chebyshev
// polynomials: ρ_k = T_k(σ)/T_{k+1}(σ) with σ = 1/a.
func TestCoefficients(t *testing.T) {
	const a = 0.8
	omega, gamma := Coefficients(a, 12)
	T := func(k int) float64 { return math.Cosh(float64(k) * math.Acosh(1/a)) }
	require.Equal(t, 0.0, omega[0])
	require.Equal(t, 1.0, gamma[0])
	for k := 1; k < 12; k++ {
		rk, rk1 := T(k)/T(k+1), T(k-1)/T(k)
		require.InDelta(t, rk*rk1, omega[k], 1e-12, "ω_%d", k)
		require.InDelta(t, 2*rk/a, gamma[k], 1e-12, "γ_%d", k)
	}
}

func TestValidate(t *testing.T) {
	require.ErrorContains(t, Spreading{Alpha: 1}.Validate(), "Alpha = 1 is invalid: it must be inside the open interval (0, 1)")
	require.ErrorContains(t, Spreading{Alpha: 0.5, Tol: 2}.Validate(), "Tol = 2 is invalid")
	require.ErrorContains(t, Spreading{Alpha: 0.5, Rounds: -1}.Validate(), "Rounds = -1 is invalid")
	require.NoError(t, Spreading{Alpha: 0.5}.Validate())
}

// TestSpreadCora: at the default tolerance's K the scores agree with
// labelprop's solver run for K iterations, and the predictions with
// labelprop's own stopping rule.
func TestSpreadCora(t *testing.T) {
	edges, labels := coraInputs(t)
	const a = 0.9
	k := Rounds(a, labelprop.DefaultTol)
	out := filepath.Join(t.TempDir(), "pred.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: Spreading{Alpha: a}, Out: out}))
	ds, m := reference(t, edges, labels, a, k)
	compare(t, out, ds, m)

	def := &labelprop.Spreading{Alpha: a, Classes: ds.Classes}
	var nodes, classes []int
	for i, l := range ds.Labels {
		if l >= 0 {
			nodes, classes = append(nodes, i), append(classes, l)
		}
	}
	require.NoError(t, def.FitIndexed(context.Background(), ds.Graph, nodes, classes))
	_, rows := readCSV(t, out)
	pred := def.Labels()
	for _, rec := range rows {
		i, _ := ds.IDs.Lookup(rec[0])
		require.Equal(t, ds.ClassNames[pred[i]], rec[1], "node %s", rec[0])
	}
}

// TestSpreadPubMed is TestSpreadCora's first check on PubMed (88 648
// directed entries, 3 classes) at K for tol 1e-3 (17 rounds, about a
// minute on Prism), or at the default tolerance's K (32) with
// GSSL_BEAM_LONG=1.
func TestSpreadPubMed(t *testing.T) {
	edges, labels := planetoidInputs(t, sharedData(t, "pubmed"))
	const a = 0.9
	k := Rounds(a, 1e-3)
	if os.Getenv("GSSL_BEAM_LONG") != "" {
		k = Rounds(a, labelprop.DefaultTol)
	}
	out := filepath.Join(t.TempDir(), "pred.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: Spreading{Alpha: a, Rounds: k}, Out: out}))
	ds, m := reference(t, edges, labels, a, k)
	compare(t, out, ds, m)
}

// TestSpreadFiles is the check of TestSpreadCora on the files named by
// GSSL_BEAM_EDGES and GSSL_BEAM_LABELS (scripts/bench-prism.sh sets them
// for its generated graphs; GSSL_BEAM_ALPHA and GSSL_BEAM_TOL default to 0.9
// and 1e-3). It skips when they are unset.
func TestSpreadFiles(t *testing.T) {
	edges, labels := os.Getenv("GSSL_BEAM_EDGES"), os.Getenv("GSSL_BEAM_LABELS")
	if edges == "" || labels == "" {
		t.Skip("skipping: set GSSL_BEAM_EDGES and GSSL_BEAM_LABELS to compare on other files")
	}
	a, tol := 0.9, 1e-3
	if v := os.Getenv("GSSL_BEAM_ALPHA"); v != "" {
		var err error
		a, err = strconv.ParseFloat(v, 64)
		require.NoError(t, err)
	}
	if v := os.Getenv("GSSL_BEAM_TOL"); v != "" {
		var err error
		tol, err = strconv.ParseFloat(v, 64)
		require.NoError(t, err)
	}
	k := Rounds(a, tol)
	out := filepath.Join(t.TempDir(), "pred.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: Spreading{Alpha: a, Rounds: k}, Out: out}))
	ds, m := reference(t, edges, labels, a, k)
	compare(t, out, ds, m)
	t.Logf("%s: the predictions agree with labelprop at K = %d (a = %g)", edges, k, a)
}

// smallInputs is a graph with text ids, weights, an edge given twice (both
// directions, different weights: the larger is kept), a self loop, a
// component without labels and a node only in the labels file.
func smallInputs(t *testing.T) (edges, labels string) {
	dir := t.TempDir()
	edges, labels = filepath.Join(dir, "edges.tsv"), filepath.Join(dir, "labels.csv")
	require.NoError(t, os.WriteFile(edges, []byte("# a comment\nsource\ttarget\tweight\nzeta\talpha\t1\nalpha\tbeta\t2.5\nbeta\tgamma\t1\ngamma\tdelta\t0.5\nbeta\talpha\t1.5\ndelta\tdelta\t2\nomega\tpsi\t1\ngamma\tzeta\t1\n"), 0o644))
	require.NoError(t, os.WriteFile(labels, []byte("id,label\nzeta,cat\ndelta,dog\nbeta,\nlonely,\npsi,NaN\n"), 0o644))
	return edges, labels
}

func TestSpreadTextIDs(t *testing.T) {
	edges, labels := smallInputs(t)
	const a, k = 0.7, 6
	out := filepath.Join(t.TempDir(), "pred.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: Spreading{Alpha: a, Rounds: k}, Out: out}))
	ds, m := reference(t, edges, labels, a, k)
	compare(t, out, ds, m)
	_, rows := readCSV(t, out)
	var ids []string
	for _, r := range rows {
		ids = append(ids, r[0])
	}
	// First appearance, as gssl labelprop writes them.
	require.Equal(t, []string{"alpha", "beta", "gamma", "omega", "psi", "lonely"}, ids)
}

// TestDeterministicShards: two runs write the same bytes, and shards hold
// the rows of the single file.
func TestDeterministicShards(t *testing.T) {
	edges, labels := coraInputs(t)
	dir := t.TempDir()
	sp := Spreading{Alpha: 0.9, Rounds: 4}
	one, two, shards := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), filepath.Join(dir, "shards")
	require.NoError(t, os.Mkdir(shards, 0o755))
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: one}))
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: two, Shards: 1}))
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: shards, Shards: 3}))
	b1, err := os.ReadFile(one)
	require.NoError(t, err)
	b2, err := os.ReadFile(two)
	require.NoError(t, err)
	require.Equal(t, b1, b2)
	header, rows := readCSV(t, one)
	var got []string
	for k := 0; k < 3; k++ {
		h, r := readCSV(t, ShardName(shards, k, 3))
		require.Equal(t, header, h)
		require.NotEmpty(t, r)
		for _, rec := range r {
			got = append(got, strings.Join(rec, ","))
		}
	}
	var want []string
	for _, rec := range rows {
		want = append(want, strings.Join(rec, ","))
	}
	slices.Sort(got)
	slices.Sort(want)
	require.Equal(t, want, got)
}

// TestGlob: the edges split over two files (the second gzipped), named by
// a glob, give the bytes of the single file's run.
func TestGlob(t *testing.T) {
	edges, labels := smallInputs(t)
	raw, err := os.ReadFile(edges)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(raw), "\n")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "part-1.tsv"), []byte(strings.Join(lines[:5], "")), 0o644))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(lines[1] + strings.Join(lines[5:], "")))
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "part-2.tsv.gz"), gz.Bytes(), 0o644))
	sp := Spreading{Alpha: 0.7, Rounds: 5}
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: a}))
	require.NoError(t, runJob(t, LabelProp{Edges: filepath.Join(dir, "part-*"), Labels: labels, Spreading: sp, Out: b}))
	ba, err := os.ReadFile(a)
	require.NoError(t, err)
	bb, err := os.ReadFile(b)
	require.NoError(t, err)
	require.Equal(t, string(ba), string(bb))
}

// TestParquet: the same edges as Parquet give the same predictions.
func TestParquet(t *testing.T) {
	edges, labels := smallInputs(t)
	dir := t.TempDir()
	pq := filepath.Join(dir, "edges.parquet")
	var rows []ParquetEdge
	raw, err := os.ReadFile(edges)
	require.NoError(t, err)
	for _, line := range strings.Split(string(raw), "\n")[2:] {
		f := strings.Fields(line)
		if len(f) == 3 {
			w, err := loaders.ParseWeight(f[2])
			require.NoError(t, err)
			rows = append(rows, ParquetEdge{Src: f[0], Dst: f[1], Weight: w})
		}
	}
	p, s := beam.NewPipelineWithRoot()
	parquetio.Write(s, pq, beam.CreateList(s, rows))
	_, err = execute(context.Background(), p)
	require.NoError(t, err)

	sp := Spreading{Alpha: 0.7, Rounds: 6}
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	require.NoError(t, runJob(t, LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: a}))
	require.NoError(t, runJob(t, LabelProp{Edges: pq, Labels: labels, Spreading: sp, Out: b}))
	ha, ra := readCSV(t, a)
	hb, rb := readCSV(t, b)
	require.Equal(t, ha, hb)
	key := func(rs [][]string) []string {
		var out []string
		for _, r := range rs {
			out = append(out, strings.Join(r, ","))
		}
		slices.Sort(out)
		return out
	}
	require.Equal(t, key(ra), key(rb))

	// The same predictions written as Parquet read back as the CSV.
	c := filepath.Join(dir, "c.parquet")
	require.NoError(t, runJob(t, LabelProp{Edges: pq, Labels: labels, Spreading: sp, Out: c}))
	fr, err := local.NewLocalFileReader(c)
	require.NoError(t, err)
	defer fr.Close()
	type predRow struct {
		ID        string  `parquet:"name=id, type=BYTE_ARRAY, convertedtype=UTF8"`
		Predicted string  `parquet:"name=predicted, type=BYTE_ARRAY, convertedtype=UTF8"`
		Cat       float64 `parquet:"name=p_cat, type=DOUBLE"`
		Dog       float64 `parquet:"name=p_dog, type=DOUBLE"`
	}
	pr, err := reader.NewParquetReader(fr, new(predRow), 1)
	require.NoError(t, err)
	got := make([]predRow, pr.GetNumRows())
	require.NoError(t, pr.Read(&got))
	pr.ReadStop()
	require.Equal(t, []string{"id", "predicted", "p_cat", "p_dog"}, ha)
	require.Len(t, got, len(rb))
	for k, r := range got {
		want := rb[k]
		require.Equal(t, want[:2], []string{r.ID, r.Predicted})
		require.Equal(t, want[2], strconv.FormatFloat(r.Cat, 'g', -1, 64))
		require.Equal(t, want[3], strconv.FormatFloat(r.Dog, 'g', -1, 64))
	}
}

// TestErrors: bad inputs fail with the error the core's readers give.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	goodEdges := write("good.csv", "a,b\nb,c\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(zw, "a%d,b%d,%d\n", i, i*7919%2000, i%5+1)
	}
	require.NoError(t, zw.Close())
	truncated := write("t.csv.gz", string(gz.Bytes()[:gz.Len()/2]))
	goodLabels := write("good_labels.csv", "id,label\na,x\nc,y\n")
	cases := []struct {
		name, edges, labels string
		core                bool // the core's LoadNodes refuses it too, with the same message
		want                string
	}{
		{"weight", write("w.csv", "a,b,1\nb,c,-2\n"), goodLabels, true, "w.csv:2: weight -2 is negative"},
		{"fields", write("f.csv", "a,b\nb,c,d,e\n"), goodLabels, true, "f.csv:2: want 2 fields like line 1, got 4"},
		{"mixed weight", write("m.csv", "a,b\nb,c,d\n"), goodLabels, true, `m.csv:2: weight "d" is not a number`},
		{"truncated gzip", truncated, goodLabels, true, "t.csv.gz:"},
		{"underflow", write("u.csv", "a,b,1e-400\n"), goodLabels, true, "u.csv:1: weight 1e-400 is not representable as a float64"},
		{"blank in positional labels", write("pe.txt", "0,1\n1,2\n"), write("pl.txt", "3\n\n4\n"), true, "pl.txt:2: blank line before more data"},
		{"quote", write("q.csv", "a,b\n\"b,c\n"), goodLabels, true, "unclosed quote"},
		{"empty edges", write("e.csv", "# nothing\n"), goodLabels, true, "e.csv: no edges: the file has no data lines"},
		{"duplicate label", goodEdges, write("dup.csv", "id,label\na,x\nc,y\na,y\n"), true, `dup.csv:4: node "a" already listed on line 2`},
		{"missing edges", filepath.Join(dir, "nope.csv"), goodLabels, true, "no such file or directory"},
		{"missing labels", goodEdges, filepath.Join(dir, "nolabels.csv"), true, "no such file or directory"},
		{"no label", goodEdges, write("none.csv", "id,label\na,\n"), false, "no node is labelled"},
		{"isolated seed", goodEdges, write("iso.csv", "id,label\na,x\nz,y\n"), false, "training node z is isolated (degree 0)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name+".out.csv")
			err := runJob(t, LabelProp{Edges: c.edges, Labels: c.labels, Spreading: Spreading{Alpha: 0.5, Rounds: 2}, Out: out})
			require.ErrorContains(t, err, c.want)
			if c.core {
				_, cerr := loaders.LoadNodes(loaders.NodeFiles{Edges: c.edges, Labels: c.labels, Graph: loaders.UserGraphOptions()})
				require.Error(t, cerr)
				require.Equal(t, cerr.Error(), Cause(err).Error())
			}
		})
	}
}

// TestPropagate compares S̃^K X with a dense computation.
func TestPropagate(t *testing.T) {
	edges, _ := smallInputs(t)
	dir := t.TempDir()
	ids := []string{"zeta", "alpha", "beta", "gamma", "delta", "omega", "psi", "lonely"}
	var b strings.Builder
	b.WriteString("id,a,b\n")
	x := mat.NewDense(len(ids), 2, nil)
	for i, id := range ids {
		x.Set(i, 0, float64(i+1))
		x.Set(i, 1, math.Sin(float64(i)))
		b.WriteString(id + "," + formatG(x.At(i, 0)) + "," + formatG(x.At(i, 1)) + "\n")
	}
	feats := filepath.Join(dir, "x.csv")
	require.NoError(t, os.WriteFile(feats, []byte(b.String()), 0o644))
	const k = 3
	out := filepath.Join(dir, "y.csv")
	p, s := beam.NewPipelineWithRoot()
	ctx := context.Background()
	e, err := ReadEdges(ctx, s, edges, EdgeOptions{})
	require.NoError(t, err)
	f, err := ReadFeatures(ctx, s, feats, loaders.TableOptions{})
	require.NoError(t, err)
	g := BuildGraph(s, e, beam.PCollection{}, false)
	nodes, err := Propagate(s, g, f, k)
	require.NoError(t, err)
	WriteFeatures(s, g, f, nodes, out, 1)
	_, err = execute(ctx, p)
	require.NoError(t, err)

	// Dense reference: A from the core's reader, Ã = A + I.
	ds, err := loaders.LoadNodes(loaders.NodeFiles{Edges: edges, Graph: loaders.UserGraphOptions()})
	require.NoError(t, err)
	n := len(ids)
	at := map[string]int{}
	for i, id := range ids {
		at[id] = i
	}
	A := mat.NewDense(n, n, nil)
	for i := 0; i < ds.Graph.Nodes(); i++ {
		cols, w := ds.Graph.Row(i)
		for k, j := range cols {
			A.Set(at[ds.IDs.ID(i)], at[ds.IDs.ID(int(j))], w[k])
		}
	}
	for i := 0; i < n; i++ {
		A.Set(i, i, A.At(i, i)+1)
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = 1 / math.Sqrt(mat.Sum(A.RowView(i)))
	}
	S := mat.NewDense(n, n, nil)
	S.Apply(func(i, j int, v float64) float64 { return d[i] * v * d[j] }, A)
	y := mat.DenseCopyOf(x)
	for r := 0; r < k; r++ {
		var next mat.Dense
		next.Mul(S, y)
		y = &next
	}
	header, rows := readCSV(t, out)
	require.Equal(t, []string{"id", "f1", "f2"}, header)
	require.Len(t, rows, n)
	for _, rec := range rows {
		i := at[rec[0]]
		for c := 0; c < 2; c++ {
			v, err := loaders.ParseFinite(rec[1+c], "value")
			require.NoError(t, err)
			require.InDelta(t, y.At(i, c), v, 1e-12, "node %s column %d", rec[0], c)
		}
	}
}

func formatG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func entryRows(id string, n Node, emit func(Row)) {
	for k, j := range n.Adj {
		emit(Row{ID: id, Pos: n.Pos, Cells: []string{j, strconv.FormatFloat(n.W[k], 'g', -1, 64), strconv.FormatFloat(n.Degree, 'g', -1, 64)}})
	}
}

func init() { beam.RegisterFunction(entryRows) }

// TestNormalize compares the entries of S and the degrees with the core's
// graph.
func TestNormalize(t *testing.T) {
	edges, _ := smallInputs(t)
	out := filepath.Join(t.TempDir(), "s.csv")
	p, s := beam.NewPipelineWithRoot()
	ctx := context.Background()
	e, err := ReadEdges(ctx, s, edges, EdgeOptions{})
	require.NoError(t, err)
	g := Normalize(s, BuildGraph(s, e, beam.PCollection{}, false))
	WriteTable(s, g, beam.Create(s, Header{Cols: []string{"src", "dst", "s", "degree"}}), beam.ParDo(s, entryRows, g.Nodes), out, 1)
	_, err = execute(ctx, p)
	require.NoError(t, err)

	ds, err := loaders.LoadNodes(loaders.NodeFiles{Edges: edges, Graph: loaders.UserGraphOptions()})
	require.NoError(t, err)
	want := map[[2]string]float64{}
	deg := map[string]float64{}
	for i := 0; i < ds.Graph.Nodes(); i++ {
		_, w := ds.Graph.Row(i)
		for _, v := range w {
			deg[ds.IDs.ID(i)] += v
		}
	}
	for i := 0; i < ds.Graph.Nodes(); i++ {
		cols, w := ds.Graph.Row(i)
		for k, j := range cols {
			a, b := ds.IDs.ID(i), ds.IDs.ID(int(j))
			want[[2]string{a, b}] = w[k] / math.Sqrt(deg[a]*deg[b])
		}
	}
	header, rows := readCSV(t, out)
	require.Equal(t, []string{"src", "dst", "s", "degree"}, header)
	require.Len(t, rows, len(want))
	for _, r := range rows {
		v, err := strconv.ParseFloat(r[2], 64)
		require.NoError(t, err)
		require.InDelta(t, want[[2]string{r[0], r[1]}], v, 1e-15, "S(%s, %s)", r[0], r[1])
		d, err := strconv.ParseFloat(r[3], 64)
		require.NoError(t, err)
		require.Equal(t, deg[r[0]], d, "degree of %s", r[0])
	}
}

// nodeGraphJob is LabelProp.Build with the graph built node by node
// (BuildGraph: a key per edge and per node) instead of by bucket.
func nodeGraphJob(t *testing.T, lp LabelProp) {
	t.Helper()
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	edges, err := ReadEdges(ctx, s, lp.Edges, lp.Edge)
	require.NoError(t, err)
	labels, err := ReadLabels(ctx, s, lp.Labels, lp.Edge.Table, 1)
	require.NoError(t, err)
	g := BuildGraph(s, edges, labels, lp.KeepIsolatedSeeds)
	scores, err := Spread(s, g, lp.Spreading)
	require.NoError(t, err)
	WritePredictions(s, g, Predict(s, g, scores), lp.Out, 1)
	_, err = execute(ctx, p)
	require.NoError(t, err)
}

// TestBucketsSameBytes: the number of buckets, and building the graph by
// bucket or node by node, change nothing in the output, to the bit: each
// node merges its edges and sums what it receives in a fixed order.
func TestBucketsSameBytes(t *testing.T) {
	coraEdges, coraLabels := coraInputs(t)
	smallEdges, smallLabels := smallInputs(t)
	for _, c := range []struct {
		name, edges, labels string
		sp                  Spreading
	}{
		{"cora", coraEdges, coraLabels, Spreading{Alpha: 0.9, Rounds: 6}},
		{"small", smallEdges, smallLabels, Spreading{Alpha: 0.7, Rounds: 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var want []byte
			for _, b := range []int{0, 1, 7} {
				out := filepath.Join(dir, fmt.Sprintf("b%d.csv", b))
				sp := c.sp
				sp.Buckets = b
				require.NoError(t, runJob(t, LabelProp{Edges: c.edges, Labels: c.labels, Spreading: sp, Out: out}))
				got, err := os.ReadFile(out)
				require.NoError(t, err)
				if want == nil {
					want = got
					continue
				}
				require.Equal(t, string(want), string(got), "%d buckets", b)
			}
			out := filepath.Join(dir, "nodes.csv")
			nodeGraphJob(t, LabelProp{Edges: c.edges, Labels: c.labels, Spreading: c.sp, Out: out})
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), "graph built node by node")
		})
	}
}
