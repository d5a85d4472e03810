package generate

import (
	"context"

	"github.com/gssl/gssl/graph"
)

// BuildGraph builds the graph of gen with GraphOptions by counting
// (graph.Builder): the edges are drawn twice from the same streams, once to
// count every row and once to fill it, and none is held. Memory is the
// graph plus the Builder's extra (graph.Builder: k·n − 8n + h·E/8 bytes for
// E stored entries, a quarter of a 0/1 graph's bytes at most) and one
// batch of edge chunks, where Graph holds 16 bytes per edge besides; the
// price is a second draw of the edges. The graph is bitwise Graph's: the
// Builder's rows do not depend on the order of the edges, so an
// UnorderedGenerator's chunks are counted and filled on the goroutines
// that draw them.
func BuildGraph(ctx context.Context, gen Generator) (*graph.CSR, error) {
	b, err := graph.NewBuilder(gen.Nodes(), false, GraphOptions())
	if err != nil {
		return nil, err
	}
	each := gen.Generate
	if u, ok := gen.(UnorderedGenerator); ok {
		each = u.GenerateUnordered
	}
	if err := each(ctx, func(e Edges) error { return b.CountChunk(e.Src, e.Dst) }); err != nil {
		return nil, err
	}
	if err := each(ctx, func(e Edges) error { return b.FillChunk(e.Src, e.Dst, nil) }); err != nil {
		return nil, err
	}
	return b.Build()
}
