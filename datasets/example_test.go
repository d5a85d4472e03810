package datasets_test

import (
	"fmt"

	"github.com/gssl/gssl/datasets"
)

func ExampleCora() {
	ds, err := datasets.Cora()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.Name, ds.Graph.Nodes(), "nodes,", ds.Graph.Edges(), "edges,", ds.Classes, "classes")
	fmt.Println("split:", len(ds.Split.Train), "train,", len(ds.Split.Val), "val,", len(ds.Split.Test), "test")
	// Output:
	// cora 2708 nodes, 5278 edges, 7 classes
	// split: 140 train, 500 val, 1000 test
}
