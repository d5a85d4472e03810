package generate_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/generate"
)

func ExampleNewSBM() {
	g, err := generate.NewSBM(generate.SBM{Nodes: 1000, Classes: 4, Degree: 8, Mixing: 0.2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	between := 0
	err = g.Generate(context.Background(), func(e generate.Edges) error {
		for k := range e.Src {
			if g.Label(int(e.Src[k])) != g.Label(int(e.Dst[k])) {
				between++
			}
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Nodes(), g.NumEdges(), g.Sizes())
	fmt.Printf("between classes: %.1f\n", float64(between)/float64(g.NumEdges()))
	// Output:
	// 1000 4000 [250 250 250 250]
	// between classes: 0.2
}

func ExampleNewRMAT() {
	g, err := generate.NewRMAT(generate.RMAT{Scale: 10, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	csr, err := generate.Graph(context.Background(), g)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Nodes(), g.NumEdges(), csr.Nodes(), csr.SelfLoops())
	// Output: 1024 16384 1024 0
}
