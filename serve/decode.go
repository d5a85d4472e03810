package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
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

// The request as sent: pointers tell absent fields from zero ones.
type wireEdge struct {
	To     *string  `json:"to"`
	Weight *float64 `json:"weight"`
}

type wireNode struct {
	ID    *string    `json:"id"`
	Edges []wireEdge `json:"edges"`
}

type wireRequest struct {
	Nodes  *[]wireNode  `json:"nodes"`
	Points *[][]float64 `json:"points"`
}

// decodeRequest reads one prediction request from r (already limited in
// size by the caller) and checks its shape: exactly one non-empty batch of
// at most maxBatch items, every node with an id and every edge with a target
// and a finite non-negative weight (1 when absent), every point non-empty.
// What only the model can check (ids, dimension) is left to it.
func decodeRequest(r io.Reader, maxBatch int) (*Request, *httpError) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w wireRequest
	if err := dec.Decode(&w); err != nil {
		return nil, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge(mb)
		}
		return nil, badRequest("", "malformed JSON: the body must hold one JSON object and nothing after it")
	}
	switch {
	case w.Nodes == nil && w.Points == nil:
		return nil, badRequest("", `the request must have "nodes" (new nodes with their edges to fitted nodes) or "points" (feature vectors)`)
	case w.Nodes != nil && w.Points != nil:
		return nil, badRequest("points", `give "nodes" or "points", not both`)
	}
	req := &Request{}
	if w.Nodes != nil {
		nodes := *w.Nodes
		if len(nodes) == 0 {
			return nil, badRequest("nodes", "empty batch: give at least one node")
		}
		if len(nodes) > maxBatch {
			return nil, &httpError{status: http.StatusRequestEntityTooLarge, field: "nodes", msg: fmt.Sprintf("%d nodes in one request, more than the server's limit of %d: split the batch", len(nodes), maxBatch)}
		}
		req.Nodes = make([]NewNode, len(nodes))
		for i, n := range nodes {
			if n.ID == nil {
				return nil, badRequest(fmt.Sprintf("nodes[%d].id", i), "missing: every new node needs an id")
			}
			out := NewNode{ID: *n.ID, Edges: make([]Edge, len(n.Edges))}
			for k, e := range n.Edges {
				if e.To == nil {
					return nil, badRequest(fmt.Sprintf("nodes[%d].edges[%d].to", i, k), "missing: the id of a fitted node")
				}
				wt := 1.0
				if e.Weight != nil {
					wt = *e.Weight
				}
				if !(wt >= 0) || math.IsInf(wt, 0) {
					return nil, &httpError{status: http.StatusUnprocessableEntity, field: fmt.Sprintf("nodes[%d].edges[%d].weight", i, k), msg: fmt.Sprintf("weight %v must be finite and ≥ 0", wt)}
				}
				out.Edges[k] = Edge{To: *e.To, Weight: wt}
			}
			req.Nodes[i] = out
		}
		return req, nil
	}
	pts := *w.Points
	if len(pts) == 0 {
		return nil, badRequest("points", "empty batch: give at least one point")
	}
	if len(pts) > maxBatch {
		return nil, &httpError{status: http.StatusRequestEntityTooLarge, field: "points", msg: fmt.Sprintf("%d points in one request, more than the server's limit of %d: split the batch", len(pts), maxBatch)}
	}
	for i, p := range pts {
		if len(p) == 0 {
			return nil, badRequest(fmt.Sprintf("points[%d]", i), "empty feature vector")
		}
	}
	req.Points = pts
	return req, nil
}

func tooLarge(mb *http.MaxBytesError) *httpError {
	return &httpError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf("the request body is larger than the server's limit of %d bytes: split the batch", mb.Limit)}
}

// jsonError turns a decoding error into an answer naming the field.
func jsonError(err error) *httpError {
	var (
		mb  *http.MaxBytesError
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &mb):
		return tooLarge(mb)
	case errors.As(err, &syn):
		return badRequest("", "malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return badRequest("", "the request must be a JSON object, not %s", typ.Value)
		}
		return badRequest(field, "%s is %s, not a %s", field, typ.Value, jsonType(typ.Type.String()))
	case errors.Is(err, io.EOF):
		return badRequest("", "empty body: send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", "malformed JSON: the body ends inside a value")
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return badRequest(name, "unknown field %q (a request has nodes[].id, nodes[].edges[].to, nodes[].edges[].weight, or points)", name)
	}
	return badRequest("", "malformed JSON: %s", strings.TrimPrefix(msg, "json: "))
}

func jsonType(goType string) string {
	switch {
	case goType == "float64":
		return "number"
	case goType == "string" || goType == "*string":
		return "string"
	case goType == "*float64":
		return "number"
	case strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "*[]"):
		return "array"
	}
	return "object"
}
