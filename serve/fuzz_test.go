package serve

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeRequest: any body is a request of the promised shape or an
// error with a 4xx status; never a panic. The whole handler runs on it too
// (no recover: a panic fails the fuzz target).
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"nodes":[{"id":"x","edges":[{"to":"a1","weight":1}]}]}`,
		`{"points":[[1,2],[3,4]]}`,
		`{"nodes":[{"id":"x","edges":[{"to":"zz"}]}]}`,
		`{"nodes":[],"points":[]}`,
		`{"points":[[1e308,-0]]}`,
		`{"nodes":[{"id":"x","edges":[],"features":[1,2]}]}`,
		`[]`, `null`, `{"nodes":null}`, `{"nodes":[{"id":null}]}`,
		`{"graphs":[{"id":"g","labels":[0,1,1],"edges":[[0,1],[1,2]]}]}`,
		`{"graphs":[{"nodes":2,"edges":[[0,1],[1,1]]},{"nodes":0,"edges":[]}]}`,
		`{"graphs":[{"nodes":7,"edges":[]}]}`, `{"graphs":[{"labels":[0],"edges":[[0,3]]}]}`,
		`{"graphs":[{"labels":[0,0],"nodes":1,"edges":[[0]]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"graphs":[{"nodes":6,"edges":[]},{"nodes":6,"edges":[]},{"nodes":6,"edges":[]}]}`))
	f.Add([]byte(`{"graphs":[{"nodes":2,"edges":[[0,1],[0,1],[0,1],[0,1],[0,1],[0,1]]},{"nodes":2,"edges":[[0,1],[0,1],[0,1],[0,1],[0,1],[0,1]]}]}`))
	f.Add([]byte(`{"nodes":[{"id":"x","id":"y","edges":[]}]}`))
	f.Add([]byte("{\"points\":[[1]],\"p\xffoints\":[]}"))
	lim := limits{batch: 4, graphNodes: 6, graphEdges: 8, batchNodes: 10, batchEdges: 12}
	h, err := NewHandler(newFake(), Config{MaxBatch: lim.batch, MaxGraphNodes: lim.graphNodes, MaxGraphEdges: lim.graphEdges,
		MaxBatchNodes: lim.batchNodes, MaxBatchEdges: lim.batchEdges, MaxBody: 1 << 12})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, herr := decodeRequest(bytes.NewReader(body), lim)
		if herr != nil {
			if herr.status < 400 || herr.status > 499 || herr.msg == "" {
				t.Fatalf("status %d, message %q", herr.status, herr.msg)
			}
		} else {
			given := 0
			for _, b := range []bool{req.Nodes != nil, req.Points != nil, req.Graphs != nil} {
				if b {
					given++
				}
			}
			if given != 1 {
				t.Fatal("not exactly one of nodes, points and graphs")
			}
			if len(req.Nodes) > 4 || len(req.Points) > 4 || len(req.Graphs) > 4 || len(req.Nodes)+len(req.Points)+len(req.Graphs) == 0 {
				t.Fatalf("batch of %d nodes, %d points, %d graphs", len(req.Nodes), len(req.Points), len(req.Graphs))
			}
			// The batch-total property: the graphs of an accepted request
			// hold at most batchNodes nodes and batchEdges edges together.
			totalNodes, totalEdges := 0, 0
			for _, g := range req.Graphs {
				totalNodes += g.Nodes
				totalEdges += len(g.Edges)
			}
			if totalNodes > lim.batchNodes || totalEdges > lim.batchEdges {
				t.Fatalf("batch of %d nodes and %d edges accepted", totalNodes, totalEdges)
			}
			if !utf8.Valid(body) {
				t.Fatal("a body that is not UTF-8 accepted")
			}
			for _, g := range req.Graphs {
				if g.Nodes < 0 || g.Nodes > lim.graphNodes || len(g.Edges) > lim.graphEdges || (g.Labels != nil && len(g.Labels) != g.Nodes) {
					t.Fatalf("graph of %d nodes, %d labels, %d edges accepted", g.Nodes, len(g.Labels), len(g.Edges))
				}
				for _, e := range g.Edges {
					if min(e[0], e[1]) < 0 || max(e[0], e[1]) >= g.Nodes {
						t.Fatalf("edge %v of a graph of %d nodes accepted", e, g.Nodes)
					}
				}
			}
			for _, n := range req.Nodes {
				if n.Features != nil && len(n.Features) == 0 {
					t.Fatal("empty node features accepted")
				}
				for _, e := range n.Edges {
					if !(e.Weight >= 0) || math.IsInf(e.Weight, 0) || e.Weight > maxWeight {
						t.Fatalf("weight %v accepted", e.Weight)
					}
				}
			}
			for _, p := range req.Points {
				if len(p) == 0 {
					t.Fatal("empty point accepted")
				}
			}
		}
		r := httptest.NewRequest("POST", "/v1/predict", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK && (w.Code < 400 || w.Code > 499) {
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("answer is not JSON: %q", w.Body)
		}
	})
}
