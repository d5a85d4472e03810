package graph_test

import (
	"fmt"
	"log"

	"github.com/gssl/gssl/graph"
)

func ExampleFromEdges() {
	// A triangle plus a pendant node; the edge 2–0 is listed twice.
	edges := []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}, {U: 2, V: 0, W: 1}, {U: 0, V: 2, W: 3}, {U: 2, V: 3, W: 1}}
	g, err := graph.FromEdges(4, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("nodes", g.Nodes(), "edges", g.Edges(), "W(0,2) =", g.Weight(0, 2))
	fmt.Println("degrees", g.Degrees())
	y := make([]float64, 4)
	g.MulVecTo(y, []float64{1, 1, 1, 1})
	fmt.Println("W·1 =", y)

	_, err = graph.FromEdges(4, edges, graph.Options{})
	fmt.Println(err)
	// Output:
	// nodes 4 edges 4 W(0,2) = 3
	// degrees [4 3 6 1]
	// W·1 = [4 3 6 1]
	// graph: duplicate edge (0, 2) (duplicate policy: error; choose sum or max to merge)
}

func ExampleCSR_Induced() {
	g, _ := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 3, V: 4, W: 1}}, graph.Options{})
	sub, _ := g.Induced([]int{4, 1, 2})
	fmt.Println("nodes", sub.Nodes(), "edges", sub.Edges(), "original ids", sub.Original)
	local, _ := sub.Local(2)
	fmt.Println("node 2 is local node", local)
	_, count := g.Components()
	fmt.Println("components", count)
	// Output:
	// nodes 3 edges 1 original ids [4 1 2]
	// node 2 is local node 2
	// components 2
}

func ExampleReverseCuthillMcKee() {
	// A path 0 – 3 – 1 – 4 – 2 numbered out of order.
	g, err := graph.FromEdges(5, []graph.Edge{{U: 0, V: 3, W: 1}, {U: 3, V: 1, W: 1}, {U: 1, V: 4, W: 1}, {U: 4, V: 2, W: 1}}, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	perm := graph.ReverseCuthillMcKee(g)
	h, err := g.Permute(perm)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("order:", perm)
	fmt.Println("bandwidth before:", g.Bandwidth(), "after:", h.Bandwidth())
	// Output:
	// order: [2 4 1 3 0]
	// bandwidth before: 3 after: 1
}
