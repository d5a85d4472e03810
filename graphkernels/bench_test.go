package graphkernels_test

import (
	"context"
	"testing"

	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/loaders"
)

func loadTU(tb testing.TB, name string) []graphkernels.Graph {
	ds, err := loaders.LoadTU(sharedtest.Data(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	graphs := make([]graphkernels.Graph, len(ds.Graphs))
	for i, g := range ds.Graphs {
		graphs[i] = graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
	}
	return graphs
}

// BenchmarkWLGram times the WL Gram matrix of height 5 from the loaded
// graphs: relabelling, features and the dense Gram matrix, as wl.py's
// gram_seconds.
func BenchmarkWLGram(b *testing.B) {
	for _, name := range []string{"MUTAG", "ENZYMES"} {
		graphs := loadTU(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				wl := &graphkernels.WeisfeilerLehman{H: 5}
				if _, err := graphkernels.FitGram(context.Background(), wl, graphs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/features", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				wl := &graphkernels.WeisfeilerLehman{H: 5}
				if err := wl.Fit(context.Background(), graphs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOtherGraphKernels times the shortest-path and random-walk Gram
// matrices on MUTAG.
func BenchmarkOtherGraphKernels(b *testing.B) {
	graphs := loadTU(b, "MUTAG")
	for _, c := range []struct {
		name string
		k    func() graphkernels.Kernel
	}{
		{"SP", func() graphkernels.Kernel { return &graphkernels.ShortestPath{} }},
		{"RW", func() graphkernels.Kernel { return &graphkernels.RandomWalk{Lambda: 0.01} }},
	} {
		b.Run("MUTAG/"+c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := graphkernels.FitGram(context.Background(), c.k(), graphs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
