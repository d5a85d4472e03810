package pipeline

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
)

func init() {
	for _, t := range []any{Node{}, ClassInfo{}, half{}, buildNodeFn{}, classCombine{}, classAcc{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(pairOf)
	beam.RegisterFunction(maxWeight)
	beam.RegisterFunction(halvesOf)
	beam.RegisterFunction(edgeEnds)
	beam.RegisterFunction(labelPos)
	beam.RegisterFunction(labelByID)
	beam.RegisterFunction(minPos)
	beam.RegisterFunction(isIntID)
	beam.RegisterFunction(and)
}

// Node is one node of the graph W: its adjacency (the undirected edges of
// the input, merged), its degree and its label. The node's id is its key.
type Node struct {
	// Adj are the neighbours in ascending order of id (the node itself for
	// a self loop), W[k] the weight of the edge to Adj[k].
	Adj []string
	W   []float64
	// Degree is d = Σ_k W[k] (a self loop counted once, as the core's CSR).
	Degree float64
	// Class is the label's class 0..C−1 (ClassInfo.Names), −1 unlabelled.
	Class int
	// Pos is the first appearance of the id in the inputs (see position).
	Pos int64
}

// ClassInfo are the classes of the labels: the distinct labels as written,
// in ascending numeric order when all are integers, else in ascending text
// order (the core's rule), and the number of labelled nodes of each.
type ClassInfo struct {
	Names  []string
	Counts []int64
}

// Prior returns the class frequencies among the labelled nodes.
func (c ClassInfo) Prior() []float64 {
	var total int64
	for _, n := range c.Counts {
		total += n
	}
	p := make([]float64, len(c.Counts))
	for k, n := range c.Counts {
		p[k] = float64(n) / float64(total)
	}
	return p
}

// Graph is a graph in a pipeline.
type Graph struct {
	// Nodes is PCollection<KV<string, Node>>: every node of the edge and
	// labels tables, keyed by its id (BuildGraph).
	Nodes beam.PCollection
	// Buckets is, in place of Nodes, the nodes split into NumBuckets parts
	// by a hash of their id (ReadBucketGraph): one element per bucket.
	Buckets    beam.PCollection
	NumBuckets int
	// Classes is a singleton PCollection<ClassInfo>.
	Classes beam.PCollection
	// IntIDs is a singleton PCollection<bool>: every id is an integer in
	// the core's sense (nodeids), so outputs list the nodes by ascending id;
	// else by first appearance.
	IntIDs beam.PCollection
}

// half is one direction of a merged edge, keyed by its node.
type half struct {
	Nbr string
	W   float64
}

// pairKey is an unordered pair of ids as one key.
func pairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return strconv.Itoa(len(a)) + ":" + a + b
}

func splitPair(k string) (string, string) {
	i := 0
	for k[i] != ':' {
		i++
	}
	n, _ := strconv.Atoi(k[:i])
	return k[i+1 : i+1+n], k[i+1+n:]
}

func pairOf(e Edge) (string, float64) { return pairKey(e.Src, e.Dst), e.W }

func maxWeight(a, b float64) float64 { return math.Max(a, b) }

func halvesOf(k string, w float64, emit func(string, half)) {
	a, b := splitPair(k)
	emit(a, half{Nbr: b, W: w})
	if a != b {
		emit(b, half{Nbr: a, W: w})
	}
}

func edgeEnds(e Edge, emit func(string, int64)) {
	emit(e.Src, e.Pos)
	emit(e.Dst, e.Pos|1)
}

func labelPos(l Label) (string, int64) { return l.ID, l.Pos }

func labelByID(l Label) (string, Label) { return l.ID, l }

func minPos(a, b int64) int64 { return min(a, b) }

func isIntID(id string, _ int64) bool {
	_, ok := nodeids.ParseCanonical(id)
	return ok
}

func and(a, b bool) bool { return a && b }

// classCombine collects the distinct labels and their counts.
type classCombine struct{}

// classAcc wraps the accumulator (Beam encodes maps only inside structs).
type classAcc struct {
	Counts map[string]int64
}

func (classCombine) CreateAccumulator() classAcc { return classAcc{Counts: map[string]int64{}} }

// AddInput counts a labelled row; the combine reads every row, so that an
// all-unlabelled table still gives its (empty) ClassInfo.
func (classCombine) AddInput(a classAcc, l Label) classAcc {
	if a.Counts == nil {
		a.Counts = map[string]int64{}
	}
	if v := loaders.CanonicalLabel(l.Value); !loaders.Unlabelled(v) {
		a.Counts[v]++
	}
	return a
}
func (classCombine) MergeAccumulators(a, b classAcc) classAcc {
	if a.Counts == nil {
		a.Counts = map[string]int64{}
	}
	for k, v := range b.Counts {
		a.Counts[k] += v
	}
	return a
}
func (classCombine) ExtractOutput(acc classAcc) ClassInfo {
	a := acc.Counts
	names := make([]string, 0, len(a))
	numeric := true
	for v := range a {
		names = append(names, v)
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		slices.SortFunc(names, func(x, y string) int {
			a, _ := strconv.ParseInt(x, 10, 64)
			b, _ := strconv.ParseInt(y, 10, 64)
			return cmp.Compare(a, b)
		})
	} else {
		slices.Sort(names)
	}
	info := ClassInfo{Names: names, Counts: make([]int64, len(names))}
	for k, v := range names {
		info.Counts[k] = a[v]
	}
	return info
}

// buildNodeFn assembles a node from its merged edges, its first position
// and its label rows.
type buildNodeFn struct {
	// Labels says whether a labels table was given (then at least one node
	// must be labelled).
	Labels bool
	// KeepIsolatedSeeds lets a labelled node of degree 0 keep its label
	// instead of failing.
	KeepIsolatedSeeds bool

	classes map[string]int
}

func (f *buildNodeFn) ProcessElement(id string, halves func(*half) bool, poss func(*int64) bool, labels func(*Label) bool, info ClassInfo, emit func(string, Node)) error {
	if f.classes == nil {
		f.classes = make(map[string]int, len(info.Names))
		for k, v := range info.Names {
			f.classes[v] = k
		}
	}
	if f.Labels && len(info.Names) == 0 {
		return fmt.Errorf("pipeline: no node is labelled: give --labels (id,label rows; an empty label means unlabelled)")
	}
	var hs []half
	var h half
	for halves(&h) {
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(a, b half) int { return cmp.Compare(a.Nbr, b.Nbr) })
	n := Node{Adj: make([]string, len(hs)), W: make([]float64, len(hs)), Class: -1, Pos: math.MaxInt64}
	for k, h := range hs {
		n.Adj[k], n.W[k] = h.Nbr, h.W
		n.Degree += h.W
	}
	var p int64
	for poss(&p) {
		n.Pos = min(n.Pos, p)
	}
	var rows []Label
	var l Label
	for labels(&l) {
		rows = append(rows, l)
	}
	if len(rows) > 1 {
		slices.SortFunc(rows, func(a, b Label) int { return cmp.Compare(a.Pos, b.Pos) })
	}
	if err := labelNode(&n, id, rows, f.classes, f.KeepIsolatedSeeds); err != nil {
		return err
	}
	emit(id, n)
	return nil
}

// BuildGraph turns edges (PCollection<Edge>) and labels
// (PCollection<Label>, or an invalid PCollection for none) into the graph:
// each edge is undirected, an edge given twice (in either direction) keeps
// the larger weight, self loops are kept (the core's
// loaders.UserGraphOptions). A labelled node listed twice is an error
// naming both lines; a labelled node of degree 0 is an error unless
// keepIsolatedSeeds.
func BuildGraph(s beam.Scope, edges, labels beam.PCollection, keepIsolatedSeeds bool) Graph {
	s = s.Scope("BuildGraph")
	merged := beam.CombinePerKey(s, maxWeight, beam.ParDo(s, pairOf, edges))
	halves := beam.ParDo(s, halvesOf, merged)
	occ := []beam.PCollection{beam.ParDo(s, edgeEnds, edges)}
	hasLabels := labels.IsValid()
	var byID, classes beam.PCollection
	if hasLabels {
		occ = append(occ, beam.ParDo(s, labelPos, labels))
		byID = beam.ParDo(s, labelByID, labels)
		classes = beam.Combine(s, classCombine{}, labels)
	} else {
		byID = beam.ParDo(s, labelByID, beam.CreateList(s, []Label{}))
		classes = beam.Create(s, ClassInfo{})
	}
	first := beam.CombinePerKey(s, minPos, beam.Flatten(s, occ...))
	intIDs := beam.Combine(s, and, beam.ParDo(s, isIntID, first))
	grouped := beam.CoGroupByKey(s, halves, first, byID)
	nodes := beam.ParDo(s, &buildNodeFn{Labels: hasLabels, KeepIsolatedSeeds: keepIsolatedSeeds}, grouped, beam.SideInput{Input: classes})
	return Graph{Nodes: nodes, Classes: classes, IntIDs: intIDs}
}
