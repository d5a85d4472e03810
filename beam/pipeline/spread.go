package pipeline

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"

	"github.com/gssl/gssl/labelprop"
)

func init() {
	for _, t := range []any{spreadNode{}, startSpreadFn{}, roundFn{}, Scores{}, finishSpreadFn{}, residualLogFn{}, sumSquares{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// Spreading are the settings of label spreading (Zhou et al. 2003),
// F = (1 − a)(I − aS)^{-1} Y, by a fixed number of Chebyshev rounds.
type Spreading struct {
	// Alpha is a, inside (0, 1); no default (as labelprop.Spreading).
	Alpha float64
	// Tol is the relative residual the rounds must reach by the Chebyshev
	// bound; 0 means labelprop.DefaultTol.
	Tol float64
	// Rounds is K, the number of iterations; 0 means Rounds(Alpha, Tol).
	Rounds int
	// LogResidual adds to every round a global sum of the squared residual
	// of each class, logged (Beam's log package, stderr on Prism) as
	// "round k/K: relative residual …". It costs one small combine per
	// round; the iteration does not wait for it.
	LogResidual bool
}

// Validate checks the settings.
func (sp Spreading) Validate() error {
	if !(sp.Alpha > 0 && sp.Alpha < 1) {
		return fmt.Errorf("pipeline: Alpha = %v is invalid: it must be inside the open interval (0, 1)", sp.Alpha)
	}
	if sp.Tol != 0 && !(sp.Tol > 0 && sp.Tol < 1) {
		return fmt.Errorf("pipeline: Tol = %v is invalid: it must be inside (0, 1), or 0 for the default %v", sp.Tol, labelprop.DefaultTol)
	}
	if sp.Rounds < 0 || sp.Rounds > MaxRounds {
		return fmt.Errorf("pipeline: Rounds = %d is invalid: it must be in [0, %d] (0: from Alpha and Tol)", sp.Rounds, MaxRounds)
	}
	return nil
}

// DefaultAlpha is the a gssl-beam labelprop uses without --alpha: the value
// gssl labelprop --alpha auto chooses on PubMed's Planetoid split
// (BENCHMARKS.md, label propagation). Choosing a by validation would take
// one pipeline per candidate; choose it on a sample with gssl instead.
const DefaultAlpha = 0.9

// MaxRounds bounds K: every round is a stage of the pipeline graph.
const MaxRounds = 10000

// K returns the number of iterations the settings give.
func (sp Spreading) K() int {
	if sp.Rounds > 0 {
		return sp.Rounds
	}
	tol := sp.Tol
	if tol == 0 {
		tol = labelprop.DefaultTol
	}
	return Rounds(sp.Alpha, tol)
}

// Rounds returns the smallest K with 2·((√κ − 1)/(√κ + 1))^K ≤ tol,
// κ = (1 + a)/(1 − a): the Chebyshev bound on the relative residual of
// the semi-iteration on I − aS, whose eigenvalues lie in [1 − a, 1 + a]
// (2ρ^K ≥ 1/T_K(1/a), so K is at least labelprop's own bound).
func Rounds(a, tol float64) int {
	sk := math.Sqrt((1 + a) / (1 - a))
	rho := (sk - 1) / (sk + 1)
	k := int(math.Ceil(math.Log(tol/2) / math.Log(rho)))
	for k > 1 && 2*math.Pow(rho, float64(k-1)) <= tol {
		k--
	}
	for 2*math.Pow(rho, float64(k)) > tol {
		k++
	}
	return max(k, 1)
}

// Coefficients returns (ω_k, γ_k) for k = 0..K−1 of the three-term
// recurrence z_{k+1} = z_k + ω_k (z_k − z_{k−1}) + γ_k t∘r_k of
// labelprop's Chebyshev solver (Saad, Alg. 12.1 with θ = 1, δ = a):
// ω_0 = 0, γ_0 = 1, ρ_0 = a, ρ_k = 1/(2/a − ρ_{k−1}), ω_k = ρ_k ρ_{k−1},
// γ_k = 2ρ_k/a.
func Coefficients(a float64, k int) (omega, gamma []float64) {
	omega, gamma = make([]float64, k), make([]float64, k)
	sigma := 1 / a
	rho := 1 / sigma
	if k > 0 {
		omega[0], gamma[0] = 0, 1
	}
	for i := 1; i < k; i++ {
		next := 1 / (2*sigma - rho)
		omega[i], gamma[i] = next*rho, 2*next/a
		rho = next
	}
	return omega, gamma
}

// spreadNode is the state of a node between rounds: the graph row it sends
// along, its scaling t = d^{-1/2} and u = d^{1/2} (both 1 when isolated),
// its label and the last two iterates z_k and z_{k−1} (z = t∘x).
type spreadNode struct {
	Adj       []string
	W         []float64
	T, U      float64
	Class     int
	Pos       int64
	Cur, Prev []float64
}

// contributions: node j sends w_ij z_{k,j} to each neighbour i (nothing
// when z_{k,j} = 0), so (W z_k)_i is the sum of what i receives.
func emitContributions(n *spreadNode, emit func(string, []float64)) {
	zero := true
	for _, v := range n.Cur {
		if v != 0 {
			zero = false
			break
		}
	}
	if zero {
		return
	}
	for k, j := range n.Adj {
		if n.W[k] == 0 {
			continue
		}
		c := make([]float64, len(n.Cur))
		for t, v := range n.Cur {
			c[t] = n.W[k] * v
		}
		emit(j, c)
	}
}

// startSpreadFn is iteration 0: z_0 = 0, r_0 = b, z_1 = t∘b with
// b = (1 − a)·e_class for a labelled node.
type startSpreadFn struct {
	Alpha float64
	More  bool // rounds follow: send contributions
}

func (f *startSpreadFn) ProcessElement(id string, n Node, info ClassInfo, emitNode func(string, spreadNode), emitContrib func(string, []float64)) {
	c := len(info.Names)
	sn := spreadNode{Adj: n.Adj, W: n.W, T: 1, U: 1, Class: n.Class, Pos: n.Pos, Cur: make([]float64, c), Prev: make([]float64, c)}
	if n.Degree > 0 {
		sn.T, sn.U = 1/math.Sqrt(n.Degree), math.Sqrt(n.Degree)
	}
	if n.Class >= 0 {
		// z_1 = z_0 + ω_0 (z_0 − z_{-1}) + γ_0 t r_0 with ω_0 = 0, γ_0 = 1.
		sn.Cur[n.Class] = 0 + 1*(sn.T*(1-f.Alpha))
	}
	if f.More {
		emitContributions(&sn, emitContrib)
	}
	emitNode(id, sn)
}

// roundFn is iteration k ≥ 1: with s = Σ received = (W z_k)_i,
// r = b − u z_k + a t s and z_{k+1} = z_k + ω (z_k − z_{k−1}) + γ t r.
type roundFn struct {
	Round, Rounds int
	Alpha         float64
	Omega, Gamma  float64
	More          bool // another round follows: send contributions
	Residual      bool // emit Σ r² per class

	logged bool
}

func (f *roundFn) ProcessElement(ctx context.Context, id string, nodes func(*spreadNode) bool, contribs func(*[]float64) bool, emitNode func(string, spreadNode), emitContrib func(string, []float64), emitRes func([]float64)) error {
	var n spreadNode
	if !nodes(&n) {
		return fmt.Errorf("pipeline: round %d: contributions for %q, which is not a node", f.Round, id)
	}
	var extra spreadNode
	if nodes(&extra) {
		return fmt.Errorf("pipeline: round %d: node %q twice", f.Round, id)
	}
	c := len(n.Cur)
	// The sum is taken in a fixed order (the received vectors sorted), so
	// the result does not depend on the order the runner delivers them.
	var got [][]float64
	var v []float64
	for contribs(&v) {
		got = append(got, v)
		v = nil
	}
	slices.SortFunc(got, func(a, b []float64) int { return slices.Compare(a, b) })
	s := make([]float64, c)
	for _, g := range got {
		for t := range s {
			s[t] += g[t]
		}
	}
	li := f.Alpha * n.T
	next := n.Prev // z_{k−1} is read only here: reuse it for z_{k+1}
	var res []float64
	if f.Residual {
		res = make([]float64, c)
	}
	for t := 0; t < c; t++ {
		z := n.Cur[t]
		r := li*s[t] - n.U*z
		if t == n.Class {
			r += 1 - f.Alpha
		}
		if res != nil {
			res[t] = r * r
		}
		next[t] = z + f.Omega*(z-next[t]) + f.Gamma*(n.T*r)
	}
	n.Cur, n.Prev = next, n.Cur
	if f.More {
		emitContributions(&n, emitContrib)
	}
	if res != nil {
		emitRes(res)
	}
	if !f.logged {
		f.logged = true
		log.Debugf(ctx, "gssl-beam: round %d/%d running", f.Round, f.Rounds)
	}
	emitNode(id, n)
	return nil
}

// sumSquares adds per-class vectors.
type sumSquares struct{}

func (sumSquares) CreateAccumulator() []float64 { return nil }
func (sumSquares) AddInput(a, v []float64) []float64 {
	if a == nil {
		a = make([]float64, len(v))
	}
	for k := range v {
		a[k] += v[k]
	}
	return a
}
func (sumSquares) MergeAccumulators(a, b []float64) []float64 { return sumSquares{}.AddInput(a, b) }
func (sumSquares) ExtractOutput(a []float64) []float64        { return a }

// residualLogFn logs the relative residual ‖r_k‖/‖b‖ of the worst class.
type residualLogFn struct {
	Round, Rounds int
	Alpha         float64
}

func (f *residualLogFn) ProcessElement(ctx context.Context, rr []float64, info ClassInfo) {
	worst := 0.0
	for k, v := range rr {
		if k < len(info.Counts) && info.Counts[k] > 0 {
			bnorm := (1 - f.Alpha) * math.Sqrt(float64(info.Counts[k]))
			worst = math.Max(worst, math.Sqrt(v)/bnorm)
		}
	}
	log.Infof(ctx, "gssl-beam: round %d/%d: relative residual %.3g", f.Round, f.Rounds, worst)
}

// Scores are the result of label spreading at a node: F = x_K (the scores
// before normalisation), the node's class (−1 unlabelled) and its first
// position.
type Scores struct {
	F     []float64
	Class int
	Pos   int64
}

// finishSpreadFn turns z_K into x_K = u∘z_K.
type finishSpreadFn struct{}

func (finishSpreadFn) ProcessElement(id string, n spreadNode, emit func(string, Scores)) {
	f := make([]float64, len(n.Cur))
	for t, z := range n.Cur {
		f[t] = n.U * z
	}
	emit(id, Scores{F: f, Class: n.Class, Pos: n.Pos})
}

// Spread adds label spreading on g to s: K = sp.K() iterations of the
// Chebyshev semi-iteration on (I − aS) F = (1 − a) Y, the first without a
// shuffle and each further one a single CoGroupByKey of the node states
// with the contributions of their neighbours. It returns
// PCollection<KV<string, Scores>>, one element per node.
func Spread(s beam.Scope, g Graph, sp Spreading) (beam.PCollection, error) {
	if err := sp.Validate(); err != nil {
		return beam.PCollection{}, err
	}
	k := sp.K()
	omega, gamma := Coefficients(sp.Alpha, k)
	s = s.Scope("Spread")
	side := beam.SideInput{Input: g.Classes}
	nodes, contribs := beam.ParDo2(s.Scope("Round0"), &startSpreadFn{Alpha: sp.Alpha, More: k > 1}, g.Nodes, side)
	for r := 1; r < k; r++ {
		rs := s.Scope(fmt.Sprintf("Round%d", r))
		grouped := beam.CoGroupByKey(rs, nodes, contribs)
		var res beam.PCollection
		nodes, contribs, res = beam.ParDo3(rs, &roundFn{Round: r, Rounds: k - 1, Alpha: sp.Alpha, Omega: omega[r], Gamma: gamma[r], More: r+1 < k, Residual: sp.LogResidual}, grouped)
		if sp.LogResidual {
			beam.ParDo0(rs, &residualLogFn{Round: r, Rounds: k - 1, Alpha: sp.Alpha}, beam.Combine(rs, sumSquares{}, res), side)
		}
	}
	return beam.ParDo(s.Scope("Finish"), finishSpreadFn{}, nodes), nil
}

// Normalise turns scores into probabilities as labelprop does: negative
// entries (rounding) clipped to 0, the row scaled to sum 1, the class prior
// when nothing is left (a node with no path to a labelled node).
func Normalise(p, f, prior []float64) {
	var sum float64
	for k, v := range f {
		p[k] = math.Max(v, 0)
		sum += p[k]
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		copy(p, prior)
		return
	}
	for k := range p {
		p[k] /= sum
	}
}

// argmax is the first largest entry.
func argmax(v []float64) int {
	best := 0
	for k, x := range v {
		if x > v[best] {
			best = k
		}
	}
	return best
}
