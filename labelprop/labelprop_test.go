package labelprop

import (
	"context"
	"errors"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// Tolerances.
const (
	// tightTol is the solver tolerance of the agreement tests.
	tightTol = 1e-12
	// denseTol bounds |F − F_LU| at tightTol: the systems have condition
	// numbers ≤ (1+a)/(1−a) = 199 (a = 0.99) for spreading and below 1e4 for
	// the small harmonic systems, so a relative residual of 1e-12 leaves an
	// error well under 1e-8 of max|F|.
	denseTol = 1e-8
	// agreeTol is the agreement asked of the fixed-point and CG paths when
	// both run at tol 1e-10 (issue 5: "agree to 1e-6").
	agreeTol = 1e-6
)

// problem is a random test graph with labelled nodes: three connected
// blocks (two hold labels, one does not), an unlabelled isolated node, a
// self loop and random positive weights.
type problem struct {
	g       *graph.CSR
	nodes   []int
	classes []int
	c       int
	// unreached are the nodes of the block without labels and the isolated
	// node.
	unreached []int
	isolated  int
}

func randomProblem(rng *rand.Rand, c int) problem {
	sizes := []int{20 + rng.IntN(20), 10 + rng.IntN(10), 5 + rng.IntN(5)}
	var edges []graph.Edge
	start := 0
	var blocks [][]int
	for _, sz := range sizes {
		var b []int
		for i := 0; i < sz; i++ {
			b = append(b, start+i)
		}
		blocks = append(blocks, b)
		for i := 1; i < sz; i++ { // a random spanning tree keeps the block connected
			edges = append(edges, graph.Edge{U: start + i, V: start + rng.IntN(i), W: 0.2 + rng.Float64()})
		}
		for k := 0; k < sz; k++ {
			u, v := start+rng.IntN(sz), start+rng.IntN(sz)
			if u != v {
				edges = append(edges, graph.Edge{U: u, V: v, W: 0.2 + rng.Float64()})
			}
		}
		start += sz
	}
	edges = append(edges, graph.Edge{U: 3, V: 3, W: 0.7}) // a self loop
	iso := start
	n := start + 1
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
	if err != nil {
		panic(err)
	}
	p := problem{g: g, c: c, isolated: iso}
	// Every class gets a labelled node in block 0, and a few more labels go
	// to blocks 0 and 1.
	perm := rng.Perm(sizes[0])
	for k := 0; k < c; k++ {
		p.nodes = append(p.nodes, blocks[0][perm[k]])
		p.classes = append(p.classes, k)
	}
	for _, v := range perm[c : c+3] {
		p.nodes = append(p.nodes, blocks[0][v])
		p.classes = append(p.classes, rng.IntN(c))
	}
	for _, v := range rng.Perm(sizes[1])[:2] {
		p.nodes = append(p.nodes, blocks[1][v])
		p.classes = append(p.classes, rng.IntN(c))
	}
	p.unreached = append(append([]int(nil), blocks[2]...), iso)
	return p
}

// prior returns the labelled class frequencies.
func (p problem) prior() []float64 {
	q := make([]float64, p.c)
	for _, k := range p.classes {
		q[k] += 1 / float64(len(p.classes))
	}
	return q
}

func (p problem) labelled() map[int]int {
	m := map[int]int{}
	for k, v := range p.nodes {
		m[v] = p.classes[k]
	}
	return m
}

// denseSpreading solves (I − aS)F = (1−a)Y with mat.LU, S built entry by
// entry from the dense weight matrix (zero rows for isolated nodes).
func denseSpreading(t *testing.T, p problem, a float64) *mat.Dense {
	w := p.g.Dense()
	n, _ := w.Dims()
	isq := make([]float64, n)
	for i := range isq {
		if d := mat.Sum(w.RowView(i)); d > 0 {
			isq[i] = 1 / math.Sqrt(d)
		}
	}
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -a * isq[i] * w.At(i, j) * isq[j]
			if i == j {
				v++
			}
			m.Set(i, j, v)
		}
	}
	y := mat.NewDense(n, p.c, nil)
	for k, v := range p.nodes {
		y.Set(v, p.classes[k], 1-a)
	}
	var lu mat.LU
	lu.Factorize(m)
	var f mat.Dense
	require.NoError(t, lu.SolveTo(&f, false, y))
	return &f
}

// denseHarmonic solves L_uu F_u = W_ul Y_l with mat.LU over the unlabelled
// nodes of the labelled blocks; the other rows stay zero.
func denseHarmonic(t *testing.T, p problem) *mat.Dense {
	w := p.g.Dense()
	n, _ := w.Dims()
	lab := p.labelled()
	skip := map[int]bool{}
	for _, v := range p.unreached {
		skip[v] = true
	}
	var u []int
	for i := 0; i < n; i++ {
		if _, ok := lab[i]; !ok && !skip[i] {
			u = append(u, i)
		}
	}
	luu := mat.NewDense(len(u), len(u), nil)
	rhs := mat.NewDense(len(u), p.c, nil)
	for a, i := range u {
		d := mat.Sum(w.RowView(i))
		for b, j := range u {
			v := -w.At(i, j)
			if a == b {
				v += d
			}
			luu.Set(a, b, v)
		}
		for j, k := range lab {
			rhs.Set(a, k, rhs.At(a, k)+w.At(i, j))
		}
	}
	var lu mat.LU
	lu.Factorize(luu)
	var fu mat.Dense
	require.NoError(t, lu.SolveTo(&fu, false, rhs))
	f := mat.NewDense(n, p.c, nil)
	for a, i := range u {
		f.SetRow(i, fu.RawRowView(a))
	}
	for j, k := range lab {
		f.Set(j, k, 1)
	}
	return f
}

// maxAbsDiff returns max|a − b| / max|b|.
func maxAbsDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) / math.Max(mat.Norm(b, math.Inf(1)), 1e-300)
}

// referenceProbabilities row-normalises f with optional class-mass
// normalisation, giving unreached rows the prior.
func referenceProbabilities(p problem, f *mat.Dense, cmn bool) *mat.Dense {
	n, c := f.Dims()
	scale := make([]float64, c)
	for k := range scale {
		scale[k] = 1
	}
	if cmn {
		lab := p.labelled()
		q := p.prior()
		for k := 0; k < c; k++ {
			var mass float64
			for i := 0; i < n; i++ {
				if _, ok := lab[i]; !ok {
					mass += f.At(i, k)
				}
			}
			scale[k] = q[k] / mass
		}
	}
	out := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		var s float64
		for k := 0; k < c; k++ {
			s += math.Max(f.At(i, k)*scale[k], 0)
		}
		for k := 0; k < c; k++ {
			if s > 0 {
				out.Set(i, k, math.Max(f.At(i, k)*scale[k], 0)/s)
			} else {
				out.Set(i, k, p.prior()[k])
			}
		}
	}
	return out
}

func TestSpreadingMatchesDenseLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for trial := 0; trial < 4; trial++ {
		p := randomProblem(rng, 2+trial)
		for _, a := range []float64{0.5, 0.9, 0.99} {
			want := denseSpreading(t, p, a)
			for _, solver := range []Solver{CG, FixedPoint, Chebyshev} {
				for _, cmn := range []bool{false, true} {
					m := Spreading{Alpha: a, Solver: solver, Tol: tightTol, ClassMassNormalization: cmn}
					require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
					got := m.Scores()
					assert.Less(t, maxAbsDiff(got, want), denseTol, "trial %d a=%v %v", trial, a, solver)
					probs := m.Probabilities()
					assert.Less(t, maxAbsDiff(probs, referenceProbabilities(p, want, cmn)), denseTol)
					labels := m.Labels()
					for i := range labels {
						assert.Equal(t, argmax(probs.RawRowView(i)), labels[i])
					}
					info := m.Details()
					assert.Equal(t, len(p.unreached), info.Unreached)
					assert.Equal(t, 1, info.Isolated)
					assert.Greater(t, info.Iterations, 0)
				}
			}
		}
	}
}

func TestHarmonicMatchesDenseLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	for trial := 0; trial < 4; trial++ {
		p := randomProblem(rng, 2+trial)
		want := denseHarmonic(t, p)
		for _, tc := range []struct {
			cmn bool
			pre Preconditioner
		}{{false, Jacobi}, {true, Jacobi}, {false, NoPreconditioner}} {
			cmn := tc.cmn
			m := Harmonic{Tol: tightTol, ClassMassNormalization: cmn, Preconditioner: tc.pre}
			require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
			assert.Less(t, maxAbsDiff(m.Scores(), want), denseTol, "trial %d", trial)
			assert.Less(t, maxAbsDiff(m.Probabilities(), referenceProbabilities(p, want, cmn)), denseTol)
			labels := m.Labels()
			for k, v := range p.nodes {
				assert.Equal(t, p.classes[k], labels[v], "a labelled node keeps its label")
			}
			// The harmonic property: every unlabelled reached node is the
			// weighted mean of its neighbours.
			f := m.Scores()
			lab := p.labelled()
			for i := 0; i < p.g.Nodes(); i++ {
				if _, ok := lab[i]; ok || p.g.Degree(i) == 0 {
					continue
				}
				cols, ws := p.g.Row(i)
				for k := 0; k < p.c; k++ {
					var s float64
					for q, j := range cols {
						s += ws[q] * f.At(int(j), k)
					}
					assert.InDelta(t, f.At(i, k), s/p.g.Degree(i), 1e-9)
				}
			}
		}
	}
}

func TestFixedPointAndCGAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	p := randomProblem(rng, 3)
	for _, a := range AlphaGrid() {
		cg := Spreading{Alpha: a, Tol: 1e-10, Solver: CG}
		fp := Spreading{Alpha: a, Tol: 1e-10, Solver: FixedPoint}
		ch := Spreading{Alpha: a, Tol: 1e-10, Solver: Chebyshev}
		require.NoError(t, cg.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		require.NoError(t, fp.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		require.NoError(t, ch.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		assert.Less(t, maxAbsDiff(cg.Scores(), fp.Scores()), agreeTol, "a=%v", a)
		assert.Equal(t, cg.Labels(), fp.Labels())
		assert.Less(t, maxAbsDiff(ch.Scores(), cg.Scores()), agreeTol, "a=%v", a)
		assert.Equal(t, cg.Labels(), ch.Labels())
	}
}

// TestDefaultToleranceBounds checks the error bounds implied by the default
// stopping rules against the dense solution. ‖S‖₂ ≤ 1, so a sweep contracts
// the 2-norm error of each class by a, and the fixed point, stopped when
// max|ΔF| ≤ tol·max|F|, is within a/(1−a)·‖ΔF_k‖₂ ≤ a/(1−a)·√n·tol·max|F| of
// F* in class k. CG stops at relative residual tol, which bounds the 2-norm
// error of class k by ‖(I−aS)^{-1}‖₂·tol·‖b_k‖₂ ≤ tol‖b_k‖₂/(1−a).
func TestDefaultToleranceBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	p := randomProblem(rng, 3)
	for _, a := range []float64{0.5, 0.9, 0.99} {
		want := denseSpreading(t, p, a)
		fp := Spreading{Alpha: a, Solver: FixedPoint}
		require.NoError(t, fp.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		var d mat.Dense
		d.Sub(fp.Scores(), want)
		bound := a / (1 - a) * math.Sqrt(float64(p.g.Nodes())) * DefaultTol * mat.Max(fp.Scores())
		for k := 0; k < p.c; k++ {
			assert.LessOrEqual(t, mat.Norm(d.ColView(k), 2), bound, "a=%v class %d", a, k)
		}

		for _, solver := range []Solver{CG, Chebyshev} { // the same residual rule
			cg := Spreading{Alpha: a, Solver: solver}
			require.NoError(t, cg.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
			d.Sub(cg.Scores(), want)
			for k := 0; k < p.c; k++ {
				bnorm := (1 - a) * math.Sqrt(p.prior()[k]*float64(len(p.nodes)))
				assert.LessOrEqual(t, mat.Norm(d.ColView(k), 2), DefaultTol*bnorm/(1-a), "a=%v class %d %v", a, k, solver)
			}
		}
	}
}

func TestUnreachedAndIsolatedNodesGetThePrior(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	p := randomProblem(rng, 3)
	q := p.prior()
	for _, m := range []Classifier{&Spreading{Alpha: 0.9}, &Harmonic{}} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		probs, f, labels := m.Probabilities(), m.Scores(), m.Labels()
		for _, v := range p.unreached {
			assert.Equal(t, []float64{0, 0, 0}, f.RawRowView(v), "no label reaches node %d", v)
			assert.InDeltaSlice(t, q, probs.RawRowView(v), 1e-15)
			assert.Equal(t, argmax(q), labels[v])
		}
		info := m.Details()
		assert.Equal(t, len(p.unreached), info.Unreached)
		assert.Equal(t, 1, info.Isolated)
		assert.Equal(t, 0, info.IsolatedSeeds)
	}
}

func TestIsolatedSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 1))
	p := randomProblem(rng, 2)
	nodes := append(append([]int(nil), p.nodes...), p.isolated)
	classes := append(append([]int(nil), p.classes...), 1)
	for _, m := range []Classifier{&Spreading{Alpha: 0.9}, &Harmonic{}} {
		err := m.FitIndexed(context.Background(), p.g, nodes, classes)
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("labelled node %d (nodes[%d]) is isolated", p.isolated, len(p.nodes)))
	}
	for _, m := range []Classifier{&Spreading{Alpha: 0.9, IsolatedSeeds: IsolatedSeedKeep}, &Harmonic{IsolatedSeeds: IsolatedSeedKeep}} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, nodes, classes))
		assert.Equal(t, 1, m.Labels()[p.isolated], "an isolated labelled node keeps its label")
		info := m.Details()
		assert.Equal(t, 1, info.IsolatedSeeds)
		assert.Equal(t, 0, info.Isolated)
		assert.Equal(t, len(p.unreached)-1, info.Unreached)
	}
}

func TestClassMassNormalization(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	p := randomProblem(rng, 3)
	lab := p.labelled()
	q := p.prior()
	for _, m := range []Classifier{&Spreading{Alpha: 0.9, ClassMassNormalization: true}, &Harmonic{ClassMassNormalization: true}} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		// After scaling, the mass of class k over the unlabelled nodes is q_k.
		f := m.Scores()
		n := p.g.Nodes()
		mass := make([]float64, p.c)
		for i := 0; i < n; i++ {
			if _, ok := lab[i]; !ok {
				for k := range mass {
					mass[k] += f.At(i, k)
				}
			}
		}
		probs := m.Probabilities()
		for i := 0; i < n; i++ {
			if _, ok := lab[i]; ok {
				continue
			}
			row := f.RawRowView(i)
			var s float64
			for k := range row {
				s += row[k] * q[k] / mass[k]
			}
			if s == 0 {
				continue
			}
			for k := range row {
				assert.InDelta(t, row[k]*q[k]/mass[k]/s, probs.At(i, k), 1e-12)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	p := randomProblem(rng, 3)
	ctx := context.Background()
	cases := []struct {
		name    string
		m       Classifier
		nodes   []int
		classes []int
		want    string
	}{
		{"no labelled node", &Spreading{Alpha: 0.9}, nil, nil, "no labelled node"},
		{"no labelled node (harmonic)", &Harmonic{}, []int{}, []int{}, "no labelled node"},
		{"class without a labelled node", &Spreading{Alpha: 0.9}, []int{0, 1}, []int{0, 2}, "class 1 has no labelled node"},
		{"class without a labelled node (Classes set)", &Harmonic{Classes: 4}, p.nodes, p.classes, "class 3 has no labelled node (Classes = 4)"},
		{"label out of range", &Spreading{Alpha: 0.9, Classes: 3}, []int{0, 1, 2}, []int{0, 1, 3}, "node 2 (classes[2]) has class 3, outside [0, 3)"},
		{"negative label", &Harmonic{}, []int{0, 1}, []int{0, -1}, "node 1 (classes[1]) has class -1"},
		{"node out of range", &Spreading{Alpha: 0.9}, []int{0, 99}, []int{0, 1}, fmt.Sprintf("nodes[1] = 99 is out of range [0, %d)", p.g.Nodes())},
		{"node labelled twice", &Harmonic{}, []int{0, 1, 0}, []int{0, 1, 1}, "node 0 is labelled twice (nodes[0] and nodes[2])"},
		{"lengths differ", &Harmonic{}, []int{0, 1}, []int{0}, "2 labelled nodes but 1 classes"},
		{"a < 0", &Spreading{Alpha: -0.5}, p.nodes, p.classes, "Alpha = -0.5 is invalid: it must be inside the open interval (0, 1), or 0 for DefaultAlpha"},
		{"a = 1", &Spreading{Alpha: 1}, p.nodes, p.classes, "Alpha = 1 is invalid"},
		{"a > 1", &Spreading{Alpha: 1.5}, p.nodes, p.classes, "Alpha = 1.5 is invalid"},
		{"a < 0", &Spreading{Alpha: -0.5}, p.nodes, p.classes, "Alpha = -0.5 is invalid"},
		{"a NaN", &Spreading{Alpha: math.NaN()}, p.nodes, p.classes, "Alpha = NaN is invalid"},
		{"tol", &Spreading{Alpha: 0.5, Tol: 2}, p.nodes, p.classes, "Tol = 2 is invalid"},
		{"max iter", &Harmonic{MaxIter: -1}, p.nodes, p.classes, "MaxIter = -1 is invalid"},
		{"classes", &Harmonic{Classes: -2}, p.nodes, p.classes, "Classes = -2 is invalid"},
		{"solver", &Spreading{Alpha: 0.5, Solver: 7}, p.nodes, p.classes, "Solver = 7 is invalid"},
		{"isolated policy", &Harmonic{IsolatedSeeds: 9}, p.nodes, p.classes, "IsolatedSeeds = 9 is invalid"},
		{"preconditioner", &Harmonic{Preconditioner: 4}, p.nodes, p.classes, "Preconditioner = 4 is invalid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.FitIndexed(ctx, p.g, tc.nodes, tc.classes)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Nil(t, tc.m.Labels(), "a failed fit leaves no predictions")
			_, err = predictNew(tc.m, []int{0}, nil)
			assert.ErrorIs(t, err, ErrNotFitted)
		})
	}
	var empty graph.CSR
	err := (&Harmonic{}).FitIndexed(ctx, &empty, nil, nil)
	assert.ErrorContains(t, err, "the graph has no nodes")
	err = (&Spreading{Alpha: 0.5}).FitIndexed(ctx, nil, []int{0}, []int{0})
	assert.ErrorContains(t, err, "the graph has no nodes")
}

func TestNotConvergedKeepsLastIterate(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	p := randomProblem(rng, 3)
	for _, m := range []Classifier{
		&Spreading{Alpha: 0.99, MaxIter: 3, Solver: CG},
		&Spreading{Alpha: 0.99, MaxIter: 3, Solver: FixedPoint},
		&Spreading{Alpha: 0.99, MaxIter: 3, Solver: Chebyshev},
		&Harmonic{MaxIter: 2},
	} {
		err := m.FitIndexed(context.Background(), p.g, p.nodes, p.classes)
		var nc *NotConvergedError
		require.ErrorAs(t, err, &nc)
		assert.Contains(t, err.Error(), "did not converge")
		assert.LessOrEqual(t, nc.Iterations, 3)
		assert.Greater(t, nc.Residual, nc.Tol)
		assert.Len(t, m.Labels(), p.g.Nodes(), "the last iterate is kept")
	}
}

func TestContextCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	p := randomProblem(rng, 3)
	for _, m := range []Classifier{
		&Spreading{Alpha: 0.99, Solver: CG},
		&Spreading{Alpha: 0.99, Solver: FixedPoint},
		&Spreading{Alpha: 0.99, Solver: Chebyshev},
		&Harmonic{},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := m.FitIndexed(ctx, p.g, p.nodes, p.classes)
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	}
}

func TestProgressIsCalledEveryIteration(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	p := randomProblem(rng, 3)
	for _, solver := range []Solver{CG, FixedPoint, Chebyshev} {
		var calls, last int
		m := Spreading{Alpha: 0.9, Solver: solver, Progress: func(it int, res float64) {
			calls++
			last = it
			assert.False(t, math.IsNaN(res))
		}}
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		assert.Equal(t, m.Info().Iterations, last, solver.String())
		assert.Equal(t, calls, last)
	}
}

func TestParseSolver(t *testing.T) {
	for _, s := range []Solver{Auto, CG, FixedPoint, Chebyshev} {
		got, err := ParseSolver(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	_, err := ParseSolver("lu")
	assert.ErrorContains(t, err, `unknown solver "lu": want auto, chebyshev, cg or fixed-point`)
}

// TestAutoSolver checks how Auto resolves: Chebyshev while F is below
// AutoCGBytes, CG from there on, Chebyshev whenever a setting only it has
// is on, and an explicit solver as given; and that a fit reports the
// solver that ran and reaches the answer of an explicit Chebyshev fit.
func TestAutoSolver(t *testing.T) {
	n := AutoCGBytes / 8 / 10 // F of 10 classes just below the size
	for _, c := range []struct {
		m    Spreading
		n    int
		want Solver
	}{
		{Spreading{}, n, Chebyshev},
		{Spreading{}, n + 1, CG},
		{Spreading{Float32: true}, 10 * n, Chebyshev},
		{Spreading{Stop: StopLabels}, 10 * n, Chebyshev},
		{Spreading{Solver: FixedPoint}, 10 * n, FixedPoint},
		{Spreading{Solver: Chebyshev}, 10 * n, Chebyshev},
		{Spreading{Solver: CG}, 1, CG},
	} {
		assert.Equal(t, c.want, c.m.solverFor(c.n, 10), "%+v, n = %d", c.m, c.n)
	}
	p := randomProblem(rand.New(rand.NewPCG(5, 5)), 3)
	auto, cheb := Spreading{Alpha: 0.9}, Spreading{Alpha: 0.9, Solver: Chebyshev}
	require.NoError(t, auto.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	require.NoError(t, cheb.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	assert.Equal(t, Chebyshev, auto.Details().Solver)
	assert.Equal(t, cheb.Scores().RawMatrix().Data, auto.Scores().RawMatrix().Data)
	assert.Equal(t, "auto", auto.Solver.String())
}

func TestEveryNodeLabelled(t *testing.T) {
	// A path 0-1-2 with every node labelled: nothing to solve; the harmonic
	// function keeps the labels, spreading still smooths them.
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	require.NoError(t, err)
	h := Harmonic{}
	require.NoError(t, h.FitIndexed(context.Background(), g, []int{0, 1, 2}, []int{0, 1, 0}))
	assert.Equal(t, []int{0, 1, 0}, h.Labels())
	assert.Equal(t, 0, h.Info().Iterations)
	p := problem{g: g, c: 2, nodes: []int{0, 1, 2}, classes: []int{0, 1, 0}}
	s := Spreading{Alpha: 0.5, Tol: tightTol}
	require.NoError(t, s.FitIndexed(context.Background(), g, p.nodes, p.classes))
	assert.Less(t, maxAbsDiff(s.Scores(), denseSpreading(t, p, 0.5)), denseTol)
	assert.Equal(t, 0, s.Details().Unreached)
}

func TestHarmonicProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	p := randomProblem(rng, 3)
	var last int
	m := Harmonic{Progress: func(it int, res float64) {
		assert.Equal(t, last+1, it, "one call per iteration, in order")
		last = it
	}}
	require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	assert.Equal(t, m.Info().Iterations, last)
}

// TestDefaultAlpha: Alpha 0 is DefaultAlpha, bitwise.
func TestDefaultAlpha(t *testing.T) {
	p := randomProblem(rand.New(rand.NewPCG(61, 1)), 3)
	zero, set := &Spreading{IsolatedSeeds: IsolatedSeedKeep}, &Spreading{Alpha: DefaultAlpha, IsolatedSeeds: IsolatedSeedKeep}
	require.NoError(t, zero.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	require.NoError(t, set.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	assert.Equal(t, set.Scores().RawMatrix().Data, zero.Scores().RawMatrix().Data)
	nn := estimator.NewNodes{Offsets: []int{0, 2}, Nodes: []int32{0, 1}}
	a, err := zero.Predict(context.Background(), estimator.NodeQuery{New: &nn})
	require.NoError(t, err)
	b, err := set.Predict(context.Background(), estimator.NodeQuery{New: &nn})
	require.NoError(t, err)
	assert.Equal(t, b.RawMatrix().Data, a.RawMatrix().Data)
}

// TestProbabilityRowsAndLabels: the model keeps no probability matrix, so
// Probabilities, ProbabilityRow and Labels are each formed from the
// scores; they must agree with each other and with the probabilities
// computed here from Scores (clipped, class-mass scaled, normalised), for
// every solver path (the float32 one included) and both estimators.
func TestProbabilityRowsAndLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	p := randomProblem(rng, 3)
	lab := p.labelled()
	q := p.prior()
	for _, m := range []Classifier{
		&Spreading{Alpha: 0.9, Float32: true, ClassMassNormalization: true},
		&Spreading{Alpha: 0.9, Solver: CG},
		&Spreading{Alpha: 0.9, Solver: FixedPoint, ClassMassNormalization: true},
		&Harmonic{},
	} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		f, probs, labels := m.Scores(), m.Probabilities(), m.Labels()
		n := p.g.Nodes()
		mass := make([]float64, p.c)
		for i := 0; i < n; i++ {
			if _, ok := lab[i]; !ok {
				for k := range mass {
					mass[k] += f.At(i, k)
				}
			}
		}
		cmn := false
		switch e := m.(type) {
		case *Spreading:
			cmn = e.ClassMassNormalization
		case *Harmonic:
			cmn = e.ClassMassNormalization
		}
		var row []float64
		for i := 0; i < n; i++ {
			want := make([]float64, p.c)
			var sum float64
			for k := range want {
				v := f.At(i, k)
				if cmn {
					v *= q[k] / mass[k]
				}
				want[k] = math.Max(v, 0)
				sum += want[k]
			}
			if sum > 0 {
				for k := range want {
					want[k] /= sum
				}
			} else {
				copy(want, q)
			}
			row = m.(interface {
				ProbabilityRow([]float64, int) []float64
			}).ProbabilityRow(row, i)
			assert.Equal(t, probs.RawRowView(i), row, "node %d: ProbabilityRow against Probabilities", i)
			assert.InDeltaSlice(t, want, row, 1e-12, "node %d", i)
			assert.Equal(t, argmax(want), labels[i], "node %d", i)
		}
	}
}

// TestClipNegative checks clipNegative against math.Max(v, 0) bit for bit
// on the values where Max is particular (signed zeros, NaN, infinities)
// and on random ones.
func TestClipNegative(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1, -1, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64}
	rng := rand.New(rand.NewPCG(2, 9))
	for range 100 {
		vals = append(vals, rng.NormFloat64())
	}
	for _, v := range vals {
		want, got := math.Max(v, 0), clipNegative(v)
		if math.Float64bits(want) != math.Float64bits(got) {
			t.Fatalf("clipNegative(%v) = %v (bits %#x), want %v (bits %#x)", v, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}
