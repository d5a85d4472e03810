package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"
)

// homophilyInfo is how the graph's edges relate to its labelled nodes'
// classes (package homophily), and the family of model that calls for.
type homophilyInfo struct {
	Edges                int         `json:"edges"` // edges between two labelled nodes: what the measures count
	Edge                 float64     `json:"edge_homophily"`
	Adjusted             float64     `json:"adjusted_homophily"`
	LabelInformativeness float64     `json:"label_informativeness"`
	Compatibility        [][]float64 `json:"compatibility"` // row k: where class k's edges lead
	Family               string      `json:"family"`        // smoothing, compatibility or features
	Advice               string      `json:"advice"`
}

// measureHomophily returns the measures of g under labels, or nil and the
// reason when there is nothing to measure.
func measureHomophily(g *graph.CSR, labels []int) (*homophilyInfo, string) {
	if labels == nil {
		return nil, "no labels"
	}
	s, err := homophily.Measure(g, labels)
	if errors.Is(err, homophily.ErrNoEdges) {
		return nil, "no edge joins two labelled nodes"
	}
	if err != nil {
		return nil, err.Error()
	}
	f, advice := homophily.Advise(s)
	h := &homophilyInfo{Edges: s.Edges, Edge: s.Edge, Adjusted: s.Adjusted, LabelInformativeness: s.LabelInformativeness,
		Family: f.String(), Advice: advice}
	for k := 0; k < s.Classes; k++ {
		h.Compatibility = append(h.Compatibility, append([]float64(nil), s.Compatibility.RawRowView(k)...))
	}
	return h, ""
}

func printHomophily(w io.Writer, h *homophilyInfo, why string) {
	if h == nil {
		if why != "" && why != "no labels" {
			fmt.Fprintf(w, "  homophily    not measured: %s\n", why)
		}
		return
	}
	fmt.Fprintf(w, "  homophily    edge %.3f, adjusted %.3f, label informativeness %.3f (%d edges between labelled nodes)\n",
		h.Edge, h.Adjusted, h.LabelInformativeness, h.Edges)
	fmt.Fprintf(w, "  model        %s\n", h.Advice)
}
