package graph_test

import (
	"fmt"
	"log"

	"github.com/gssl/gssl/graph"
)

// A Builder takes the edges twice, in chunks that may come from several
// goroutines: once to count the entries of every row, once to fill them.
func ExampleBuilder() {
	src := []int32{0, 1, 2, 1}
	dst := []int32{1, 2, 0, 0} // the last edge repeats the first
	b, err := graph.NewBuilder(3, false, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		log.Fatal(err)
	}
	if err := b.CountChunk(src, dst); err != nil {
		log.Fatal(err)
	}
	if err := b.FillChunk(src, dst, nil); err != nil {
		log.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		log.Fatal(err)
	}
	cols, ws := g.Row(0)
	fmt.Println(g.Edges(), "edges; row 0:", cols, ws, "unit weights:", g.UnitWeights())
	// Output:
	// 3 edges; row 0: [1 2] [1 1] unit weights: true
}
