package linbp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// bipartiteish is a 3-class graph whose edges mostly join class k to k+1.
func bipartiteish(t *testing.T, n int) (*graph.CSR, []int) {
	rng := rand.New(rand.NewPCG(7, 8))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 3
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for e := 0; e < 3; e++ {
			j := rng.IntN(n)
			if rng.Float64() < 0.85 {
				j = 3*rng.IntN(n/3) + (truth[i]+1)%3
			}
			if j != i {
				edges = append(edges, graph.Edge{U: i, V: j, W: 0.5 + rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// TestAgainstKroneckerSolve checks the beliefs against the dense solve of
// (I − a Ĥᵀ ⊗ S) vec(B) = vec(E), and that they classify a heterophilous
// graph well where plain propagation (Ĥ = I) could not.
func TestAgainstKroneckerSolve(t *testing.T) {
	n := 60
	g, truth := bipartiteish(t, n)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
		if i%4 == 0 {
			labels[i] = truth[i]
		}
	}
	m := &Propagation{Alpha: 0.8, Tol: 1e-13}
	ctx := context.Background()
	if _, err := m.Predict(ctx, estimator.FittedNodes); !errors.Is(err, estimator.ErrNotFitted) {
		t.Fatalf("predict before fit: %v", err)
	}
	if err := m.Fit(ctx, estimator.Nodes{Graph: g}, labels); err != nil {
		t.Fatal(err)
	}
	b := m.Beliefs()
	hc := m.Compatibility()
	c, _ := hc.Dims()
	a := 0.8 / SpectralRadius(hc)

	// Dense S and the Kronecker system, vec stacking columns.
	ad := g.Dense()
	s := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if di, dj := g.Degree(i), g.Degree(j); di > 0 && dj > 0 {
				s.Set(i, j, ad.At(i, j)/math.Sqrt(di*dj))
			}
		}
	}
	sys := mat.NewDense(n*c, n*c, nil)
	for k := 0; k < c; k++ {
		for l := 0; l < c; l++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					v := -a * hc.At(l, k) * s.At(i, j) // block (k, l) of Ĥᵀ ⊗ S is Ĥ_lk S
					if k == l && i == j {
						v++
					}
					sys.Set(k*n+i, l*n+j, v)
				}
			}
		}
	}
	e := Priors(labels, c)
	rhs := mat.NewVecDense(n*c, nil)
	for k := 0; k < c; k++ {
		for i := 0; i < n; i++ {
			rhs.SetVec(k*n+i, e.At(i, k))
		}
	}
	var sol mat.VecDense
	if err := sol.SolveVec(sys, rhs); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < c; k++ {
		for i := 0; i < n; i++ {
			if d := math.Abs(b.At(i, k) - sol.AtVec(k*n+i)); d > 1e-10 {
				t.Fatalf("B[%d,%d] = %v, dense solve %v", i, k, b.At(i, k), sol.AtVec(k*n+i))
			}
		}
	}
	accuracy := func(b *mat.Dense) float64 {
		right, count := 0, 0
		for i, k := range estimator.Argmax(b) {
			if labels[i] < 0 {
				count++
				if k == truth[i] {
					right++
				}
			}
		}
		return float64(right) / float64(count)
	}
	// Plain propagation: Ĥ the centred identity.
	eye := mat.NewDense(c, c, nil)
	for k := 0; k < c; k++ {
		eye.Set(k, k, 1)
	}
	id := Centre(eye)
	plain, _, err := Solve(ctx, g, e, id, 0.8/SpectralRadius(id), 1e-13, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if acc, accPlain := accuracy(b), accuracy(plain); acc < 0.6 || acc < accPlain+0.3 {
		t.Errorf("accuracy on the unlabelled nodes %v, plain propagation %v: want ≥ 0.6 and 0.3 above", acc, accPlain)
	}
	checkProbabilities(t, m, &sol)
}

// checkProbabilities checks m's Predict against the probabilities of the
// dense solve's beliefs sol (vec(B), columns stacked), written out here:
// max(1/c + B, 0) row-normalised. The rows are distributions, and their
// argmax is B's.
func checkProbabilities(t *testing.T, m *Propagation, sol *mat.VecDense) {
	t.Helper()
	p, err := m.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	n, c := p.Dims()
	b := m.Beliefs()
	if !slices.Equal(estimator.Argmax(p), estimator.Argmax(b)) {
		t.Error("the probabilities' argmax is not the beliefs'")
	}
	clipped := 0
	for i := 0; i < n; i++ {
		want := make([]float64, c)
		sum := 0.0
		for k := range want {
			want[k] = math.Max(0, 1/float64(c)+sol.AtVec(k*n+i))
			sum += want[k]
		}
		total := 0.0
		for k, v := range p.RawRowView(i) {
			if !(v >= 0) || math.Abs(v-want[k]/sum) > 1e-10 {
				t.Fatalf("P[%d,%d] = %v, want %v", i, k, v, want[k]/sum)
			}
			if v == 0 {
				clipped++
			}
			total += v
		}
		if math.Abs(total-1) > 1e-14 {
			t.Fatalf("row %d of P sums to %v", i, total)
		}
	}
	t.Logf("%d of %d×%d probabilities clipped to 0", clipped, n, c)
}

// TestProbabilitiesKeepTheArgmax: rows whose two largest beliefs are one
// unit in the last place apart keep the second (the first largest) as the
// most probable class, though 1/c + B rounds many of them to a tie.
func TestProbabilitiesKeepTheArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, c = 1000, 5
	b := mat.NewDense(rows, c, nil)
	for i := 0; i < rows; i++ {
		x := 0.25 + 0.25*rng.Float64()
		y := math.Nextafter(x, 1)
		b.SetRow(i, []float64{x, y, -x, -y, 0})
	}
	ties := 0
	for i := 0; i < rows; i++ {
		if 1/float64(c)+b.At(i, 0) == 1/float64(c)+b.At(i, 1) {
			ties++
		}
	}
	if ties == 0 {
		t.Fatal("no row rounds to a tie: the test checks nothing")
	}
	p := probabilities(b)
	for i, k := range estimator.Argmax(p) {
		if k != 1 {
			t.Fatalf("row %d: most probable class %d, want 1 (P = %v)", i, k, p.RawRowView(i))
		}
		if s := floats.Sum(p.RawRowView(i)); math.Abs(s-1) > 1e-15 {
			t.Fatalf("row %d sums to %v", i, s)
		}
	}
	t.Logf("%d of %d rows tie after adding 1/c", ties, rows)
}

func TestErrors(t *testing.T) {
	g, truth := bipartiteish(t, 30)
	ctx := context.Background()
	for field, m := range map[string]*Propagation{"Alpha": {Alpha: 1}, "Tol": {Tol: -1}, "MaxIter": {MaxIter: -1}} {
		if err := m.Fit(ctx, estimator.Nodes{Graph: g}, truth); err == nil || !strings.Contains(err.Error(), field+"=") {
			t.Errorf("%s: %v", field, err)
		}
	}
	m := &Propagation{Alpha: 0.99, Tol: 1e-15, MaxIter: 2}
	var nc *estimator.NotConvergedError
	if err := m.Fit(ctx, estimator.Nodes{Graph: g}, truth); !errors.As(err, &nc) {
		t.Errorf("two iterations: %v, want NotConvergedError", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := (&Propagation{}).Fit(cctx, estimator.Nodes{Graph: g}, truth); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := (&Propagation{}).Fit(ctx, estimator.Nodes{Graph: g}, truth[:5]); err == nil {
		t.Error("too few labels accepted")
	}
}
