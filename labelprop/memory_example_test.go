package labelprop_test

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"log"

	"github.com/gssl/gssl/labelprop"
)

// A fit with float32 iterate blocks and the label stopping rule, and the
// heap it needs beyond the graph, known before fitting.
func ExampleSpreading_MemoryBytes() {
	g := twoTriangles()
	m := labelprop.Spreading{Alpha: 0.9, Classes: 2, Float32: true, Stop: labelprop.StopLabels}
	fmt.Println("bytes beyond the graph:", m.MemoryBytes(g)) // 8nc + 53n + 4n, n = 6, c = 2
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("labels:", m.Labels())
	// Output:
	// bytes beyond the graph: 438
	// labels: [0 0 0 1 1 1]
}

// Values of a in increasing order, each fit started from the previous one's
// scores: the same labels in fewer iterations.
func ExampleSpreading_warmStart() {
	g := twoTriangles()
	var prev *labelprop.Spreading
	for _, a := range []float64{0.5, 0.9, 0.99} {
		m := &labelprop.Spreading{Alpha: a, WarmStart: prev}
		if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}); err != nil {
			log.Fatal(err)
		}
		fmt.Println(a, m.Labels())
		prev = m
	}
	// Output:
	// 0.5 [0 0 0 1 1 1]
	// 0.9 [0 0 0 1 1 1]
	// 0.99 [0 0 0 1 1 1]
}
