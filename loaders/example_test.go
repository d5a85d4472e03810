package loaders_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

func ExampleLoadNodeDataset() {
	ds, err := loaders.LoadNodeDataset(filepath.Join("..", "testdata", "cora"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ds.Name, ds.Graph.Nodes(), "nodes", ds.Graph.Edges(), "edges", ds.Classes, "classes")
	fmt.Println("features:", ds.Features.Rows, "×", ds.Features.Cols, "with", ds.Features.NNZ(), "non-zeros")
	fmt.Println("split:", len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test))
	// Output:
	// cora 2708 nodes 5278 edges 7 classes
	// features: 2708 × 1433 with 49216 non-zeros
	// split: 140 500 1000
}

// writeTemp writes files into a fresh temporary folder.
func writeTemp(files map[string]string) string {
	dir, err := os.MkdirTemp("", "loaders-example")
	if err != nil {
		log.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

func ExampleReadEdgeList() {
	dir := writeTemp(map[string]string{"edges.txt": "# u v w\n0 1 0.5\n1 2 2\n2 1 1\n"})
	defer os.RemoveAll(dir)

	// Repeated edges (here 1-2 and 2-1) keep the larger weight.
	g, err := loaders.ReadEdgeList(filepath.Join(dir, "edges.txt"), 0, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Nodes(), "nodes,", g.Edges(), "edges, W(2,1) =", g.Weight(2, 1))

	// Without a merge rule the repeat is an error that names its line.
	_, err = loaders.ReadEdgeList(filepath.Join(dir, "edges.txt"), 0, graph.Options{})
	fmt.Println(err != nil)
	// Output:
	// 3 nodes, 2 edges, W(2,1) = 2
	// true
}

func ExampleLoadTU() {
	dir := writeTemp(map[string]string{
		"TOY_A.txt":               "1, 2\n2, 1\n3, 4\n4, 3\n4, 5\n5, 4\n",
		"TOY_graph_indicator.txt": "1\n1\n2\n2\n2\n",
		"TOY_graph_labels.txt":    "-1\n1\n",
		"TOY_node_labels.txt":     "0\n1\n0\n0\n2\n",
	})
	defer os.RemoveAll(dir)

	ds, err := loaders.LoadTU(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ds.Name, "labels", ds.LabelValues, "classes", ds.Classes())
	for _, g := range ds.Graphs {
		fmt.Println(g.Graph.Nodes(), "nodes", g.Graph.Edges(), "edges, node labels", g.NodeLabels)
	}
	// Output:
	// TOY labels [-1 1] classes [0 1]
	// 2 nodes 1 edges, node labels [0 1]
	// 3 nodes 2 edges, node labels [0 0 2]
}

func ExampleWriteMatrixMarket() {
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}}, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := loaders.WriteMatrixMarket(os.Stdout, g); err != nil {
		log.Fatal(err)
	}
	// Output:
	// %%MatrixMarket matrix coordinate real symmetric
	// 3 3 2
	// 2 1 0.5
	// 3 2 2
}

func ExampleReadDense() {
	dir := writeTemp(map[string]string{"points.csv": "x,y\n0,1\n2.5,-1\n"})
	defer os.RemoveAll(dir)

	x, err := loaders.ReadDense(filepath.Join(dir, "points.csv"))
	if err != nil {
		log.Fatal(err)
	}
	r, c := x.Dims()
	fmt.Println(r, "points in", c, "dimensions; last:", x.RawRowView(r-1))
	// Output:
	// 2 points in 2 dimensions; last: [2.5 -1]
}

func ExampleReadImages() {
	dir := writeTemp(map[string]string{"images_u8.bin": string([]byte{0, 255, 51, 0, 0, 0})})
	defer os.RemoveAll(dir)

	im, err := loaders.ReadImages(filepath.Join(dir, "images_u8.bin"), 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(im.Count, "images;", "first scaled:", im.DenseRange(0, 1).RawRowView(0))
	// Output:
	// 2 images; first scaled: [0 1 0.2]
}

func ExampleReadSplit() {
	dir := writeTemp(map[string]string{"split.txt": "train 0\ntrain 3\nval 1\ntest 2\n"})
	defer os.RemoveAll(dir)

	sp, err := loaders.ReadSplit(filepath.Join(dir, "split.txt"), 4)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sp.Train, sp.Val, sp.Test)

	_, err = loaders.ReadSplit(filepath.Join(dir, "split.txt"), 3)
	fmt.Println(err != nil)
	// Output:
	// [0 3] [1] [2]
	// true
}

func ExampleReadMatrixMarket() {
	dir := writeTemp(map[string]string{"g.mtx": "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 2\n"})
	defer os.RemoveAll(dir)

	// A general matrix that is not symmetric needs a rule to become a graph.
	_, err := loaders.ReadMatrixMarket(filepath.Join(dir, "g.mtx"), graph.Options{})
	fmt.Println(err != nil)
	g, err := loaders.ReadMatrixMarket(filepath.Join(dir, "g.mtx"), graph.Options{Symmetrize: graph.DirectedMax})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Edges(), "edges")
	// Output:
	// true
	// 2 edges
}
