package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/gssl/gssl/estimator"
)

// httpError is an answer other than 200, with the field it is about.
type httpError struct {
	status int
	field  string
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(field, format string, args ...any) *httpError {
	return &httpError{status: http.StatusBadRequest, field: field, msg: fmt.Sprintf(format, args...)}
}

// The request as sent, decoded level by level so that an error can name
// the item it is in; pointers tell absent fields from zero ones.
type wireEdge struct {
	To     *string  `json:"to"`
	Weight *float64 `json:"weight"`
}

type wireNode struct {
	ID       *string           `json:"id"`
	Edges    []json.RawMessage `json:"edges"`
	Features *[]float64        `json:"features"`
}

type wireGraph struct {
	ID     *string           `json:"id"`
	Nodes  *int              `json:"nodes"`
	Labels *[]int            `json:"labels"`
	Edges  []json.RawMessage `json:"edges"`
}

type wireRequest struct {
	Nodes  *[]json.RawMessage `json:"nodes"`
	Points *[]json.RawMessage `json:"points"`
	Graphs *[]json.RawMessage `json:"graphs"`
}

// maxWeight is the largest edge weight of a new node, the bound the
// loaders apply to the same weights in files.
const maxWeight = estimator.MaxMagnitude

// limits bound a request's batch and, for graphs, each graph's size.
type limits struct {
	batch, graphNodes, graphEdges int
	// batchNodes and batchEdges bound the sums over the graphs of a batch
	// (0: no bound beyond batch × the per-graph limits).
	batchNodes, batchEdges int
}

func (c Config) limits() limits {
	return limits{batch: c.MaxBatch, graphNodes: c.MaxGraphNodes, graphEdges: c.MaxGraphEdges,
		batchNodes: c.MaxBatchNodes, batchEdges: c.MaxBatchEdges}
}

func tooMany(field string, n int, what string, limit int) *httpError {
	return &httpError{status: http.StatusRequestEntityTooLarge, field: field, msg: fmt.Sprintf("%d %s, more than the server's limit of %d", n, what, limit)}
}

// decodeRequest reads one prediction request from r (already limited in
// size by the caller) and checks its shape: exactly one non-empty batch of
// at most lim.batch items, every node with an id and every edge with a
// target and a finite non-negative weight (1 when absent), every point and
// every node's features (when given) non-empty, every graph within lim's
// sizes with its node indices in range.
// What only the model can check (ids, dimension) is left to it.
func decodeRequest(r io.Reader, lim limits) (*Request, *httpError) {
	w, herr := readRequest(r)
	if herr != nil {
		return nil, herr
	}
	switch {
	case w.Nodes == nil && w.Points == nil && w.Graphs == nil:
		return nil, badRequest("", `the request must have "nodes" (new nodes with their edges to fitted nodes), "points" (feature vectors) or "graphs" (graphs to classify)`)
	case w.Nodes != nil && w.Points != nil:
		return nil, badRequest("points", `give "nodes" or "points", not both`)
	case w.Graphs != nil && (w.Nodes != nil || w.Points != nil):
		return nil, badRequest("graphs", `give one of "nodes", "points" and "graphs", not several`)
	}
	switch {
	case w.Graphs != nil:
		return decodeGraphs(*w.Graphs, lim)
	case w.Nodes != nil:
		return decodeNodes(*w.Nodes, lim.batch)
	}
	return decodePoints(*w.Points, lim.batch)
}

// readRequest reads the body and decodes its top level: one JSON object,
// strictly (checkStrictJSON, no unknown fields) and nothing after it.
func readRequest(r io.Reader) (wireRequest, *httpError) {
	var w wireRequest
	body, err := io.ReadAll(r)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return w, tooLarge(mb)
		}
		return w, badRequest("", "reading the body: %v", err)
	}
	if herr := checkStrictJSON(body); herr != nil {
		return w, herr
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return w, jsonError("", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return w, tooLarge(mb)
		}
		return w, badRequest("", "malformed JSON: the body must hold one JSON object and nothing after it")
	}
	return w, nil
}

// decodeNodes checks a batch of new nodes: at least one and at most
// maxBatch.
func decodeNodes(nodes []json.RawMessage, maxBatch int) (*Request, *httpError) {
	if len(nodes) == 0 {
		return nil, badRequest("nodes", "empty batch: give at least one node")
	}
	if len(nodes) > maxBatch {
		return nil, &httpError{status: http.StatusRequestEntityTooLarge, field: "nodes", msg: fmt.Sprintf("%d nodes in one request, more than the server's limit of %d: split the batch", len(nodes), maxBatch)}
	}
	req := &Request{Nodes: make([]NewNode, len(nodes))}
	for i, raw := range nodes {
		out, herr := decodeNode(i, raw)
		if herr != nil {
			return nil, herr
		}
		req.Nodes[i] = out
	}
	return req, nil
}

// decodeNode checks node i of a batch: an id, features non-empty when
// given, and its edges.
func decodeNode(i int, raw json.RawMessage) (NewNode, *httpError) {
	at := fmt.Sprintf("nodes[%d]", i)
	var n wireNode
	if herr := decodeItem(at, raw, &n); herr != nil {
		return NewNode{}, herr
	}
	if n.ID == nil {
		return NewNode{}, badRequest(at+".id", "missing: every new node needs an id")
	}
	out := NewNode{ID: *n.ID, Edges: make([]Edge, len(n.Edges))}
	if n.Features != nil {
		if len(*n.Features) == 0 {
			return NewNode{}, badRequest(at+".features", "empty feature vector: give the node's features, or leave the field out")
		}
		out.Features = *n.Features
	}
	for k, raw := range n.Edges {
		e, herr := decodeEdge(fmt.Sprintf("nodes[%d].edges[%d]", i, k), raw)
		if herr != nil {
			return NewNode{}, herr
		}
		out.Edges[k] = e
	}
	return out, nil
}

// decodeEdge checks the edge at of a new node: a target and a finite
// weight in [0, maxWeight], 1 when absent.
func decodeEdge(at string, raw json.RawMessage) (Edge, *httpError) {
	var e wireEdge
	if herr := decodeItem(at, raw, &e); herr != nil {
		return Edge{}, herr
	}
	if e.To == nil {
		return Edge{}, badRequest(at+".to", "missing: the id of a fitted node")
	}
	wt := 1.0
	if e.Weight != nil {
		wt = *e.Weight
	}
	if !(wt >= 0) || math.IsInf(wt, 0) {
		return Edge{}, &httpError{status: http.StatusUnprocessableEntity, field: at + ".weight", msg: fmt.Sprintf("weight %v must be finite and ≥ 0", wt)}
	}
	if wt > maxWeight {
		return Edge{}, &httpError{status: http.StatusUnprocessableEntity, field: at + ".weight", msg: fmt.Sprintf("weight %g is beyond %g, where a node's sum of weights overflows (the answer would be the class prior): scale the weights", wt, maxWeight)}
	}
	return Edge{To: *e.To, Weight: wt}, nil
}

// decodePoints checks a batch of points: at least one and at most
// maxBatch, none empty.
func decodePoints(pts []json.RawMessage, maxBatch int) (*Request, *httpError) {
	if len(pts) == 0 {
		return nil, badRequest("points", "empty batch: give at least one point")
	}
	if len(pts) > maxBatch {
		return nil, &httpError{status: http.StatusRequestEntityTooLarge, field: "points", msg: fmt.Sprintf("%d points in one request, more than the server's limit of %d: split the batch", len(pts), maxBatch)}
	}
	req := &Request{Points: make([][]float64, len(pts))}
	for i, raw := range pts {
		at := fmt.Sprintf("points[%d]", i)
		if herr := decodeItem(at, raw, &req.Points[i]); herr != nil {
			return nil, herr
		}
		if len(req.Points[i]) == 0 {
			return nil, badRequest(at, "empty feature vector")
		}
	}
	return req, nil
}

// decodeGraphs checks a batch of graphs: each with labels (one per node)
// or a node count, at most lim.graphNodes nodes and lim.graphEdges edges,
// every edge a pair of node indices in range. A graph's edge count is
// checked before its edges are decoded one by one.
func decodeGraphs(graphs []json.RawMessage, lim limits) (*Request, *httpError) {
	if len(graphs) == 0 {
		return nil, badRequest("graphs", "empty batch: give at least one graph")
	}
	if len(graphs) > lim.batch {
		herr := tooMany("graphs", len(graphs), "graphs in one request", lim.batch)
		herr.msg += ": split the batch"
		return nil, herr
	}
	req := &Request{Graphs: make([]Graph, len(graphs))}
	wires := make([][]json.RawMessage, len(graphs)) // each graph's edges, decoded after every check
	totalNodes, totalEdges := 0, 0
	for i, raw := range graphs {
		at := fmt.Sprintf("graphs[%d]", i)
		out, edges, herr := decodeGraphSizes(at, raw, lim)
		if herr != nil {
			return nil, herr
		}
		// The batch's totals, before any edge is decoded and before the
		// model allocates anything for the batch.
		totalNodes += out.Nodes
		totalEdges += len(edges)
		if lim.batchNodes > 0 && totalNodes > lim.batchNodes {
			herr := tooMany(at, totalNodes, "nodes in the graphs of one request up to this one", lim.batchNodes)
			herr.msg += " in all: split the batch"
			return nil, herr
		}
		if lim.batchEdges > 0 && totalEdges > lim.batchEdges {
			herr := tooMany(at, totalEdges, "edges in the graphs of one request up to this one", lim.batchEdges)
			herr.msg += " in all: split the batch"
			return nil, herr
		}
		req.Graphs[i] = out
		wires[i] = edges
	}
	// Every graph's sizes and the batch's totals are checked before any
	// edge is decoded: a batch past a total costs only its splitting.
	for i, edges := range wires {
		if herr := decodeGraphEdges(fmt.Sprintf("graphs[%d]", i), &req.Graphs[i], edges); herr != nil {
			return nil, herr
		}
	}
	return req, nil
}

// decodeGraphSizes decodes the graph at, without its edges (returned
// raw), and checks its node and edge counts against lim.
func decodeGraphSizes(at string, raw json.RawMessage, lim limits) (Graph, []json.RawMessage, *httpError) {
	var g wireGraph
	if herr := decodeItem(at, raw, &g); herr != nil {
		return Graph{}, nil, herr
	}
	out := Graph{}
	if g.ID != nil {
		out.ID = *g.ID
	}
	switch {
	case g.Labels != nil:
		out.Nodes, out.Labels = len(*g.Labels), *g.Labels
		if out.Nodes > lim.graphNodes {
			return Graph{}, nil, tooMany(at+".labels", out.Nodes, "nodes in one graph", lim.graphNodes)
		}
		if g.Nodes != nil && *g.Nodes != out.Nodes {
			return Graph{}, nil, badRequest(at+".nodes", "%d nodes, but %d labels: give one label per node (or only the count, for unlabelled nodes)", *g.Nodes, out.Nodes)
		}
	case g.Nodes != nil:
		out.Nodes = *g.Nodes
		if out.Nodes < 0 {
			return Graph{}, nil, badRequest(at+".nodes", "%d nodes: the count must be ≥ 0", out.Nodes)
		}
		if out.Nodes > lim.graphNodes {
			return Graph{}, nil, tooMany(at+".nodes", out.Nodes, "nodes in one graph", lim.graphNodes)
		}
	default:
		return Graph{}, nil, badRequest(at, `missing "labels" (one per node) or "nodes" (the count, every node with label 0)`)
	}
	if len(g.Edges) > lim.graphEdges {
		return Graph{}, nil, tooMany(at+".edges", len(g.Edges), "edges in one graph", lim.graphEdges)
	}
	return out, g.Edges, nil
}

// decodeGraphEdges decodes the edges of the graph at into out.Edges, each
// a pair of node indices in range.
func decodeGraphEdges(at string, out *Graph, edges []json.RawMessage) *httpError {
	out.Edges = make([][2]int, len(edges))
	for k, raw := range edges {
		edgeAt := func() string { return fmt.Sprintf("%s.edges[%d]", at, k) } // for errors only
		var pair []int
		// The fast path for the common case; decodeItem names the
		// problem of an edge that does not decode.
		if string(raw) == "null" || json.Unmarshal(raw, &pair) != nil {
			if herr := decodeItem(edgeAt(), raw, &pair); herr != nil {
				return herr
			}
		}
		if len(pair) != 2 {
			return badRequest(edgeAt(), "%d numbers: an edge is a pair of node indices [u, v]", len(pair))
		}
		for _, u := range pair {
			if u < 0 || u >= out.Nodes {
				return &httpError{status: http.StatusUnprocessableEntity, field: edgeAt(), msg: fmt.Sprintf("node index %d is out of range: the graph has %d nodes, 0..%d", u, out.Nodes, out.Nodes-1)}
			}
		}
		out.Edges[k] = [2]int{pair[0], pair[1]}
	}
	return nil
}

// decodeItem decodes one item of a batch, strictly; errors name it.
func decodeItem(at string, raw json.RawMessage, v any) *httpError {
	if string(raw) == "null" {
		return badRequest(at, "null: want a value")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(at, err)
	}
	return nil
}

func tooLarge(mb *http.MaxBytesError) *httpError {
	return &httpError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("the request body is larger than the server's limit of %d bytes: split the batch", mb.Limit)}
}

// jsonError turns a decoding error into an answer naming the field; at is
// the path of the item being decoded ("" for the request).
func jsonError(at string, err error) *httpError {
	join := func(field string) string {
		switch {
		case at == "":
			return field
		case field == "":
			return at
		}
		return at + "." + field
	}
	var (
		mb  *http.MaxBytesError
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &mb):
		return tooLarge(mb)
	case errors.As(err, &syn):
		return badRequest(at, "malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		field := join(typ.Field)
		if field == "" {
			return badRequest("", "the request must be a JSON object, not %s", typ.Value)
		}
		want := jsonType(typ.Type.String())
		if strings.HasPrefix(typ.Value, "number ") && want == "number" {
			return badRequest(field, "%s is out of the range of a float64", typ.Value)
		}
		if strings.HasPrefix(typ.Value, "number ") && want == "integer" {
			return badRequest(field, "%s is not an integer of at most 64 bits", typ.Value)
		}
		return badRequest(field, "%s, want %s", article(typ.Value), article(want))
	case errors.Is(err, io.EOF):
		return badRequest("", "empty body: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", "malformed JSON: the body ends inside a value")
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return badRequest(join(name), "unknown field %q (a request has nodes[].id, nodes[].edges[].to, nodes[].edges[].weight, nodes[].features; points; or graphs[].id, graphs[].labels, graphs[].nodes, graphs[].edges)", name)
	}
	return badRequest("", "malformed JSON: %s", strings.TrimPrefix(msg, "json: "))
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func jsonType(goType string) string {
	switch {
	case goType == "float64":
		return "number"
	case goType == "string" || goType == "*string":
		return "string"
	case goType == "*float64":
		return "number"
	case goType == "int" || goType == "*int":
		return "integer"
	case strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "*[]"):
		return "array"
	}
	return "object"
}
