package laplacian

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linop"
)

// Kind selects a normalisation.
type Kind int

const (
	// Unnormalized is L_un = D − W.
	Unnormalized Kind = iota
	// Symmetric is L_sym = I − D^{-1/2} W D^{-1/2}.
	Symmetric
	// RandomWalk is L_rw = I − D^{-1} W (not symmetric).
	RandomWalk
	// NormalizedAdjacency is S = D^{-1/2} W D^{-1/2} = I − L_sym.
	NormalizedAdjacency
)

func (k Kind) String() string {
	switch k {
	case Unnormalized:
		return "unnormalized"
	case Symmetric:
		return "symmetric"
	case RandomWalk:
		return "random-walk"
	case NormalizedAdjacency:
		return "normalized-adjacency"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind reads the names used on the command line: un, sym, rw, adj (and
// the full names of String).
func ParseKind(s string) (Kind, error) {
	switch s {
	case "un", "unnormalized":
		return Unnormalized, nil
	case "sym", "symmetric":
		return Symmetric, nil
	case "rw", "random-walk":
		return RandomWalk, nil
	case "adj", "S", "normalized-adjacency":
		return NormalizedAdjacency, nil
	}
	return 0, fmt.Errorf("laplacian: unknown kind %q: want un, sym, rw or adj", s)
}

// IsolatedPolicy says what to do with nodes of degree zero.
type IsolatedPolicy int

const (
	// IsolatedComponent (the zero value) makes a node of degree zero a
	// connected component of its own: D^{-1/2}_ii := D^{-1}_ii := 0 and its
	// rows of L_sym and L_rw are zero, so it adds one eigenvalue 0, as every
	// other component does (F. Chung, "Spectral Graph Theory", 1997, §1.2;
	// scipy.sparse.csgraph.laplacian(normed=True);
	// networkx.normalized_laplacian_matrix). Its row and column of S are
	// zero.
	IsolatedComponent IsolatedPolicy = iota
	// IsolatedError makes constructors fail, naming the first isolated
	// node.
	IsolatedError
	// IsolatedZero sets D^{-1/2}_ii = D^{-1}_ii = 0 but keeps the identity
	// of L_sym = I − S and L_rw = I − D^{-1}W: a unit row, eigenvalue 1
	// (PyG's get_laplacian). S is the same as under IsolatedComponent.
	IsolatedZero
)

func (p IsolatedPolicy) String() string {
	switch p {
	case IsolatedComponent:
		return "component"
	case IsolatedError:
		return "error"
	case IsolatedZero:
		return "zero"
	}
	return fmt.Sprintf("IsolatedPolicy(%d)", int(p))
}

// ParseIsolated reads the names of String: "component", "error" or "zero".
func ParseIsolated(s string) (IsolatedPolicy, error) {
	switch s {
	case "component":
		return IsolatedComponent, nil
	case "error":
		return IsolatedError, nil
	case "zero":
		return IsolatedZero, nil
	}
	return 0, fmt.Errorf("laplacian: unknown isolated-node policy %q: want component, error or zero", s)
}

// Valid reports whether p is one of the policies.
func (p IsolatedPolicy) Valid() bool { return p >= IsolatedComponent && p <= IsolatedZero }

// Options configures a Laplacian.
type Options struct {
	Isolated IsolatedPolicy
}

// IsolatedNodeError reports nodes of degree zero where a normalisation needs
// D^{-1}.
type IsolatedNodeError struct {
	Nodes []int // all isolated nodes, ascending
}

func (e *IsolatedNodeError) Error() string {
	more := ""
	if len(e.Nodes) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(e.Nodes)-1)
	}
	return fmt.Sprintf("laplacian: node %d has degree 0%s, so D^{-1/2} is undefined (isolated-node policy: error); remove isolated nodes or treat each as its own component (IsolatedComponent, the default)", e.Nodes[0], more)
}

// Degrees holds D and its square-root scalings for one graph.
type Degrees struct {
	D        []float64 // d_i
	InvD     []float64 // 1/d_i (0 for an isolated node)
	SqrtD    []float64 // √d_i
	InvSqrtD []float64 // 1/√d_i (0 for an isolated node)
	Isolated []int     // nodes of degree 0, ascending
}

// NewDegrees computes the degree scalings of g.
func NewDegrees(g *graph.CSR, opt Options) (*Degrees, error) {
	n := g.Nodes()
	dg := &Degrees{
		D:        g.Degrees(),
		InvD:     make([]float64, n),
		SqrtD:    make([]float64, n),
		InvSqrtD: make([]float64, n),
	}
	for i, d := range dg.D {
		if d == 0 {
			dg.Isolated = append(dg.Isolated, i)
			continue
		}
		dg.InvD[i] = 1 / d
		dg.SqrtD[i] = math.Sqrt(d)
		dg.InvSqrtD[i] = 1 / dg.SqrtD[i]
	}
	if !opt.Isolated.Valid() {
		return nil, fmt.Errorf("laplacian: Isolated = %d is invalid: use IsolatedComponent, IsolatedError or IsolatedZero", int(opt.Isolated))
	}
	if len(dg.Isolated) > 0 && opt.Isolated == IsolatedError {
		return nil, &IsolatedNodeError{Nodes: dg.Isolated}
	}
	return dg, nil
}

// ToRandomWalk sets dst = D^{-1/2}·u, mapping an eigenvector of L_sym to one
// of L_rw (D-orthonormal when the input is orthonormal).
func (dg *Degrees) ToRandomWalk(dst, u []float64) {
	linop.CheckVec("laplacian.ToRandomWalk", len(dg.D), dst, u)
	for i, v := range u {
		dst[i] = dg.InvSqrtD[i] * v
	}
}

// FromRandomWalk sets dst = D^{1/2}·f, the inverse of ToRandomWalk.
func (dg *Degrees) FromRandomWalk(dst, f []float64) {
	linop.CheckVec("laplacian.FromRandomWalk", len(dg.D), dst, f)
	for i, v := range f {
		dst[i] = dg.SqrtD[i] * v
	}
}

// DInner returns uᵀ D v.
func (dg *Degrees) DInner(u, v []float64) float64 {
	linop.CheckVec("laplacian.DInner", len(dg.D), u, v)
	var s float64
	for i, d := range dg.D {
		s += u[i] * d * v[i]
	}
	return s
}

// Operator is a Laplacian or the normalised adjacency of a graph, applied
// through the graph's CSR arrays in one pass per product.
type Operator struct {
	kind    Kind
	g       *graph.CSR
	degrees *Degrees
	scaling graph.Scaling
}

var (
	_ linop.BlockOperator = (*Operator)(nil)
	_ linop.Symmetric     = (*Operator)(nil)
)

// New returns the operator of the given kind on g. Under the default
// IsolatedComponent an isolated node has a zero row in every kind; with
// IsolatedError normalised kinds need every degree positive; IsolatedZero
// gives it a unit row in L_sym and L_rw.
func New(g *graph.CSR, kind Kind, opt Options) (*Operator, error) {
	var dg *Degrees
	var err error
	if kind == Unnormalized {
		// L_un is defined for isolated nodes (a zero row); no policy applies.
		dg, err = NewDegrees(g, Options{Isolated: IsolatedZero})
	} else {
		dg, err = NewDegrees(g, opt)
	}
	if err != nil {
		return nil, err
	}
	n := g.Nodes()
	o := &Operator{kind: kind, g: g, degrees: dg}
	ones := func(v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	neg := func(v []float64) []float64 {
		s := make([]float64, n)
		for i, x := range v {
			s[i] = -x
		}
		return s
	}
	// The identity of I − S and I − D^{-1}W, without its 1 on the rows of
	// isolated nodes under IsolatedComponent (a zero row: eigenvalue 0).
	identity := func() []float64 {
		s := ones(1)
		if opt.Isolated == IsolatedComponent {
			for _, i := range dg.Isolated {
				s[i] = 0
			}
		}
		return s
	}
	switch kind {
	case Unnormalized:
		o.scaling = graph.Scaling{Diag: dg.D, Left: ones(-1)}
	case Symmetric:
		o.scaling = graph.Scaling{Diag: identity(), Left: neg(dg.InvSqrtD), Right: dg.InvSqrtD}
	case RandomWalk:
		o.scaling = graph.Scaling{Diag: identity(), Left: neg(dg.InvD)}
	case NormalizedAdjacency:
		o.scaling = graph.Scaling{Left: dg.InvSqrtD, Right: dg.InvSqrtD}
	default:
		return nil, fmt.Errorf("laplacian: unknown kind %d", int(kind))
	}
	return o, nil
}

// Kind returns the normalisation.
func (o *Operator) Kind() Kind { return o.kind }

// Graph returns the underlying graph.
func (o *Operator) Graph() *graph.CSR { return o.g }

// Degrees returns the degree scalings (shared; do not modify).
func (o *Operator) Degrees() *Degrees { return o.degrees }

// Dim returns the number of nodes.
func (o *Operator) Dim() int { return o.g.Nodes() }

// IsSymmetric is false only for RandomWalk.
func (o *Operator) IsSymmetric() bool { return o.kind != RandomWalk }

// MulVecTo sets dst = L·x.
func (o *Operator) MulVecTo(dst, x []float64) {
	linop.CheckVec("laplacian", o.Dim(), dst, x)
	o.g.ScaledMulVecTo(dst, x, o.scaling)
}

// MulBlockTo sets dst = L·x for n×c blocks.
func (o *Operator) MulBlockTo(dst, x *mat.Dense) { o.g.ScaledMulBlockTo(dst, x, o.scaling) }

// Dense returns the operator as a dense matrix, entry by entry: the explicit
// O(n²) path for tests and small graphs.
func (o *Operator) Dense() *mat.Dense {
	n := o.Dim()
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		cols, ws := o.g.Row(i)
		l := 1.0
		if o.scaling.Left != nil {
			l = o.scaling.Left[i]
		}
		for k, c := range cols {
			r := 1.0
			if o.scaling.Right != nil {
				r = o.scaling.Right[c]
			}
			m.Set(i, int(c), l*ws[k]*r)
		}
		if o.scaling.Diag != nil {
			m.Set(i, i, m.At(i, i)+o.scaling.Diag[i])
		}
	}
	return m
}
