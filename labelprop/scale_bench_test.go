package labelprop

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/krylov"
)

// BenchmarkSpreadingScale times the block CG solve of label spreading at the
// 10 M-edge size of BENCHMARKS.md's "Loading and scale" (10⁶ nodes, 20
// neighbours each, 5 classes, a = 0.5): the graph of GSSL_LP_GRAPH (a .gsg
// file, such as /tmp/gssl-scale/sbm-10M.gsg of scripts/bench-scale.sh) or,
// without it, a random graph of that shape (no locality: every row's 20
// columns drawn uniformly). 100 random seeds, GSSL_LP_CLASSES classes
// (default 5). It times the product by k column segments of p̃
// (segments/k; segments/1 is the one-pass product) and, with
// GSSL_LP_PANELS set, the column panels of the solve (panels/auto, the
// default; panels/w at most w columns at a time; panels/c the row-major
// block), interleaved with -count, and reports seconds per iteration.
//
//	GSSL_LP_GRAPH=/tmp/gssl-scale/sbm-10M.gsg go test ./labelprop -run '^$' -bench SpreadingScale -benchtime 3x
func BenchmarkSpreadingScale(b *testing.B) {
	g := scaleGraph(b)
	n := g.Nodes()
	c := 5
	if s := os.Getenv("GSSL_LP_CLASSES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			b.Fatalf("GSSL_LP_CLASSES=%q: want a positive integer", s)
		}
		c = v
	}
	rng := rand.New(rand.NewPCG(5, 7))
	s := &seeds{n: n, classes: c, class: make([]int32, n)}
	for k, v := range rng.Perm(n)[:100] {
		s.nodes = append(s.nodes, v)
		s.class[v] = int32(k % c)
	}
	rhs := seedRHS(s, 0.5)
	f := mat.NewDense(n, c, newBlock(n*c))
	run := func(b *testing.B, solve func() (Details, error)) {
		var it int
		for b.Loop() {
			f.Zero()
			info, err := solve()
			if err != nil {
				b.Fatal(err)
			}
			it = info.Iterations
		}
		b.ReportMetric(float64(it), "iterations")
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(max(it, 1)), "s/iteration")
	}
	for _, k := range []int{1, 2, 3, 4, 5, 6, 8} {
		b.Run("segments/"+strconv.Itoa(k), func(b *testing.B) {
			defer func(bytes, most int) { spreadSegmentBytes, spreadMaxSegments = bytes, most }(spreadSegmentBytes, spreadMaxSegments)
			spreadSegmentBytes, spreadMaxSegments = (8*n*c+k-1)/k, 64
			if k == 1 {
				spreadSegmentBytes = 0
			}
			run(b, func() (Details, error) {
				cg, err := newCGPanels(g, 0.5, rhs, f, krylov.Settings{}, nil, nil, c)
				if err != nil {
					return Details{}, err
				}
				res, err := cg.run(context.Background())
				return blockInfo(res), err
			})
		})
	}
	if os.Getenv("GSSL_LP_PANELS") == "" {
		return
	}
	for _, w := range []int{0, 1, 2, 3, c} {
		if w > c {
			continue
		}
		name := "panels/" + strconv.Itoa(w)
		if w == 0 {
			name = "panels/auto"
		}
		b.Run(name, func(b *testing.B) {
			run(b, func() (Details, error) {
				cg, err := newCGPanels(g, 0.5, rhs, f, krylov.Settings{}, nil, nil, w)
				if err != nil {
					return Details{}, err
				}
				res, err := cg.run(context.Background())
				return blockInfo(res), err
			})
		})
	}
}

// scaleGraph reads the graph of GSSL_LP_GRAPH, or makes a random one of 10⁶
// nodes with 20 uniformly drawn columns per row, symmetrised.
func scaleGraph(b *testing.B) *graph.CSR {
	if path := os.Getenv("GSSL_LP_GRAPH"); path != "" {
		g, _, err := graphfile.Read(path)
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	const n, deg = 1_000_000, 10
	rng := rand.New(rand.NewPCG(1, 2))
	edges := make([]graph.Edge, 0, n*deg)
	for u := range n {
		for range deg {
			if v := rng.IntN(n); v != u {
				edges = append(edges, graph.Edge{U: u, V: v, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		b.Fatal(err)
	}
	return g
}
