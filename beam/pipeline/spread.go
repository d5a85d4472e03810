package pipeline

import (
	"cmp"
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
	for _, t := range []any{spreadNode{}, stateBlock{}, contribBlock{}, idNode{}, bucketNodeFn{}, startSpreadFn{}, roundFn{}, Scores{}, finishSpreadFn{}, residualLogFn{}, sumSquares{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// Spreading are the settings of label spreading (Zhou et al. 2003),
// F = (1 − a)(I − aS)^{-1} Y, by a fixed number of Chebyshev rounds.
type Spreading struct {
	// Alpha is a, inside (0, 1); no default here (gssl-beam labelprop's
	// flag defaults to DefaultAlpha).
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
	// Buckets is the number of parts the nodes are split into by a hash of
	// their id: a round moves one state element per bucket and one
	// contribution element per pair of buckets that share an edge. 0 means
	// DefaultBuckets. The scores do not depend on it.
	Buckets int
}

// DefaultBuckets is the number of buckets without Spreading.Buckets: few
// enough that a round is at most 65 536 contribution elements, many enough
// that each bucket is a small part of a worker's memory up to billions of
// entries (raise it with the number of workers).
const DefaultBuckets = 256

// MaxBuckets bounds Spreading.Buckets.
const MaxBuckets = 1 << 20

func (sp Spreading) buckets() int {
	if sp.Buckets > 0 {
		return sp.Buckets
	}
	return DefaultBuckets
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
	if sp.Buckets < 0 || sp.Buckets > MaxBuckets {
		return fmt.Errorf("pipeline: Buckets = %d is invalid: it must be in [0, %d] (0: %d)", sp.Buckets, MaxBuckets, DefaultBuckets)
	}
	return nil
}

// DefaultAlpha is the a gssl-beam labelprop uses without --alpha:
// labelprop.DefaultAlpha, gssl's own. Choosing a by validation would take
// one pipeline per candidate; choose it on a sample with gssl instead.
const DefaultAlpha = labelprop.DefaultAlpha

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
// recurrence z_{k+1} = z_k + ω_k (z_k − z_{k−1}) + γ_k t∘r_k of the core's
// one Chebyshev semi-iteration, krylov.Chebyshev (Saad, Alg. 12.1 with
// θ = 1, δ = a), which labelprop and propagate run in memory; this
// distributed form keeps its own rounds:
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

// spreadNode is the state of a node between rounds: its id, the graph row
// it sends along, its scaling t = d^{-1/2} and u = d^{1/2} (both 1 when
// isolated), its label and the last two iterates z_k and z_{k−1}
// (z = t∘x).
type spreadNode struct {
	ID        string
	Adj       []string
	W         []float64
	T, U      float64
	Class     int
	Pos       int64
	Cur, Prev []float64
}

// stateBlock is the state of the nodes of one bucket, in ascending order
// of id: one element per bucket and round, so that the runner handles B
// elements per round rather than n.
type stateBlock struct {
	Nodes []spreadNode
}

// contribBlock are the contributions w_ij z_{k,j} one bucket sends to the
// nodes of another: IDs[e] receives Vals[e·c : (e+1)·c]. One element per
// pair of buckets and round, rather than one per directed entry: what a
// runner pays per element (Prism keeps about 150 bytes of bookkeeping per
// element and more per key, against the 8c bytes of a contribution) is paid
// B² times per round instead of nnz times.
type contribBlock struct {
	IDs  []string
	Vals []float64
}

// bucketOf is the bucket of a node id: FNV-1a of the id modulo b.
func bucketOf(id string, b int) int {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	return int(h % uint64(b))
}

// sender collects a bucket's contributions by the bucket of the receiving
// node: node j sends w_ij z_{k,j} to each neighbour i (nothing when
// z_{k,j} = 0), so (W z_k)_i is the sum of what i receives.
type sender struct {
	buckets int
	out     map[int]*contribBlock
}

func (s *sender) add(n *spreadNode) {
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
	if s.out == nil {
		s.out = map[int]*contribBlock{}
	}
	for k, j := range n.Adj {
		if n.W[k] == 0 {
			continue
		}
		b := bucketOf(j, s.buckets)
		blk := s.out[b]
		if blk == nil {
			blk = &contribBlock{}
			s.out[b] = blk
		}
		blk.IDs = append(blk.IDs, j)
		for _, v := range n.Cur {
			blk.Vals = append(blk.Vals, n.W[k]*v)
		}
	}
}

// flush emits the blocks in ascending order of bucket.
func (s *sender) flush(emit func(int, contribBlock)) {
	keys := make([]int, 0, len(s.out))
	for b := range s.out {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	for _, b := range keys {
		emit(b, *s.out[b])
	}
	s.out = nil
}

// bucketNodeFn keys a node by its bucket.
type bucketNodeFn struct {
	Buckets int
}

func (f *bucketNodeFn) ProcessElement(id string, n Node) (int, idNode) {
	return bucketOf(id, f.Buckets), idNode{ID: id, Node: n}
}

// idNode is a node with its id, as grouped into a bucket.
type idNode struct {
	ID   string
	Node Node
}

// startSpreadFn is iteration 0 for the nodes of a bucket (in ascending
// order of id): z_0 = 0,
// r_0 = b, z_1 = t∘b with b = (1 − a)·e_class for a labelled node.
type startSpreadFn struct {
	Alpha   float64
	Buckets int
	More    bool // rounds follow: send contributions
}

func (f *startSpreadFn) ProcessElement(b int, nodes bucketNodes, info ClassInfo, emitState func(int, stateBlock), emitContrib func(int, contribBlock)) {
	c := len(info.Names)
	blk := stateBlock{Nodes: make([]spreadNode, len(nodes.Nodes))}
	for k, in := range nodes.Nodes {
		n := in.Node
		sn := spreadNode{ID: in.ID, Adj: n.Adj, W: n.W, T: 1, U: 1, Class: n.Class, Pos: n.Pos, Cur: make([]float64, c), Prev: make([]float64, c)}
		if n.Degree > 0 {
			sn.T, sn.U = 1/math.Sqrt(n.Degree), math.Sqrt(n.Degree)
		}
		if n.Class >= 0 {
			// z_1 = z_0 + ω_0 (z_0 − z_{-1}) + γ_0 t r_0 with ω_0 = 0, γ_0 = 1.
			sn.Cur[n.Class] = 0 + 1*(sn.T*(1-f.Alpha))
		}
		blk.Nodes[k] = sn
	}
	if f.More {
		s := sender{buckets: f.Buckets}
		for k := range blk.Nodes {
			s.add(&blk.Nodes[k])
		}
		s.flush(emitContrib)
	}
	emitState(b, blk)
}

// roundFn is iteration k ≥ 1 for the nodes of a bucket: with
// s = Σ received = (W z_k)_i, r = b − u z_k + a t s and
// z_{k+1} = z_k + ω (z_k − z_{k−1}) + γ t r.
type roundFn struct {
	Round, Rounds int
	Alpha         float64
	Omega, Gamma  float64
	Buckets       int
	More          bool // another round follows: send contributions
	Residual      bool // emit Σ r² per class

	logged bool
}

func (f *roundFn) ProcessElement(ctx context.Context, b int, states func(*stateBlock) bool, contribs func(*contribBlock) bool, emitState func(int, stateBlock), emitContrib func(int, contribBlock), emitRes func([]float64)) error {
	var blk stateBlock
	hasState := states(&blk)
	var extra stateBlock
	if states(&extra) {
		return fmt.Errorf("pipeline: round %d: bucket %d twice", f.Round, b)
	}
	got := make([][][]float64, len(blk.Nodes))
	c := 0
	if len(blk.Nodes) > 0 {
		c = len(blk.Nodes[0].Cur)
	}
	var in contribBlock
	for contribs(&in) {
		for e, id := range in.IDs {
			k, ok := slices.BinarySearchFunc(blk.Nodes, id, func(n spreadNode, id string) int { return cmp.Compare(n.ID, id) })
			if !hasState || !ok {
				return fmt.Errorf("pipeline: round %d: contributions for %q, which is not a node", f.Round, id)
			}
			got[k] = append(got[k], in.Vals[e*c:(e+1)*c:(e+1)*c])
		}
		in = contribBlock{}
	}
	var res []float64
	if f.Residual {
		res = make([]float64, c)
	}
	s := make([]float64, c)
	out := sender{buckets: f.Buckets}
	for k := range blk.Nodes {
		n := &blk.Nodes[k]
		// The sum is taken in a fixed order (the received vectors sorted), so
		// the result does not depend on the order the runner delivers them.
		g := got[k]
		slices.SortFunc(g, func(a, b []float64) int { return slices.Compare(a, b) })
		clear(s)
		for _, v := range g {
			for t := range s {
				s[t] += v[t]
			}
		}
		got[k] = nil
		li := f.Alpha * n.T
		next := n.Prev // z_{k−1} is read only here: reuse it for z_{k+1}
		for t := 0; t < c; t++ {
			z := n.Cur[t]
			r := li*s[t] - n.U*z
			if t == n.Class {
				r += 1 - f.Alpha
			}
			if res != nil {
				res[t] += r * r
			}
			next[t] = z + f.Omega*(z-next[t]) + f.Gamma*(n.T*r)
		}
		n.Cur, n.Prev = next, n.Cur
		if f.More {
			out.add(n)
		}
	}
	if f.More {
		out.flush(emitContrib)
	}
	if res != nil && hasState {
		emitRes(res)
	}
	if !f.logged {
		f.logged = true
		log.Debugf(ctx, "gssl-beam: round %d/%d running", f.Round, f.Rounds)
	}
	if hasState {
		emitState(b, blk)
	}
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

// finishSpreadFn turns z_K into x_K = u∘z_K, one element per node.
type finishSpreadFn struct{}

func (finishSpreadFn) ProcessElement(_ int, blk stateBlock, emit func(string, Scores)) {
	for k := range blk.Nodes {
		n := &blk.Nodes[k]
		f := make([]float64, len(n.Cur))
		for t, z := range n.Cur {
			f[t] = n.U * z
		}
		emit(n.ID, Scores{F: f, Class: n.Class, Pos: n.Pos})
	}
}

// Spread adds label spreading on g to s: K = sp.K() iterations of the
// Chebyshev semi-iteration on (I − aS) F = (1 − a) Y. The nodes are split
// into sp.Buckets buckets by a hash of their id (one GroupByKey); the
// first iteration needs no shuffle, and each further one is a single
// CoGroupByKey, keyed by bucket, of the buckets' node states with the
// contributions the other buckets sent them. It returns
// PCollection<KV<string, Scores>>, one element per node. The scores do not
// depend on the number of buckets (each node sums what it receives in a
// fixed order).
func Spread(s beam.Scope, g Graph, sp Spreading) (beam.PCollection, error) {
	if err := sp.Validate(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("Spread")
	states, _ := startSpread(s, g, sp, sp.K())
	return beam.ParDo(s.Scope("Finish"), finishSpreadFn{}, states), nil
}

// startSpread adds iterations 0 … to−1 (to ≤ K) on g to s and returns the
// states after them, PCollection<KV<int, stateBlock>>, and the number of
// buckets.
func startSpread(s beam.Scope, g Graph, sp Spreading, to int) (beam.PCollection, int) {
	nb := sp.buckets()
	buckets := g.Buckets
	if buckets.IsValid() {
		nb = g.NumBuckets
	} else {
		bs := s.Scope("Buckets")
		buckets = beam.ParDo(bs, gatherBucketFn{}, beam.GroupByKey(bs, beam.ParDo(bs, &bucketNodeFn{Buckets: nb}, g.Nodes)))
	}
	states, contribs := beam.ParDo2(s.Scope("Round0"), &startSpreadFn{Alpha: sp.Alpha, Buckets: nb, More: to > 1}, buckets, beam.SideInput{Input: g.Classes})
	return spreadRounds(s, states, contribs, g.Classes, sp, nb, 1, to), nb
}

// spreadRounds adds iterations from … to−1 to s, given the states after
// iteration from−1 and the contributions they send, and returns the states
// after them. The last of them sends nothing: either the scores follow, or
// the next job sends from the checkpoint what it would have sent.
func spreadRounds(s beam.Scope, states, contribs, classes beam.PCollection, sp Spreading, nb, from, to int) beam.PCollection {
	k := sp.K()
	omega, gamma := Coefficients(sp.Alpha, k)
	for r := from; r < to; r++ {
		rs := s.Scope(fmt.Sprintf("Round%d", r))
		grouped := beam.CoGroupByKey(rs, states, contribs)
		var res beam.PCollection
		states, contribs, res = beam.ParDo3(rs, &roundFn{Round: r, Rounds: k - 1, Alpha: sp.Alpha, Omega: omega[r], Gamma: gamma[r], Buckets: nb, More: r+1 < to, Residual: sp.LogResidual}, grouped)
		if sp.LogResidual {
			beam.ParDo0(rs, &residualLogFn{Round: r, Rounds: k - 1, Alpha: sp.Alpha}, beam.Combine(rs, sumSquares{}, res), beam.SideInput{Input: classes})
		}
	}
	return states
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
