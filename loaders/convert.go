package loaders

import (
	"os"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// GraphFileReport describes a graph written to a gssl graph file (gssl
// convert): the input and output paths, the graph, its ids and the file's
// size.
type GraphFileReport struct {
	In        string  `json:"in"`
	Out       string  `json:"out"`
	Nodes     int     `json:"nodes"`
	Edges     int     `json:"edges"`
	SelfLoops int     `json:"self_loops"`
	Weighted  bool    `json:"weighted"`
	IDs       string  `json:"ids"` // identity, integer or text
	Bytes     int64   `json:"bytes"`
	Seconds   float64 `json:"seconds"`
}

// DescribeGraphFile describes g with ids, read from in and written to the
// graph file out.
func DescribeGraphFile(in, out string, g *graph.CSR, ids *nodeids.Map) (GraphFileReport, error) {
	st, err := os.Stat(out)
	if err != nil {
		return GraphFileReport{}, err
	}
	r := GraphFileReport{In: in, Out: out, Nodes: g.Nodes(), Edges: g.Edges(), SelfLoops: g.SelfLoops(), Weighted: !g.UnitWeights(), IDs: "identity", Bytes: st.Size()}
	if ids != nil && ids.IsText() {
		r.IDs = "text"
	} else if ids != nil && !ids.IsIdentity() {
		r.IDs = "integer"
	}
	return r, nil
}
