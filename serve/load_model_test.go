package serve_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// With GSSL_LOAD_MODEL set (scripts/load-serve.sh m.gssl), TestLoadTest
// serves that saved model; its request is GSSL_LOAD_BODY, or one new node
// joined to the model's first example ids (a triangle, for a model of
// graphs).
func init() {
	path := os.Getenv("GSSL_LOAD_MODEL")
	if path == "" {
		return
	}
	s, err := savedmodel.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "GSSL_LOAD_MODEL:", err)
		os.Exit(2)
	}
	body := os.Getenv("GSSL_LOAD_BODY")
	if body == "" && s.Metadata().Input == serve.InputGraphs {
		b, _ := json.Marshal(serve.Request{Graphs: []serve.Graph{{ID: "load", Nodes: 3, Labels: []int{0, 0, 0}, Edges: [][2]int{{0, 1}, {1, 2}, {2, 0}}}}})
		body = string(b)
	}
	if body == "" {
		var edges []serve.Edge
		for _, id := range s.Metadata().ExampleIDs {
			edges = append(edges, serve.Edge{To: id, Weight: 1})
		}
		node := serve.NewNode{ID: "load", Edges: edges}
		if d := s.Metadata().NodeFeatures; d > 0 {
			node.Features = make([]float64, d)
		}
		b, _ := json.Marshal(serve.Request{Nodes: []serve.NewNode{node}})
		body = string(b)
	}
	serve.LoadPredictor, serve.LoadBody = s, body
}
