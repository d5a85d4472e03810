package loaders_test

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

func ExampleReadNPY() {
	x, err := loaders.ReadNPY(filepath.Join("..", "testdata", "formats", "u8_3d.npy"))
	if err != nil {
		log.Fatal(err)
	}
	r, c := x.Dims()
	fmt.Println("a (2, 3, 4) array as", r, "×", c, "rows:", x.RawRowView(1)[:4])
	// Output:
	// a (2, 3, 4) array as 2 × 12 rows: [12 13 14 15]
}

func ExampleReadScipyGraph() {
	path := filepath.Join("..", "testdata", "formats", "graph_directed_csr.npz")
	if _, err := loaders.ReadScipyGraph(path, graph.Options{}); err != nil {
		fmt.Println("as it is: not symmetric")
	}
	g, err := loaders.ReadScipyGraph(path, graph.Options{Symmetrize: graph.DirectedMax, SelfLoops: graph.SelfLoopDrop})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("max(A, Aᵀ):", g.Nodes(), "nodes", g.Edges(), "edges, W₀₁ =", g.Weight(0, 1))
	// Output:
	// as it is: not symmetric
	// max(A, Aᵀ): 5 nodes 4 edges, W₀₁ = 3
}

func ExampleReadSVMLight() {
	x, y, err := loaders.ReadSVMLight(filepath.Join("..", "testdata", "formats", "svm_classes.txt"), false)
	if err != nil {
		log.Fatal(err)
	}
	cols, vals := x.Row(0)
	fmt.Println(x.Rows, "samples,", x.Cols, "features; labels", y, "; row 0:", cols, vals)
	// Output:
	// 4 samples, 4 features; labels [1 0 2 1] ; row 0: [1 3] [1.5 2]
}

func ExampleLoadOGB() {
	ds, err := loaders.LoadOGB(filepath.Join("..", "testdata", "ogb-tiny", "tiny"), "time")
	if err != nil {
		log.Fatal(err)
	}
	_, d := ds.DenseFeatures.Dims()
	fmt.Println(ds.Name, ds.Graph.Nodes(), "nodes", ds.Graph.Edges(), "edges", ds.Classes, "classes", d, "features")
	fmt.Println("split:", len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test))
	// Output:
	// tiny 40 nodes 88 edges 3 classes 4 features
	// split: 20 10 10
}
