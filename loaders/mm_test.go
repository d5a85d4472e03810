package loaders

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// roundTripTol is zero: strconv's shortest 'g' formatting reads back to the
// identical float64, so a written graph must come back bit for bit.
const roundTripTol = 0

func randomGraph(t *testing.T, rng *rand.Rand, n, m int) *graph.CSR {
	t.Helper()
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: rng.IntN(n), V: rng.IntN(n), W: rng.ExpFloat64()}
	}
	edges = append(edges, graph.Edge{U: 0, V: 1, W: 0}) // an explicit zero survives
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	return g
}

func TestMatrixMarketRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []struct{ n, m int }{{1, 0}, {2, 1}, {10, 30}, {200, 1000}} {
		g := randomGraph(t, rng, max(size.n, 2), size.m)
		var buf bytes.Buffer
		require.NoError(t, WriteMatrixMarket(&buf, g))
		for _, data := range [][]byte{buf.Bytes(), gzipped(t, buf.Bytes())} {
			got, err := ReadMatrixMarket(writeFile(t, t.TempDir(), "g.mtx", data), graph.Options{})
			require.NoError(t, err)
			require.Equal(t, g.Nodes(), got.Nodes())
			assert.Equal(t, g.NNZ(), got.NNZ(), "explicit zeros are kept")
			assert.Equal(t, g.SelfLoops(), got.SelfLoops())
			assert.True(t, mat.EqualApprox(g.Dense(), got.Dense(), roundTripTol))
		}
	}
}

func TestWriteMatrixMarketText(t *testing.T) {
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 2, V: 2, W: 3}, {U: 2, V: 0, W: 1e-20}}, graph.Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteMatrixMarket(&buf, g))
	assert.Equal(t, "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 0.5\n3 1 1e-20\n3 3 3\n", buf.String())
}

func TestReadMatrixMarket(t *testing.T) {
	sym := mat.NewDense(3, 3, []float64{
		0, 2, 1,
		2, 0, 0,
		1, 0, 5,
	})
	for _, tc := range []struct {
		name    string
		content string
		opt     graph.Options
		want    *mat.Dense
	}{
		{"real symmetric", "%%MatrixMarket matrix coordinate real symmetric\n% comment\n\n3 3 3\n2 1 2.0\n3 1 1\n3 3 5\n", graph.Options{}, sym},
		{"upper triangle", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 2 2\n1 3 1\n3 3 5\n", graph.Options{}, sym},
		{"integer general symmetric", "%%matrixmarket MATRIX Coordinate INTEGER General\n3 3 5\n2 1 2\n1 2 2\n3 1 1\n1 3 1\n3 3 5\n", graph.Options{}, sym},
		{"pattern", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 1\n", graph.Options{},
			mat.NewDense(3, 3, []float64{0, 1, 1, 1, 0, 0, 1, 0, 0})},
		{"general symmetrised by max", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 2\n3 1 1\n3 3 5\n", graph.Options{Symmetrize: graph.DirectedMax}, sym},
		{"repeats summed", "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n2 1 1.5\n1 2 0.5\n3 1 1\n3 3 5\n", graph.Options{Duplicates: graph.DuplicateSum}, sym},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMatrixMarket(tempFile(t, "m.mtx", tc.content), tc.opt)
			require.NoError(t, err)
			assert.True(t, mat.Equal(tc.want, g.Dense()), "got\n%v", mat.Formatted(g.Dense()))
		})
	}
}

func TestReadMatrixMarketBadInput(t *testing.T) {
	const h = "%%MatrixMarket matrix coordinate real symmetric\n"
	for _, tc := range []struct {
		name    string
		content string
		line    int
		want    string
	}{
		{"not symmetric", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 1 3\n", 0, "general matrix is not symmetric: entries (1, 2) and (2, 1) differ"},
		{"missing mirror", "%%MatrixMarket matrix coordinate real general\n3 3 1\n3 1 1\n", 0, "entries (1, 3) and (3, 1) differ"},
		{"no header", "3 3 1\n1 1 1\n", 1, `want "%%MatrixMarket matrix coordinate`},
		{"array format", "%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n", 1, `format "array" is not supported`},
		{"complex", "%%MatrixMarket matrix coordinate complex general\n", 1, `field "complex" is not supported`},
		{"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n", 1, `symmetry "skew-symmetric" is not supported`},
		{"not square", h + "3 4 0\n", 2, "matrix is 3×4"},
		{"bad size line", h + "3 3\n", 2, `want size line "rows cols entries", got "3 3"`},
		{"no size line", h + "% only comments\n", 0, "no size line"},
		{"too few entries", h + "3 3 2\n1 1 1\n", 0, "1 entries, want 2 as the size line (line 2) says"},
		{"too many entries", h + "3 3 1\n1 1 1\n2 2 1\n", 4, "entry beyond the 1 of the size line (line 2)"},
		{"index zero", h + "3 3 1\n0 1 1\n", 3, "index 0 out of range [1, 3]"},
		{"index too large", h + "3 3 1\n4 1 1\n", 3, "index 4 out of range [1, 3]"},
		{"missing value", h + "3 3 1\n2 1\n", 3, `want real entry "i j value", got "2 1"`},
		{"integer field with real", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 1\n2 1 1.5\n", 3, `value "1.5" is not an integer`},
		{"negative weight", h + "3 3 1\n2 1 -1\n", 3, "weight -1 is negative"},
		{"NaN weight", h + "3 3 1\n2 1 nan\n", 3, "weight nan is not finite"},
		{"repeated entry", h + "3 3 2\n2 1 1\n1 2 1\n", 4, "edge (1, 2) repeats line 3"},
		{"self loop rejected", h + "3 3 1\n2 2 1\n", 3, "self loop on node 2"},
		{"empty", "", 0, "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMatrixMarket(tempFile(t, "m.mtx", tc.content), graph.Options{SelfLoops: graph.SelfLoopError})
			requireParseError(t, err, tc.line, tc.want)
		})
	}
}
