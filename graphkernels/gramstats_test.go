package graphkernels

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// TestSortGramByClass checks the ordered matrix against the Cosine
// kernel's own Gram matrix and the block means against a brute-force mean
// over every pair of graphs by their labels.
func TestSortGramByClass(t *testing.T) {
	graphs, labels := gramStatGraphs(t)
	ctx := context.Background()
	raw, err := FitGram(ctx, &WeisfeilerLehman{H: 2}, graphs)
	require.NoError(t, err)
	cos, err := FitGram(ctx, &Cosine{Kernel: &WeisfeilerLehman{H: 2}}, graphs)
	require.NoError(t, err)
	g, err := SortGramByClass(raw, labels, true)
	require.NoError(t, err)
	n := len(labels)
	require.Len(t, g.Order, n)
	for a := 1; a < n; a++ {
		ia, ib := g.Order[a-1], g.Order[a]
		require.True(t, labels[ia] < labels[ib] || labels[ia] == labels[ib] && ia < ib, "order at %d", a)
	}
	for a, i := range g.Order {
		for b, j := range g.Order {
			require.InDelta(t, cos.At(i, j), g.Values[a*n+b], 1e-12, "(%d, %d)", i, j)
		}
	}
	require.Equal(t, []int{-1, 2, 7}, g.Classes)
	for p, cp := range g.Classes {
		for q, cq := range g.Classes {
			s, cnt := 0.0, 0
			for i := range labels {
				for j := range labels {
					if labels[i] == cp && labels[j] == cq {
						s, cnt = s+cos.At(i, j), cnt+1
					}
				}
			}
			assert.InDelta(t, s/float64(cnt), g.Means.At(p, q), 1e-12, "classes %d, %d", cp, cq)
		}
	}
	assert.Equal(t, g.Starts[1:len(g.Starts)-1], g.Bounds())

	// Without cosine the values are the Gram matrix's; a zero diagonal
	// gives NaN under cosine and is left out of the means.
	plain, err := SortGramByClass(raw, labels, false)
	require.NoError(t, err)
	assert.Equal(t, raw.At(plain.Order[0], plain.Order[1]), plain.Values[1])
	z := mat.NewSymDense(2, []float64{0, 0, 0, 4})
	zg, err := SortGramByClass(z, []int{0, 0}, true)
	require.NoError(t, err)
	assert.True(t, math.IsNaN(zg.Values[0]))
	assert.Equal(t, 1.0, zg.Means.At(0, 0))

	_, err = SortGramByClass(raw, labels[1:], true)
	require.ErrorContains(t, err, "labels for a")
}

// TestFeatureCount checks the dictionary size against the feature
// vectors themselves.
func TestFeatureCount(t *testing.T) {
	graphs, _ := gramStatGraphs(t)
	ctx := context.Background()
	wl := &WeisfeilerLehman{H: 2}
	require.NoError(t, wl.Fit(ctx, graphs))
	seen := map[int32]bool{}
	for _, v := range wl.Features() {
		for _, i := range v.Idx {
			seen[i] = true
		}
	}
	assert.Equal(t, len(seen), FeatureCount(wl))
	c := &Cosine{Kernel: &WeisfeilerLehman{H: 2}}
	require.NoError(t, c.Fit(ctx, graphs))
	assert.Equal(t, wl.Dimension(), FeatureCount(c))
	sp := &ShortestPath{}
	require.NoError(t, sp.Fit(ctx, graphs))
	maxIdx := int32(-1)
	for _, v := range sp.Features() {
		for _, i := range v.Idx {
			maxIdx = max(maxIdx, i)
		}
	}
	assert.Equal(t, int(maxIdx)+1, FeatureCount(sp))
	assert.Equal(t, 0, FeatureCount(&RandomWalk{Lambda: 0.01}))
}

// gramStatGraphs returns cycles, paths and stars of a few sizes with
// degree labels, of classes 7, 2 and −1, interleaved.
func gramStatGraphs(t *testing.T) ([]Graph, []int) {
	var graphs []Graph
	var labels []int
	for _, n := range []int{4, 5, 7} {
		for k, a := range []*graph.CSR{cycle(t, n), path(t, n), star(t, n-1)} {
			graphs = append(graphs, Graph{Adj: a, Labels: DegreeLabels(a)})
			labels = append(labels, []int{7, 2, -1}[k])
		}
	}
	return graphs, labels
}
