package homophily

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// Thresholds of Advise.
const (
	// HomophilousAdjusted is the adjusted homophily from which a graph is
	// called homophilous. The citation and co-purchase graphs gssl ships
	// measure 0.6–0.8, the heterophilous benchmarks below 0.1.
	HomophilousAdjusted = 0.3
	// InformativeLI is the label informativeness from which the
	// neighbours' classes are worth propagating on a heterophilous graph.
	InformativeLI = 0.1
)

// Stats are the measures of package homophily on one labelling.
type Stats struct {
	// Edges is the number of edges between two labelled nodes that were
	// counted, Weight their total weight (E).
	Edges  int
	Weight float64
	// Classes is the number of classes (1 + the largest label).
	Classes int
	// Edge, Adjusted and LabelInformativeness are h_edge, h_adj and LI.
	Edge, Adjusted, LabelInformativeness float64
	// Compatibility is H, Classes × Classes; a class with no counted edge
	// has a row of zeros.
	Compatibility *mat.Dense
}

// ErrNoEdges is returned when no edge joins two labelled nodes.
var ErrNoEdges = errors.New("homophily: no edge joins two labelled nodes")

// Measure computes the measures of g's edges under labels (one per node,
// −1 or any negative value for unknown). Its memory is Classes² floats
// beside the graph.
func Measure(g *graph.CSR, labels []int) (Stats, error) {
	n := g.Nodes()
	if len(labels) != n {
		return Stats{}, fmt.Errorf("homophily: %d labels for %d nodes", len(labels), n)
	}
	c := 0
	for _, l := range labels {
		c = max(c, l+1)
	}
	if c == 0 {
		return Stats{}, errors.New("homophily: no node is labelled")
	}
	if c > n {
		return Stats{}, fmt.Errorf("homophily: label %d for %d nodes: classes are numbered 0..C−1", c-1, n)
	}
	e := mat.NewDense(c, c, nil) // E_kl, both directions
	s := Stats{Classes: c}
	for u := 0; u < n; u++ {
		ku := labels[u]
		if ku < 0 {
			continue
		}
		cols, w := g.Row(u)
		for i, v := range cols {
			kv := labels[v]
			if kv < 0 || int(v) == u {
				continue
			}
			if !(w[i] >= 0) || math.IsInf(w[i], 0) {
				return Stats{}, fmt.Errorf("homophily: edge %d–%d has weight %v", u, v, w[i])
			}
			e.Set(ku, kv, e.At(ku, kv)+w[i])
			if int(v) > u {
				s.Edges++
				s.Weight += w[i]
			}
		}
	}
	if s.Edges == 0 || s.Weight == 0 {
		return s, ErrNoEdges
	}
	two := 2 * s.Weight
	var same, sumP2, hp, hpbar float64
	s.Compatibility = mat.NewDense(c, c, nil)
	for k := 0; k < c; k++ {
		same += e.At(k, k)
		d := 0.0
		for l := 0; l < c; l++ {
			d += e.At(k, l)
			if p := e.At(k, l) / two; p > 0 {
				hp += p * math.Log(p)
			}
		}
		if d > 0 {
			for l := 0; l < c; l++ {
				s.Compatibility.Set(k, l, e.At(k, l)/d)
			}
		}
		pbar := d / two
		sumP2 += pbar * pbar
		if pbar > 0 {
			hpbar += pbar * math.Log(pbar)
		}
	}
	s.Edge = same / two
	if sumP2 < 1 {
		s.Adjusted = (s.Edge - sumP2) / (1 - sumP2)
	} else {
		s.Adjusted = 1 // one class only: every counted edge is within it
	}
	if hpbar < 0 {
		s.LabelInformativeness = 2 - hp/hpbar
	} else {
		s.LabelInformativeness = 1
	}
	return s, nil
}

// Family is the kind of model a graph calls for.
type Family int

const (
	// Smoothing models assume neighbours share classes: label
	// spreading, SGC, APPNP, Correct & Smooth.
	Smoothing Family = iota
	// Compatibility models propagate labels through a class
	// compatibility matrix (linearised belief propagation).
	Compatibility
	// Features models rely on each node's own features, with the
	// neighbours' kept in channels of their own.
	Features
	// Unknown is the family of a graph whose labels cannot say which of
	// the others it calls for: no edge joins two labelled nodes
	// (ErrNoEdges), so a selection has to try the families alike.
	Unknown
)

func (f Family) String() string {
	switch f {
	case Smoothing:
		return "smoothing"
	case Compatibility:
		return "compatibility"
	case Features:
		return "features"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// Advise returns the family of model the measures call for and one line
// that says why.
func Advise(s Stats) (Family, string) {
	switch {
	case s.Adjusted >= HomophilousAdjusted:
		return Smoothing, fmt.Sprintf("homophilous (adjusted homophily %.2f ≥ %.2f): neighbours share classes, so label spreading, SGC, APPNP or C&S", s.Adjusted, HomophilousAdjusted)
	case s.LabelInformativeness >= InformativeLI:
		return Compatibility, fmt.Sprintf("heterophilous (adjusted homophily %.2f) but the neighbours' classes are informative (label informativeness %.2f ≥ %.2f): propagation through a class compatibility matrix", s.Adjusted, s.LabelInformativeness, InformativeLI)
	}
	return Features, fmt.Sprintf("heterophilous (adjusted homophily %.2f) and the neighbours' classes say little (label informativeness %.2f < %.2f): a model of the node's own features, the neighbours' in separate channels", s.Adjusted, s.LabelInformativeness, InformativeLI)
}

// Report is what Measure and Advise find, in a form to print or encode
// (gssl info's "homophily"), the compatibility matrix as rows.
type Report struct {
	Edges                int         `json:"edges"` // edges between two labelled nodes: what the measures count
	Edge                 float64     `json:"edge_homophily"`
	Adjusted             float64     `json:"adjusted_homophily"`
	LabelInformativeness float64     `json:"label_informativeness"`
	Compatibility        [][]float64 `json:"compatibility"` // row k: where class k's edges lead
	Family               string      `json:"family"`        // smoothing, compatibility or features
	Advice               string      `json:"advice"`
}

// Describe measures g under labels (Measure) and says which family of model
// that calls for (Advise). Its errors are Measure's.
func Describe(g *graph.CSR, labels []int) (*Report, error) {
	s, err := Measure(g, labels)
	if err != nil {
		return nil, err
	}
	f, advice := Advise(s)
	r := &Report{Edges: s.Edges, Edge: s.Edge, Adjusted: s.Adjusted, LabelInformativeness: s.LabelInformativeness, Family: f.String(), Advice: advice}
	for k := range s.Classes {
		r.Compatibility = append(r.Compatibility, append([]float64(nil), s.Compatibility.RawRowView(k)...))
	}
	return r, nil
}
