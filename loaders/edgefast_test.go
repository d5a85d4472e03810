package loaders

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// serialCorpus holds the inputs of the serial parser's tests
// (TestReadEdgeList* in edgelist_test.go and FuzzEdgeList's seeds in
// fuzz_test.go) and a few more for the parallel one's extras.
var serialCorpus = []string{
	// TestReadEdgeListFormats
	"0 1\n1 2\n0 2\n2 4\n",
	"0\t1\n1\t2\n0\t2\n2\t4",
	"0,1\n1, 2\n0 ,2\n2,4\n",
	"# header\n% matrix-market-style comment\n\n0 1\n  \n1 2\n0 2\r\n2 4\n# end\n",
	"0 1 1\n1 2 1.0\n0 2 1e0\n2 4 1\n",
	// TestReadEdgeListGivenNodeCount
	"0 1 0.5\n",
	"# nothing\n",
	// TestReadEdgeListMatchesFromEdges
	"0 1 2\n1 0 3\n2 2 1.5\n1 2 0.25\n1 2 4\n3 0 0\n",
	// TestReadEdgeListGzip (plain content)
	"# gz\n0 1\n1 2\n",
	// TestReadEdgeListBadInput
	"0 1\n1 2\n\n# c\n3\n",
	"0 1 1 1\n",
	"0 1\n1 2 0.5\n",
	"0,,1\n",
	"0 1\n-1 2\n",
	"0 1.5\n",
	"a b\n",
	"0 99999999999999999999\n",
	"0 1\n1 5\n",
	"0 1 NaN\n",
	"0 1 1\n1 2 +Inf\n",
	"0 1 1e999\n",
	"0 1 -0.5\n",
	"0 1 heavy\n",
	"0 1\n1 2\n# c\n1 0\n",
	"0 1\n1 0\n0 1\n",
	"0 1\n2 2\n",
	"",
	// TestReadEdgeListErrorFormat
	"0 1\n0 2\n1 2\n0 3\n0 4\n0 5\n0 6\n0 7\n0 8\n0 9\n0 10\n0 11\n0 12\n0 13\n0 14\n0 15\n3\n",
	// FuzzEdgeList seeds
	"0 1\n1 2\n2 0\n",
	"# c\n% c\n0,1,0.5\n1, 2, 3\n\n",
	"0 1\n1 0\n2 2\n",
	"0 1\n3\n",
	"0 1 NaN\n-1 2\n",
	"0 1 -1\n",
	"\x1f\x8b\x00\x00",
	// Extras: header, byte-order mark, CRLF, trailing comma, repeats with
	// weights, long lines, ids with gaps.
	"source,target,weight\n0,1,0.5\n1,2,2\n2,0,1\n",
	"src dst\n0 1\n1 2\n",
	"# c\nsrc dst w\n0 1\n",
	"\xef\xbb\xbf0 1\r\n1 2\r\n",
	"0,1,\n",
	"0 1 0.1\n1 0 0.2\n0 1 0.3\n1 2 0.7\n0 1 0.4\n2 2 3\n2 2 1\n",
	"0 1\n" + strings.Repeat(" ", 300) + "1 2" + strings.Repeat("\t", 200) + "\n2 3\n",
	"5 9\n9 5\n7 7\n",
	"007 1\n",
	"+1 2\n",
	"0 1 {'weight': 2}\n",
	"0 1\n2\t3\n",
	"0 1\nsource target\n",
	"0 1 2 # c\n",
	"0 1\n1 2\n0 2 1\n",
	"0 1 1\n1 2\n",
	"0 1 0x1p-2\n1 2 1e-400\n",
	"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1\n",
}

// sameAsSerial checks ReadIntEdgesParallel against ReadEdgeList(path, 0,
// opt) on data: the parallel reader may decline (ErrNotFast), must fail
// where the serial one fails (at the same line, except for repeats, where
// it may name another repeated pair), and otherwise gives the serial graph
// restricted to the ids present, bitwise. It returns whether the parallel
// reader took the file.
func sameAsSerial(t *testing.T, data []byte, opt graph.Options) bool {
	t.Helper()
	path, spath := writePair(t, data)
	return sameFiles(t, path, spath, opt)
}

// writePair writes data for the parallel reader and, for the serial one,
// without a byte-order mark and with a header line turned into a comment
// (the serial reader knows neither), keeping the line numbers.
func writePair(t *testing.T, data []byte) (path, spath string) {
	dir := t.TempDir()
	path = filepath.Join(dir, "fuzz.txt")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	sdata := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if first := firstDataLine(sdata); first >= 0 {
		var l fastLine
		end := bytes.IndexByte(sdata[first:], '\n')
		if end < 0 {
			end = len(sdata) - first
		}
		if l.split(sdata[first:first+end]) && !l.skip && !l.ids() && l.isHeader() {
			sdata = append(append(append([]byte(nil), sdata[:first]...), '#'), sdata[first+1:]...)
		}
	}
	spath = filepath.Join(dir, "serial.txt")
	require.NoError(t, os.WriteFile(spath, sdata, 0o644))
	return path, spath
}

// sameFiles is sameAsSerial on the files of writePair.
func sameFiles(t *testing.T, path, spath string, opt graph.Options) bool {
	t.Helper()
	fg, ids, ferr := ReadIntEdgesParallel(path, opt)
	if errors.Is(ferr, ErrNotFast) {
		require.Nil(t, fg)
		return false
	}
	// The serial reader with the parallel one's numbering: the ids present,
	// ascending (ReadEdgeList with n = 0 refuses sparse ids).
	sg, sids, serr := ReadEdgeListIDs(spath, opt)
	if ferr != nil {
		var pe *ParseError
		require.True(t, errors.As(ferr, &pe), "not a *ParseError: %v", ferr)
		require.Equal(t, path, pe.Path)
		require.Error(t, serr, "the parallel reader failed (%v) where the serial one did not", ferr)
		var spe *ParseError
		require.True(t, errors.As(serr, &spe))
		if !strings.Contains(spe.Msg, "repeats") {
			require.Equal(t, spe.Line, pe.Line, "parallel %v, serial %v", ferr, serr)
		}
		return true
	}
	require.NoError(t, serr, "the parallel reader accepted what the serial one rejects")
	require.Equal(t, sids.Len(), ids.Len())
	require.Equal(t, sg.Nodes(), fg.Nodes())
	for i := 0; i < ids.Len(); i++ {
		id, ok := ids.IntID(i)
		require.True(t, ok)
		sid, ok := sids.IntID(i)
		require.True(t, ok)
		require.Equal(t, sid, id, "node %d", i)
		cols, ws := fg.Row(i)
		scols, sws := sg.Row(i)
		require.Equal(t, scols, cols, "node %d (id %d)", i, id)
		for k := range cols {
			require.Equal(t, math.Float64bits(sws[k]), math.Float64bits(ws[k]), "node %d entry %d", i, k)
		}
		require.Equal(t, math.Float64bits(sg.Degree(i)), math.Float64bits(fg.Degree(i)))
	}
	require.Equal(t, sg.UnitWeights(), fg.UnitWeights())
	require.Equal(t, sg.SelfLoops(), fg.SelfLoops())
	require.Equal(t, sids.IsIdentity(), ids.IsIdentity())
	return true
}

// firstDataLine returns the offset of the first line that is not blank or a
// comment, or −1.
func firstDataLine(data []byte) int {
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data) - off
		}
		if s := strings.TrimSpace(string(data[off : off+end])); s != "" && s[0] != '#' && s[0] != '%' {
			return off
		}
		off += end + 1
	}
	return -1
}

// withBlock sets the block size of ReadIntEdgesParallel for a test.
func withBlock(t *testing.T, size int) {
	old := fastBlock
	fastBlock = size
	t.Cleanup(func() { fastBlock = old })
}

// withPiece sets the size of the reads a block is parsed in.
func withPiece(t *testing.T, size int) {
	old := fastPiece
	fastPiece = size
	t.Cleanup(func() { fastPiece = old })
}

func allGraphOptions() []graph.Options {
	var out []graph.Options
	for b := uint8(0); b < 45; b++ {
		out = append(out, fuzzOptions(b))
	}
	return out
}

// TestReadIntEdgesParallelMatchesSerial runs the serial parser's inputs
// under every policy and with blocks of 1, 3, 7 and 64 bytes as well as the
// default, read in pieces of 1 to 64 bytes as well as the default, so that
// lines and headers cross block and piece boundaries.
func TestReadIntEdgesParallelMatchesSerial(t *testing.T) {
	taken, runs := 0, 0
	opts := allGraphOptions()
	sizes := []struct{ block, piece int }{{fastBlock, fastPiece}, {1, 1}, {3, 2}, {7, 64}, {64, 5}, {fastBlock, 3}}
	for i, data := range serialCorpus {
		path, spath := writePair(t, []byte(data))
		for b, size := range sizes {
			withBlock(t, size.block)
			withPiece(t, size.piece)
			for k, opt := range opts {
				// Every policy with the default block; a few with the
				// small ones, different for each input.
				if b > 0 && (k+i+b)%9 != 0 {
					continue
				}
				runs++
				if sameFiles(t, path, spath, opt) {
					taken++
				}
			}
		}
	}
	// Most inputs are plain integer edge lists the parallel reader takes.
	assert.Greater(t, taken, runs/2)
}

// TestReadIntEdgesParallelDeclines: what the general reader must decide.
func TestReadIntEdgesParallelDeclines(t *testing.T) {
	for _, data := range []string{"", "# only comments\n", "a b\n", "007 1\n", "-1 2\n", "0 1 {'weight': 2}\n", "0 1\n1\t2\n", "0 1\n1 2 3 4\n", "0 1\nsource target\n", "0 1\n1 2 0.5\n", "0 1 0.5\n1 2\n", "source,target\n0,1\n1,2,3\n", "\x1f\x8b\x08\x00"} {
		_, _, err := ReadIntEdgesParallel(tempFile(t, "e.txt", data), graph.Options{})
		assert.ErrorIs(t, err, ErrNotFast, "%q", data)
	}
	_, _, err := ReadIntEdgesParallel(filepath.Join(t.TempDir(), "missing.txt"), graph.Options{})
	assert.ErrorContains(t, err, "missing.txt")
	assert.NotErrorIs(t, err, ErrNotFast)
}

// TestReadIntEdgesParallelSparseIDs: only ids present are nodes, ascending,
// and a large id costs no memory in proportion to it.
func TestReadIntEdgesParallelSparseIDs(t *testing.T) {
	path := tempFile(t, "e.txt", "0 2000000000\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, ids, err := ReadIntEdgesParallel(path, graph.Options{})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
	assert.Equal(t, 2, g.Nodes())
	assert.Equal(t, []int64{0, 2000000000}, ids.Ints())
	assert.Equal(t, 1.0, g.Weight(0, 1))

	// Ids on both sides of the paged range, repeated, with a self loop
	// dropped (its node is still present).
	withBlock(t, 5)
	g, ids, err = ReadIntEdgesParallel(tempFile(t, "e.txt", "# ids\n900000000000 3\n3 17\n17 900000000000\n5 5\n3 900000000000 \n"), graph.Options{Duplicates: graph.DuplicateSum, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	assert.Equal(t, []int64{3, 5, 17, 900000000000}, ids.Ints())
	assert.Equal(t, 2.0, g.Weight(0, 3))
	assert.Equal(t, 1.0, g.Weight(2, 3))
	assert.Equal(t, 0, g.RowLen(1))
	want, err := nodeids.FromInts([]int64{3, 5, 17, 900000000000})
	require.NoError(t, err)
	assert.Equal(t, want.Ints(), ids.Ints())
}

// randomEdgeFile writes m random edges on ids below n, with comments, blank
// lines, CRLF and repeats, in one of the separators.
func randomEdgeFile(rng *rand.Rand, n, m int, weighted bool) []byte {
	var b bytes.Buffer
	b.WriteString("# random edges\n")
	sep := []string{" ", "\t", ", "}[rng.IntN(3)]
	for k := 0; k < m; k++ {
		u, v := rng.IntN(n), rng.IntN(n)
		fmt.Fprintf(&b, "%d%s%d", u, sep, v)
		if weighted {
			fmt.Fprintf(&b, "%s%g", sep, float64(rng.IntN(1000))/7)
		}
		switch rng.IntN(20) {
		case 0:
			b.WriteString("\r\n")
		case 1:
			b.WriteString("\n\n% c\n")
		default:
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}

// TestReadIntEdgesParallelGOMAXPROCS: the same graph under GOMAXPROCS 1, 2
// and 8 with many blocks, bitwise equal to the serial reader's.
func TestReadIntEdgesParallelGOMAXPROCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 7))
	data := randomEdgeFile(rng, 3000, 20000, true)
	path := tempFile(t, "e.txt", string(data))
	withBlock(t, 4096)
	withPiece(t, 100)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, opt := range []graph.Options{{Duplicates: graph.DuplicateSum}, {Duplicates: graph.DuplicateMax, Symmetrize: graph.DirectedMean}} {
		var want *graph.CSR
		for _, p := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(p)
			g, _, err := ReadIntEdgesParallel(path, opt)
			require.NoError(t, err)
			if want == nil {
				want = g
				require.True(t, sameAsSerial(t, data, opt))
				continue
			}
			for i := 0; i < g.Nodes(); i++ {
				c1, w1 := want.Row(i)
				c2, w2 := g.Row(i)
				require.Equal(t, c1, c2)
				for k := range w1 {
					require.Equal(t, math.Float64bits(w1[k]), math.Float64bits(w2[k]), "GOMAXPROCS %d node %d", p, i)
				}
			}
		}
	}
}

// TestReadIntEdgesParallelRandomFiles compares random files, with blocks
// small and large, unit and real weights, under several policies.
func TestReadIntEdgesParallelRandomFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := 0; trial < 20; trial++ {
		withBlock(t, 16+rng.IntN(600))
		withPiece(t, 1+rng.IntN(100))
		data := randomEdgeFile(rng, 1+rng.IntN(60), rng.IntN(300), trial%2 == 0)
		for _, opt := range []graph.Options{fuzzOptions(uint8(rng.IntN(45))), {Duplicates: graph.DuplicateSum}} {
			require.True(t, sameAsSerial(t, data, opt), "trial %d", trial)
		}
	}
}

// TestReadIntEdgesParallelHubs: pass 1 counts entries in a byte per id and
// carries multiples of 256 into a second table; hubs with 255, 256, 257,
// 511, 512 and 1300 entries (and self loops, and repeated edges merged or
// summed) must give the serial reader's graph.
func TestReadIntEdgesParallelHubs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var sb strings.Builder
	hubs := map[int]int{0: 255, 3: 256, 1030: 257, 2047: 511, 2048: 512, 5000: 1300}
	for hub, deg := range hubs {
		for k := 0; k < deg; k++ {
			fmt.Fprintf(&sb, "%d %d\n", hub, 6000+rng.IntN(4000))
		}
	}
	for k := 0; k < 3000; k++ {
		fmt.Fprintf(&sb, "%d %d\n", rng.IntN(10000), rng.IntN(10000))
	}
	data := sb.String()
	for _, block := range []int{fastBlock, 997} {
		withBlock(t, block)
		withPiece(t, min(block, 61))
		for _, opt := range []graph.Options{{Duplicates: graph.DuplicateSum}, {Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopKeep}, {Duplicates: graph.DuplicateSum, Symmetrize: graph.Undirected}} {
			require.True(t, sameAsSerial(t, []byte(data), opt), "block %d, options %+v", block, opt)
		}
	}
	// The hubs' rows hold every entry: with repeated edges summed, a hub's
	// weighted degree is its line count (plus what the random lines added).
	path := filepath.Join(t.TempDir(), "hubs.txt")
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	g, ids, err := ReadIntEdgesParallel(path, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	for hub, deg := range hubs {
		i, ok := ids.LookupInt(int64(hub))
		require.True(t, ok)
		require.GreaterOrEqual(t, g.Degree(i), float64(deg), "hub %d", hub)
	}
}

// TestReadIntEdgesParallelErrors: errors name the file and the line also
// when the line is far into a later block.
func TestReadIntEdgesParallelErrors(t *testing.T) {
	withBlock(t, 10)
	for _, tc := range []struct {
		content string
		opt     graph.Options
		line    int
		want    string
	}{
		{"0 1 1\n1 2 1\n# c\n\n2 3 -1\n", graph.Options{}, 5, "weight -1 is negative"},
		{"0 1\n1 2\n2 3\n4 4\n", graph.Options{SelfLoops: graph.SelfLoopError}, 4, "self loop on node 4"},
		{"0 1\n1 2\n2 3\n3 4\n2 1\n", graph.Options{}, 5, "edge (2, 1) repeats line 2"},
		{"0 1\n1 2\n2 3\n3 4\n1 2\n", graph.Options{Symmetrize: graph.DirectedMax}, 5, "edge (1, 2) repeats line 2"},
	} {
		path := tempFile(t, "dir/edges.txt", tc.content)
		_, _, err := ReadIntEdgesParallel(path, tc.opt)
		requireParseError(t, err, tc.line, tc.want)
		assert.Contains(t, err.Error(), path)
	}
}

// FuzzIntEdgesParallel compares the parallel reader with the serial one on
// arbitrary input, block size and policy.
func FuzzIntEdgesParallel(f *testing.F) {
	for k, s := range serialCorpus {
		f.Add([]byte(s), uint8(k), uint8(k%45))
	}
	f.Fuzz(func(t *testing.T, data []byte, block, policy uint8) {
		withBlock(t, 1+int(block))
		withPiece(t, 1+int(block)%7*int(policy)%31)
		sameAsSerial(t, data, fuzzOptions(policy))
	})
}

// TestReadIntEdgesParallelMemory reads a million-edge 0/1 file and checks
// what the read allocated in all: the graph (with its Builder's slack and
// fill cursors), the id table and the read buffers, and no per-edge
// structure beyond them.
func TestReadIntEdgesParallelMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a million-edge file; skipped with -short")
	}
	rng := rand.New(rand.NewPCG(2, 2))
	const n, m = 200_000, 1_000_000
	var b bytes.Buffer
	for k := 0; k < m; k++ {
		fmt.Fprintf(&b, "%d %d\n", rng.IntN(n), rng.IntN(n))
	}
	path := tempFile(t, "big.txt", b.String())
	size := b.Len()
	b = bytes.Buffer{}
	// Frequent collections: the read's buffers must be reused however
	// often the collector runs (a sync.Pool would drop them).
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g, ids, err := ReadIntEdgesParallel(path, graph.Options{Duplicates: graph.DuplicateMax})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.True(t, ids.IsIdentity() || ids.Len() < n)
	allocated := after.TotalAlloc - before.TotalAlloc
	// The graph and its Builder, the id table, and per goroutine a read
	// buffer (1 MiB) and a count batch (under 1 MiB for this file), and
	// 2 MiB of slack: a per-edge array (8 MB) would not fit.
	budget := 1.5*float64(g.Bytes()) + float64(n)*5 + float64(runtime.GOMAXPROCS(0)+1)*(2<<20)
	t.Logf("file %d bytes, graph %d bytes, read allocated %d (budget %.0f)", size, g.Bytes(), allocated, budget)
	assert.LessOrEqual(t, float64(allocated), budget)
	assert.True(t, g.UnitWeights())
}
