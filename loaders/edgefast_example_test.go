package loaders_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

// ReadIntEdgesParallel numbers only the ids present, ascending; a file it
// does not read (text ids here) is left to the general reader.
func ExampleReadIntEdgesParallel() {
	dir, err := os.MkdirTemp("", "edges")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "edges.csv")
	if err := os.WriteFile(path, []byte("source,target\n10,20\n20,30\n30,10\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	g, ids, err := loaders.ReadIntEdgesParallel(path, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Nodes(), "nodes with ids", ids.Ints(), "and", g.Edges(), "edges")

	if err := os.WriteFile(path, []byte("a b\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	_, _, err = loaders.ReadIntEdgesParallel(path, graph.Options{})
	fmt.Println(errors.Is(err, loaders.ErrNotFast))
	// Output:
	// 3 nodes with ids [10 20 30] and 3 edges
	// true
}
