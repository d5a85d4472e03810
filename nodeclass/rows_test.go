package nodeclass

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// everyRow is a net whose passes run over every node, whatever rows the
// trainer asks for: the reference of the row-restricted passes.
type everyRow struct{ net }

func (e everyRow) forward([]int) { e.net.forward(nil) }

// TestRowRestrictedTraining checks that training SepGNN (one and two
// layers) and LINKX with passes restricted to the training and validation
// rows gives bitwise the parameters and probabilities of passes over every
// node, with dropout and without, for dense and sparse features, with the
// validation nodes in no particular order.
func TestRowRestrictedTraining(t *testing.T) {
	g, x, truth := sepHetero(t, 300, 4)
	labels, val, valLabels, _ := sepSplit(truth)
	slices.Reverse(val)
	slices.Reverse(valLabels)
	train, ytr := labelled(labels)
	n, d := x.Dims()
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		for _, dropout := range []float64{0.5, 0} {
			build := map[string]func() net{
				"sepgnn-1": func() net { return newTestSep(f, g, d, 1) },
				"sepgnn-2": func() net { return newTestSep(f, g, d, 2) },
				"linkx": func() net {
					s := linkxShape{n: n, d: d, h: 8, c: 3}
					p := newLINKXParams(s, nil)
					initLINKX(p, rand.New(rand.NewPCG(3, 3)))
					return &linkxNet{p: p, g: newLINKXParams(s, nil), s: s, x: f, a: g, w: newLINKXWork(n, s)}
				},
			}
			for name, mk := range build {
				set := trainSettings{model: name, epochs: 12, patience: 50, dropout: dropout, decay: 5e-4, rate: 0.01}
				fit := func(nt net) ([]float64, []float64, int, float64) {
					e, loss, err := trainNet(context.Background(), nt, set, rand.NewPCG(9, 9), train, ytr, val, valLabels)
					require.NoError(t, err)
					return slices.Clone(nt.params()), slices.Clone(nt.prob().RawMatrix().Data), e, loss
				}
				p1, pr1, e1, l1 := fit(mk())
				p0, pr0, e0, l0 := fit(everyRow{mk()})
				require.Equal(t, e0, e1, name)
				require.Equal(t, math.Float64bits(l0), math.Float64bits(l1), "%s: validation loss", name)
				for i := range p0 {
					require.True(t, p0[i] == p1[i], "%s sparse=%v dropout=%v: parameter %d is %v, over every row %v", name, f.Sparse != nil, dropout, i, p1[i], p0[i])
				}
				for i := range pr0 {
					require.Equal(t, math.Float64bits(pr0[i]), math.Float64bits(pr1[i]), "%s: probability %d", name, i)
				}
			}
		}
	}
}

func newTestSep(f Features, g *graph.CSR, d, layers int) net {
	n := g.Nodes()
	s := sepShape{d: d, h: 8, c: 3, layers: layers}
	p := newSepParams(s, nil)
	initSep(p, rand.New(rand.NewPCG(2, 2)))
	return &sepNet{p: p, g: newSepParams(s, nil), s: s, x: f, op: newMeanOp(g), w: newSepWork(n, s)}
}
