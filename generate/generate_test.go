package generate

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/loaders"
)

// collect returns every generated edge.
func collect(t *testing.T, gen Generator) (src, dst []int32) {
	t.Helper()
	require.NoError(t, gen.Generate(context.Background(), func(e Edges) error {
		src = append(src, e.Src...)
		dst = append(dst, e.Dst...)
		return nil
	}))
	require.Len(t, src, int(gen.NumEdges()))
	return src, dst
}

// multiDegrees counts edge ends per node (a self loop counts twice).
func multiDegrees(n int, src, dst []int32) []int {
	d := make([]int, n)
	for k := range src {
		d[src[k]]++
		d[dst[k]]++
	}
	return d
}

func TestSBMStatistics(t *testing.T) {
	// Unequal sizes: the per-class mixing is exact only with the solved
	// pair weights.
	cfg := SBM{Nodes: 20000, Sizes: []int{3000, 5000, 7000, 5000}, Degree: 10, Mixing: 0.2, Seed: 1}
	g, err := NewSBM(cfg)
	require.NoError(t, err)
	assert.Equal(t, int64(100000), g.NumEdges())
	labels := g.Labels()
	sizes := make([]int, 4)
	for _, l := range labels {
		sizes[l]++
	}
	assert.Equal(t, cfg.Sizes, sizes)
	// Classes are not in blocks of node indices.
	blocks := 0
	for i := 1; i < len(labels); i++ {
		if labels[i] != labels[i-1] {
			blocks++
		}
	}
	assert.Greater(t, blocks, 10000, "classes are shuffled over the nodes")

	src, dst := collect(t, g)
	deg := multiDegrees(cfg.Nodes, src, dst)
	var total int
	for _, d := range deg {
		total += d
	}
	assert.Equal(t, 2*100000, total, "mean degree 2m/n = D exactly")

	// Mixing: overall and per class (ends of between-class edges / all
	// ends in the class). Binomial noise on 10⁵ edges is ~0.002; the
	// classes' shares within 0.015.
	const mixTol = 0.015
	inter := 0
	ends, interEnds := make([]float64, 4), make([]float64, 4)
	for k := range src {
		a, b := labels[src[k]], labels[dst[k]]
		ends[a]++
		ends[b]++
		if a != b {
			inter++
			interEnds[a]++
			interEnds[b]++
		}
	}
	assert.InDelta(t, 0.2, float64(inter)/float64(len(src)), mixTol)
	for c := range ends {
		assert.InDelta(t, 0.2, interEnds[c]/ends[c], mixTol, "class %d", c)
	}

	// Degrees follow the expected degrees: over the 200 nodes of highest
	// expected degree, the realised sum is within 5 % of the expected sum.
	order := make([]int, cfg.Nodes)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return -cmpFloat(g.ExpectedDegree(a), g.ExpectedDegree(b)) })
	var want, got float64
	for _, i := range order[:200] {
		want += g.ExpectedDegree(i)
		got += float64(deg[i])
	}
	assert.InEpsilon(t, want, got, 0.05)

	// A power-law tail: the largest degree is far above the mean, and the
	// Hill estimate of the exponent over the top 1 % of degrees is near γ.
	maxDeg := slices.Max(deg)
	assert.Greater(t, maxDeg, 20*10, "max degree %d against mean 10", maxDeg)
	sorted := slices.Clone(deg)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	k := 200
	var s float64
	for _, d := range sorted[:k] {
		s += math.Log(float64(d) / float64(sorted[k]))
	}
	hill := 1 + float64(k)/s
	assert.InDelta(t, 2.5, hill, 0.4, "Hill estimate of the degree exponent")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestSBMEqualDegreesAndSelfLoops(t *testing.T) {
	g, err := NewSBM(SBM{Nodes: 5000, Classes: 3, Degree: 8, Exponent: math.Inf(1), Mixing: 0.5, Seed: 2})
	require.NoError(t, err)
	src, dst := collect(t, g)
	deg := multiDegrees(5000, src, dst)
	// Poisson(8) degrees: the largest of 5000 is far below a power law's.
	assert.Less(t, slices.Max(deg), 30)
	sizes := g.Sizes()
	assert.Equal(t, []int{1667, 1667, 1666}, sizes)

	// Small classes make self loops likely; NoSelfLoops removes them.
	cfg := SBM{Nodes: 40, Classes: 20, Degree: 6, Mixing: 0.1, Seed: 3}
	g, err = NewSBM(cfg)
	require.NoError(t, err)
	src, dst = collect(t, g)
	loops := 0
	for k := range src {
		if src[k] == dst[k] {
			loops++
		}
	}
	assert.Greater(t, loops, 0, "a generator's self loops are kept by default")
	cfg.NoSelfLoops = true
	g, err = NewSBM(cfg)
	require.NoError(t, err)
	src, dst = collect(t, g)
	assert.Len(t, src, 120)
	for k := range src {
		require.NotEqual(t, src[k], dst[k])
	}
}

func TestPairWeights(t *testing.T) {
	for _, kappa := range [][]float64{{1, 1, 1}, {3, 5, 7, 5}, {1, 2, 2.5}, {9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}} {
		x := pairWeights(kappa)
		var K, sum, sq float64
		for r := range kappa {
			K += kappa[r]
			sum += x[r]
			sq += x[r] * x[r]
		}
		assert.InDelta(t, 1, sum, 1e-9)
		// Share of the ends of class r: 2·x_r(1−x_r) / (2(1 − Σx²)).
		for r := range kappa {
			assert.InDelta(t, kappa[r]/K, x[r]*(1-x[r])/(1-sq), 1e-9, "kappa %v class %d", kappa, r)
		}
	}
	// No exact solution: a class holds more than half.
	assert.Equal(t, []float64{0.75, 0.25}, pairWeights([]float64{3, 1}))
}

func TestSBMValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  SBM
		want string
	}{
		{SBM{Nodes: 0, Classes: 1}, "nodes=0"},
		{SBM{Nodes: 10, Classes: 11}, "classes=11"},
		{SBM{Nodes: 10, Classes: 2, Sizes: []int{5, 5, 0}}, "classes=2 but 3 sizes"},
		{SBM{Nodes: 10, Sizes: []int{5, 4}}, "sum to 9"},
		{SBM{Nodes: 10, Sizes: []int{10, 0}}, "size 0 of class 1"},
		{SBM{Nodes: 10, Classes: 2, Degree: -1}, "degree=-1"},
		{SBM{Nodes: 10, Classes: 2, Exponent: 1.5}, "exponent=1.5"},
		{SBM{Nodes: 10, Classes: 2, Mixing: 1.5}, "mixing=1.5"},
		{SBM{Nodes: 10, Classes: 1, Mixing: 0.5}, "at least 2 classes"},
	} {
		_, err := NewSBM(tc.cfg)
		assert.ErrorContains(t, err, tc.want)
	}
	_, err := NewSBM(SBM{Nodes: 3, Classes: 3, NoSelfLoops: true, Mixing: 0.5})
	assert.ErrorContains(t, err, "no class has two nodes")
	_, err = NewSBM(SBM{Nodes: 3, Classes: 3, NoSelfLoops: true, Mixing: 1})
	assert.NoError(t, err)
}

func TestRMAT(t *testing.T) {
	g, err := NewRMAT(RMAT{Scale: 12, Seed: 4})
	require.NoError(t, err)
	assert.Equal(t, 4096, g.Nodes())
	assert.Equal(t, int64(16*4096), g.NumEdges())
	src, dst := collect(t, g)
	deg := multiDegrees(4096, src, dst)
	// Skew: the mean is 32, the hubs hold far more, and many nodes none.
	assert.Greater(t, slices.Max(deg), 20*32)
	zero := 0
	for _, d := range deg {
		if d == 0 {
			zero++
		}
	}
	assert.Greater(t, zero, 4096/10)
	// The permutation moves the hub away from node 0, where the unpermuted
	// recursion puts it.
	assert.NotEqual(t, 0, slices.Index(deg, slices.Max(deg)))

	// The recursion's bit frequencies, on the unpermuted indices: the row
	// bit is 1 with probability c + d, the column bit given a row bit 0
	// with probability b/(a+b), given 1 with d/(c+d).
	for i := range g.perm {
		g.perm[i] = int32(i)
	}
	src, dst = collect(t, g)
	var rowOne, colGiven0, n0, colGiven1, n1 float64
	for k := range src {
		for level := 0; level < 12; level++ {
			rb, cb := src[k]>>level&1, dst[k]>>level&1
			rowOne += float64(rb)
			if rb == 0 {
				n0++
				colGiven0 += float64(cb)
			} else {
				n1++
				colGiven1 += float64(cb)
			}
		}
	}
	levels := float64(12 * len(src))
	assert.InDelta(t, 0.24, rowOne/levels, 0.005)
	assert.InDelta(t, 0.19/0.76, colGiven0/n0, 0.005)
	assert.InDelta(t, 0.05/0.24, colGiven1/n1, 0.01)

	_, err = NewRMAT(RMAT{Scale: 31})
	assert.ErrorContains(t, err, "scale=31")
	_, err = NewRMAT(RMAT{Scale: 5, A: 0.5, B: 0.5, C: 0.5})
	assert.ErrorContains(t, err, "sum to 1.5")
	_, err = NewRMAT(RMAT{Scale: 5, A: 0.5, D: 0.5, NoSelfLoops: true})
	assert.ErrorContains(t, err, "every edge is a self loop")

	h, err := NewRMAT(RMAT{Scale: 6, EdgeFactor: 4, NoSelfLoops: true, Seed: 1})
	require.NoError(t, err)
	src, dst = collect(t, h)
	for k := range src {
		require.NotEqual(t, src[k], dst[k])
	}
}

// fileBytes writes the edges of gen and returns the file.
func fileBytes(t *testing.T, gen Generator, name string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, WriteEdges(context.Background(), p, gen, EdgesText))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return b
}

// The same seed gives the same bytes whatever the number of cores; with
// small chunks the stream spans several parallel batches.
func TestDeterminism(t *testing.T) {
	saved := edgeChunk
	edgeChunk = 500
	defer func() { edgeChunk = saved }()
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	cfg := SBM{Nodes: 3000, Classes: 3, Degree: 20, Mixing: 0.3, Seed: 11}
	var outs [][]byte
	var feats [][]byte
	for _, p := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(p)
		g, err := NewSBM(cfg)
		require.NoError(t, err)
		outs = append(outs, fileBytes(t, g, "e.txt"))
		r, err := NewRMAT(RMAT{Scale: 10, Seed: 5})
		require.NoError(t, err)
		outs = append(outs, fileBytes(t, r, "r.txt"))
		fp := filepath.Join(t.TempDir(), "f.txt")
		require.NoError(t, WriteFeatures(context.Background(), fp, g, Features{Columns: 100, TopicProb: 0.5}))
		b, err := os.ReadFile(fp)
		require.NoError(t, err)
		feats = append(feats, b)
	}
	for k := 2; k < len(outs); k++ {
		assert.True(t, bytes.Equal(outs[k%2], outs[k]), "output %d differs under another GOMAXPROCS", k)
	}
	assert.Equal(t, feats[0], feats[1])
	assert.Equal(t, feats[0], feats[2])
	cfg.Seed = 12
	g, err := NewSBM(cfg)
	require.NoError(t, err)
	assert.NotEqual(t, outs[0], fileBytes(t, g, "e.txt"), "another seed, another graph")
}

func TestFeatures(t *testing.T) {
	g, err := NewSBM(SBM{Nodes: 20000, Classes: 4, Degree: 4, Mixing: 0.2, Seed: 6})
	require.NoError(t, err)
	// Topic sets of 250 columns, disjoint for 4 classes of 1000 columns.
	f := Features{Columns: 1000, PerNode: 10, TopicProb: 0.6}
	labels := g.Labels()
	counts := make([][]int, 4) // counts[c][col]
	for c := range counts {
		counts[c] = make([]int, 1000)
	}
	rows := 0
	var nnz int
	require.NoError(t, g.Features(context.Background(), f, func(r FeatureRows) error {
		for k := 0; k < r.Rows(); k++ {
			cols := r.Cols[r.Indptr[k]:r.Indptr[k+1]]
			require.True(t, slices.IsSorted(cols))
			require.LessOrEqual(t, len(cols), 10)
			for p := 1; p < len(cols); p++ {
				require.NotEqual(t, cols[p-1], cols[p])
			}
			for _, c := range cols {
				counts[labels[r.First+k]][c]++
			}
			nnz += len(cols)
			rows++
		}
		return nil
	}))
	assert.Equal(t, 20000, rows)
	// Each class's 250 most used columns are its topics: their share of
	// the class's features is p + (1 − p)·T/F = 0.7 (merged repeats make
	// it a little lower).
	for c := range counts {
		s := slices.Clone(counts[c])
		slices.Sort(s)
		slices.Reverse(s)
		var top, all int
		for k, v := range s {
			if k < 250 {
				top += v
			}
			all += v
		}
		assert.InDelta(t, 0.7, float64(top)/float64(all), 0.02, "class %d", c)
	}
	_, err = f.resolve(4)
	require.NoError(t, err)
	for _, bad := range []Features{{Columns: 0}, {Columns: 5, PerNode: 6}, {Columns: 5, TopicSize: 6}, {Columns: 5, TopicProb: 2}} {
		assert.Error(t, g.Features(context.Background(), bad, func(FeatureRows) error { return nil }))
	}
}

// The written folder reads back with gssl's own loader: edges, labels,
// features and split, and the graph equals the one Graph builds and the
// .gsg file holds.
func TestFilesReadBack(t *testing.T) {
	ctx := context.Background()
	g, err := NewSBM(SBM{Nodes: 600, Classes: 3, Degree: 6, Mixing: 0.25, Seed: 8})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, WriteEdges(ctx, filepath.Join(dir, "edges.txt"), g, EdgesText))
	require.NoError(t, WriteLabels(filepath.Join(dir, "labels.txt"), g.Labels(), LabelsText))
	f := Features{Columns: 50, TopicProb: 0.5}
	require.NoError(t, WriteFeatures(ctx, filepath.Join(dir, "features.txt.gz"), g, f))
	split, err := eval.RandomPerClass(g.Labels(), 5, 50, 100, 1)
	require.NoError(t, err)
	require.NoError(t, WriteSplit(filepath.Join(dir, "split_planetoid.txt"), split))

	ds, err := loaders.LoadNodeDataset(dir)
	require.NoError(t, err)
	assert.Equal(t, g.Labels(), ds.Labels)
	assert.Equal(t, 3, ds.Classes)
	assert.Equal(t, split, *ds.Split)
	require.NotNil(t, ds.Features)
	assert.Equal(t, 600, ds.Features.Rows)
	assert.Equal(t, 50, ds.Features.Cols)
	require.NoError(t, g.Features(ctx, f, func(r FeatureRows) error {
		for k := 0; k < r.Rows(); k++ {
			cols, vals := ds.Features.Row(r.First + k)
			require.Equal(t, r.Cols[r.Indptr[k]:r.Indptr[k+1]], cols)
			for _, v := range vals {
				require.Equal(t, 1.0, v)
			}
		}
		return nil
	}))

	want, err := Graph(ctx, g)
	require.NoError(t, err)
	requireSameGraph(t, want.Nodes(), ds.Graph, want)

	// The edge list, gzip compressed and as CSV.
	gz := filepath.Join(dir, "e.txt.gz")
	require.NoError(t, WriteEdges(ctx, gz, g, EdgesText))
	fromGz, err := loaders.ReadEdgeList(gz, 600, loaders.NodeGraphOptions())
	require.NoError(t, err)
	requireSameGraph(t, 600, fromGz, want)
	csv := filepath.Join(dir, "e.csv")
	require.NoError(t, WriteEdges(ctx, csv, g, EdgesCSV))
	b, err := os.ReadFile(csv)
	require.NoError(t, err)
	plain, err := os.ReadFile(filepath.Join(dir, "edges.txt"))
	require.NoError(t, err)
	lines := strings.Split(string(b), "\n")
	assert.Equal(t, "source,target", lines[0])
	assert.Equal(t, string(plain), strings.ReplaceAll(strings.Join(lines[1:], "\n"), ",", " "))
	gzf, err := os.Open(gz)
	require.NoError(t, err)
	defer gzf.Close()
	zr, err := gzip.NewReader(gzf)
	require.NoError(t, err)
	unz, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, plain, unz)

	// The CSV tables read back with the user-file loader.
	lcsv := filepath.Join(dir, "labels.csv")
	require.NoError(t, WriteLabels(lcsv, g.Labels(), LabelsCSV))
	user, err := loaders.LoadNodes(loaders.NodeFiles{Edges: csv, Labels: lcsv, Graph: loaders.NodeGraphOptions(), Nodes: 600})
	require.NoError(t, err)
	requireSameGraph(t, 600, user.Graph, want)
	for i, l := range g.Labels() {
		require.Equal(t, strconv.Itoa(l), user.ClassNames[user.Labels[i]], "node %d", i)
	}

	// Labels as CSV.
	lp := filepath.Join(dir, "labels3.csv")
	require.NoError(t, WriteLabels(lp, []int{2, 0, 1}, LabelsCSV))
	b, err = os.ReadFile(lp)
	require.NoError(t, err)
	assert.Equal(t, "id,label\n0,2\n1,0\n2,1\n", string(b))

	// The binary graph file.
	gp := filepath.Join(dir, "g.gsg")
	require.NoError(t, WriteGraphFile(ctx, gp, g))
	gf, err := graphfile.Open(gp)
	require.NoError(t, err)
	defer gf.Close()
	requireSameGraph(t, 600, gf.Graph, want)
}

type rowGraph interface {
	Nodes() int
	Row(i int) ([]int32, []float64)
}

func requireSameGraph(t *testing.T, n int, got, want rowGraph) {
	t.Helper()
	require.Equal(t, n, got.Nodes())
	for i := 0; i < n; i++ {
		wc, ww := want.Row(i)
		gc, gw := got.Row(i)
		require.Equal(t, wc, gc, "row %d", i)
		require.Equal(t, ww, gw, "row %d", i)
	}
}

// A cancelled or failing write leaves no file and keeps an existing one.
func TestWriteErrorsAreAtomic(t *testing.T) {
	g, err := NewSBM(SBM{Nodes: 100, Classes: 2, Seed: 1})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "edges.txt")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, WriteEdges(ctx, p, g, EdgesText), context.Canceled)
	_, err = os.Stat(p)
	assert.ErrorIs(t, err, os.ErrNotExist)
	require.NoError(t, os.WriteFile(p, []byte("keep"), 0o644))
	require.Error(t, WriteEdges(ctx, p, g, EdgesText))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, entries, 1)
}

// TestStreamsWithoutEnd: a mean degree of n or more, or more R-MAT edges
// per node than nodes, is refused by Validate (asking for more edges than
// node pairs), naming the parameter.
func TestStreamsWithoutEnd(t *testing.T) {
	_, err := NewSBM(SBM{Nodes: 400, Classes: 4, Degree: 1e9})
	require.ErrorContains(t, err, "degree=1e+09 is invalid: it must be below nodes=400")
	_, err = NewSBM(SBM{Nodes: 400, Classes: 4, Degree: 399})
	require.NoError(t, err)
	_, err = NewRMAT(RMAT{Scale: 10, EdgeFactor: 1025})
	require.ErrorContains(t, err, "edge factor 1025 is invalid: it must be in [1, 2^scale]")
	_, err = NewRMAT(RMAT{Scale: 10, EdgeFactor: 1024})
	require.NoError(t, err)
}
