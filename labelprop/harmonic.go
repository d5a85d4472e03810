package labelprop

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
)

// Preconditioner selects the preconditioner of the harmonic function's CG
// solve. The stopping rule is the same for both: the relative residual of the
// unpreconditioned system.
type Preconditioner int

const (
	// Jacobi preconditions L_uu by its diagonal D_uu (the zero value). On
	// citation graphs, whose degrees vary widely, it cuts the iterations
	// about fivefold (PubMed: 430 → 91).
	Jacobi Preconditioner = iota
	// NoPreconditioner runs plain CG, as the peer script lp.py does.
	NoPreconditioner
)

func (p Preconditioner) String() string {
	switch p {
	case Jacobi:
		return "jacobi"
	case NoPreconditioner:
		return "none"
	}
	return fmt.Sprintf("Preconditioner(%d)", int(p))
}

// Harmonic is the harmonic function of Zhu, Ghahramani & Lafferty (2003):
// labels are clamped on the labelled nodes l, and the unlabelled nodes u take
// the solution of
//
//	L_uu F_u = W_ul Y_l,   L = D − W,
//
// the weighted average of their neighbours' scores. L_uu is symmetric
// positive definite on every component that holds a labelled node; nodes of
// the other components (and isolated nodes) are left out of the solve, keep
// zero scores and are given the class prior. Labelled nodes keep their label.
//
// On graphs whose classes differ in degree the plain argmax can collapse
// onto one class (PubMed: 22 % accuracy); ClassMassNormalization fixes it.
type Harmonic struct {
	// Tol is the relative residual of each class's CG solve; 0 means
	// DefaultTol (1e-6).
	Tol float64
	// MaxIter caps the CG iterations; 0 means 2m + 100 for m unlabelled
	// nodes.
	MaxIter int
	// Preconditioner is Jacobi (the zero value) or NoPreconditioner.
	Preconditioner Preconditioner
	// Classes is the number of classes; 0 means 1 + the largest labelled
	// class. Every class must have a labelled node.
	Classes int
	// ClassMassNormalization scales each class's scores so that their mass
	// over the unlabelled nodes is the labelled class frequency before
	// normalising (Zhu, Ghahramani & Lafferty 2003, §4, eq. 9).
	ClassMassNormalization bool
	// IsolatedSeeds says what to do with a labelled node of degree zero; the
	// zero value is an error.
	IsolatedSeeds IsolatedSeeds
	// Ordering is the numbering of the unlabelled nodes in the solve:
	// NaturalOrdering (the zero value) or ReverseCuthillMcKee, renumbered
	// inside Fit. Results are always in the caller's numbering.
	Ordering Ordering
	// Progress, when set, is called after every CG iteration with the
	// iteration count and the largest relative residual of the classes
	// still running.
	Progress func(iteration int, residual float64)

	state
}

// Clone returns an unfitted copy of m with every hyperparameter (every
// exported field, Progress included).
func (m *Harmonic) Clone() *Harmonic {
	c := *m
	c.state = state{}
	return &c
}

// Validate checks the hyperparameters.
func (m *Harmonic) Validate() error {
	if err := checkSolver(m.Tol, m.MaxIter, m.Classes); err != nil {
		return err
	}
	if m.Preconditioner != Jacobi && m.Preconditioner != NoPreconditioner {
		return fmt.Errorf("labelprop: Preconditioner = %d is invalid: use Jacobi or NoPreconditioner", int(m.Preconditioner))
	}
	if err := checkOrdering(m.Ordering); err != nil {
		return err
	}
	return checkIsolatedSeeds(m.IsolatedSeeds)
}

// FitIndexed is Fit with the labelled nodes as an index list: nodes[k] has
// class classes[k] (see Spreading.FitIndexed).
func (m *Harmonic) FitIndexed(ctx context.Context, g *graph.CSR, nodes, classes []int) error {
	ctx, s, err := m.begin(ctx, m.Validate, g, nodes, classes, m.Classes, m.IsolatedSeeds)
	if err != nil {
		return err
	}
	n, c := s.n, s.classes
	reached, err := s.reached(g)
	if err != nil {
		return err
	}
	// The unlabelled nodes in the order of the solve: L_uu is built as
	// the subgraph they induce, numbered in this order.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if m.Ordering == ReverseCuthillMcKee {
		order = graph.ReverseCuthillMcKee(g)
	}
	var unl []int
	for _, i := range order {
		if s.class[i] < 0 && reached[i] {
			unl = append(unl, i)
		}
	}
	f := mat.NewDense(n, c, nil)
	for _, v := range s.nodes {
		f.Set(v, int(s.class[v]), 1)
	}
	var info Details
	if len(unl) > 0 {
		info, err = harmonicSolve(ctx, g, s, unl, f, m.Preconditioner, krylov.Settings{Tol: m.Tol, MaxIter: m.MaxIter, Progress: m.Progress})
	}
	m.state.finish(g, s, reached, f, m.ClassMassNormalization, info)
	return err
}

// harmonicSolve solves L_uu F_u = W_ul Y_l by block CG and writes F_u into
// the rows unl of f.
func harmonicSolve(ctx context.Context, g *graph.CSR, s *seeds, unl []int, f *mat.Dense, pre Preconditioner, set krylov.Settings) (Details, error) {
	sub, err := g.Induced(unl)
	if err != nil {
		return Details{}, fmt.Errorf("labelprop: %w", err)
	}
	m, c := len(unl), s.classes
	diag := make([]float64, m)
	minus := make([]float64, m)
	rhs := mat.NewDense(m, c, nil)
	for i, v := range unl {
		diag[i], minus[i] = g.Degree(v), -1
		row := rhs.RawRowView(i)
		cols, ws := g.Row(v)
		for k, j := range cols {
			if cl := s.class[j]; cl >= 0 {
				row[cl] += ws[k]
			}
		}
	}
	op := scaledOperator{g: sub.CSR, s: graph.Scaling{Diag: diag, Left: minus}}
	x := mat.NewDense(m, c, nil)
	if set.Tol == 0 {
		set.Tol = DefaultTol
	}
	if pre == Jacobi {
		// Every node here is connected to a labelled node, so d_u > 0.
		inv, err := krylov.Jacobi(diag)
		if err != nil {
			return Details{}, fmt.Errorf("labelprop: %w", err)
		}
		set.Preconditioner = inv
	}
	res, err := krylov.BlockCG(ctx, op, rhs, x, set)
	info := blockInfo(res)
	for i, v := range unl {
		copy(f.RawRowView(v), x.RawRowView(i))
	}
	return info, wrapSolverError("harmonic function (block CG)", info, set.Tol, err)
}

// predictOne predicts one new node from its edges to fitted nodes
// (weights nil means 1 each); see NewNodeDetails.
func (m *Harmonic) predictOne(nodes []int, weights []float64) (Prediction, error) {
	w, dx, err := m.checkNew(nodes, weights)
	if err != nil {
		return Prediction{}, err
	}
	f := make([]float64, m.seeds.classes)
	if dx > 0 {
		for k, j := range nodes {
			for t, v := range m.scores.RawRowView(j) {
				f[t] += w[k] * v / dx
			}
		}
	}
	return m.predict(f), nil
}
