package pipeline

import (
	"fmt"
	"math"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

func init() {
	for _, t := range []any{degMsg{}, normalizeFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(sendDegree)
	beam.RegisterFunction(degreeOf)
}

// degMsg tells a node the degree of one of its neighbours.
type degMsg struct {
	From string
	D    float64
}

func sendDegree(id string, n Node, emit func(string, degMsg)) {
	for _, j := range n.Adj {
		emit(j, degMsg{From: id, D: n.Degree})
	}
}

func degreeOf(id string, n Node) (string, float64) { return id, n.Degree }

// Degrees returns d_i = Σ_j W_ij of every node: PCollection<KV<string,
// float64>>.
func Degrees(s beam.Scope, g Graph) beam.PCollection {
	return beam.ParDo(s.Scope("Degrees"), degreeOf, g.Nodes)
}

// normalizeFn replaces a node's weights by the entries of S.
type normalizeFn struct{}

func (normalizeFn) ProcessElement(id string, nodes func(*Node) bool, msgs func(*degMsg) bool, emit func(string, Node)) error {
	var n Node
	if !nodes(&n) {
		return fmt.Errorf("pipeline: degree sent to %q, which is not a node", id)
	}
	deg := make(map[string]float64, len(n.Adj))
	var m degMsg
	for msgs(&m) {
		deg[m.From] = m.D
	}
	w := make([]float64, len(n.W))
	for k, j := range n.Adj {
		if n.W[k] != 0 {
			w[k] = n.W[k] / math.Sqrt(n.Degree*deg[j])
		}
	}
	n.W = w
	emit(id, n)
	return nil
}

// Normalize returns the graph of S = D^{-1/2} W D^{-1/2}: every node with
// its entries S_ij = W_ij/√(d_i d_j) in place of W_ij (an isolated node
// has none), by one CoGroupByKey of the nodes with their neighbours'
// degrees. Label spreading does not need it (it scales by t = d^{-1/2}
// inside its rounds); it is S as a table, for other uses.
func Normalize(s beam.Scope, g Graph) Graph {
	s = s.Scope("Normalize")
	msgs := beam.ParDo(s, sendDegree, g.Nodes)
	g.Nodes = beam.ParDo(s, normalizeFn{}, beam.CoGroupByKey(s, g.Nodes, msgs))
	return g
}
