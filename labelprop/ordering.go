package labelprop

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// Ordering selects the node numbering a solver works in. Whatever the
// ordering, Fit reports scores, probabilities and labels in the caller's
// numbering, and the iterates are the same in exact arithmetic (a solve in
// another numbering sums in another order, so answers agree to rounding).
type Ordering int

const (
	// NaturalOrdering solves in the caller's numbering (the zero value).
	// It is the default because renumbering did not pay inside Fit where
	// it was measured (the labelprop benchmark on PubMed): the faster
	// renumbered solve saved less than the renumbering itself costs.
	NaturalOrdering Ordering = iota
	// ReverseCuthillMcKee renumbers the nodes by graph.ReverseCuthillMcKee
	// before solving: neighbours get nearby numbers, so the products gather
	// from memory that each core has recently touched. It costs one
	// ordering and one copy of the graph per Fit (O(n + nnz) time and
	// memory).
	ReverseCuthillMcKee
)

func (o Ordering) String() string {
	switch o {
	case NaturalOrdering:
		return "natural"
	case ReverseCuthillMcKee:
		return "rcm"
	}
	return fmt.Sprintf("Ordering(%d)", int(o))
}

// ParseOrdering reads the names of String: "natural" or "rcm".
func ParseOrdering(s string) (Ordering, error) {
	switch s {
	case "natural", "none", "":
		return NaturalOrdering, nil
	case "rcm":
		return ReverseCuthillMcKee, nil
	}
	return 0, fmt.Errorf("labelprop: unknown ordering %q: want natural or rcm", s)
}

func checkOrdering(o Ordering) error {
	if o != NaturalOrdering && o != ReverseCuthillMcKee {
		return fmt.Errorf("labelprop: Ordering = %d is invalid: use NaturalOrdering or ReverseCuthillMcKee", int(o))
	}
	return nil
}

// renumbering is a graph in a solver's numbering: node i of pg is node
// perm[i] of the caller's graph, and inv[perm[i]] = i.
type renumbering struct {
	pg        *graph.CSR
	perm, inv []int
}

// renumber returns g renumbered by reverse Cuthill–McKee.
func renumber(g *graph.CSR) (*renumbering, error) {
	perm := graph.ReverseCuthillMcKee(g)
	pg, err := g.Permute(perm)
	if err != nil { // cannot happen: perm is a permutation
		return nil, fmt.Errorf("labelprop: renumbering: %w", err)
	}
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return &renumbering{pg: pg, perm: perm, inv: inv}, nil
}

// toSolver returns a copy of the caller-numbered n×c block a in the
// solver's numbering: row i is row perm[i] of a.
func (r *renumbering) toSolver(a *mat.Dense) *mat.Dense {
	n, c := a.Dims()
	out := mat.NewDense(n, c, nil)
	for i, p := range r.perm {
		copy(out.RawRowView(i), a.RawRowView(p))
	}
	return out
}

// marksToSolver returns the per-node marks v in the solver's numbering.
func (r *renumbering) marksToSolver(v []bool) []bool {
	out := make([]bool, len(v))
	for i, p := range r.perm {
		out[i] = v[p]
	}
	return out
}

// toCaller copies the solver-numbered block a into dst in the caller's
// numbering: row perm[i] of dst is row i of a.
func (r *renumbering) toCaller(dst, a *mat.Dense) {
	for i, p := range r.perm {
		copy(dst.RawRowView(p), a.RawRowView(i))
	}
}
